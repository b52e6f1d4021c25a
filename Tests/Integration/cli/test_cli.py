"""previewctl against a running previewd: every subcommand, its effect on the
daemon (read back with a raw protocol client) and its exit codes:
0 done, 1 refused by the daemon, 64 usage error, 69 daemon not reachable."""
import json
import os
import re
import subprocess

import pytest

from helpers import PREVIEWCTL, url
from helpers import CTL_MODES as MODES

ALBUM = "deezer:album:302127"


def ok(daemon, *args):
    """Runs previewctl, asserts exit 0 and an empty stderr; the stdout lines."""
    p = daemon.ctl(*args)
    assert (p.returncode, p.stderr) == (0, ""), (args, p)
    return p.stdout.splitlines()


def status(daemon):
    return daemon.client().fields("status")


@pytest.fixture
def rt(daemon_factory, http):
    """A realtime daemon with three plain URLs queued, stopped."""
    d = daemon_factory(pace="realtime")
    c = d.client()
    for n in (1, 2, 3):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    return d


@pytest.fixture
def album(daemon_factory):
    """A realtime daemon with the 14 album tracks queued, stopped."""
    d = daemon_factory(pace="realtime")
    assert d.client().cmd(f"add {ALBUM}") == ["OK"]
    return d


# ---------------------------------------------------------------- subcommands

def test_add_urls(daemon, http):
    assert ok(daemon, "add", url(http, 1), url(http, 2)) == []
    assert daemon.client().cmd("playlist") == [f"0:file: {url(http, 1)}", f"1:file: {url(http, 2)}", "OK"]


def test_add_album(daemon):
    assert ok(daemon, "add", ALBUM) == []
    assert status(daemon)["playlistlength"] == "14"


def test_play(album):
    lines = ok(album, "play")
    st = status(album)
    assert (st["state"], st["song"], st["songid"]) == ("play", "0", "1")
    assert lines[0] == "Daft Punk - One More Time"


def test_play_position(rt):
    ok(rt, "play", "2")
    st = status(rt)
    assert (st["state"], st["song"], st["songid"]) == ("play", "1", "2")


def test_pause(rt):
    ok(rt, "play")
    lines = ok(rt, "pause")
    assert status(rt)["state"] == "pause"
    assert lines[1].startswith("[paused]  #1/3 ")


def test_toggle(rt):
    ok(rt, "toggle")
    assert status(rt)["state"] == "play"
    ok(rt, "toggle")
    assert status(rt)["state"] == "pause"
    ok(rt, "toggle")
    assert status(rt)["state"] == "play"


def test_stop(rt):
    ok(rt, "play", "2")
    assert ok(rt, "stop") == [MODES]
    st = status(rt)
    assert (st["state"], st["song"]) == ("stop", "1")


def test_next_and_prev(rt):
    ok(rt, "play")
    ok(rt, "next")
    st = status(rt)
    assert (st["state"], st["song"], st["songid"]) == ("play", "1", "2")
    ok(rt, "prev")
    st = status(rt)
    assert (st["state"], st["song"], st["songid"]) == ("play", "0", "1")
    ok(rt, "previous")
    assert status(rt)["song"] == "0"


def test_shuffle(daemon, http):
    for n in range(1, 7):
        assert daemon.client().cmd(f'add "{url(http, n)}"') == ["OK"]
    before = sorted(l for l in daemon.client().cmd("playlistinfo") if l.startswith("file: "))
    assert ok(daemon, "shuffle") == []
    after = sorted(l for l in daemon.client().cmd("playlistinfo") if l.startswith("file: "))
    assert after == before
    assert status(daemon)["playlist"] == "8"


def test_random_on_off(daemon):
    assert ok(daemon, "random", "on") == ["volume:100%   repeat: off   random: on    single: off   consume: off   autoplay: off"]
    assert status(daemon)["random"] == "1"
    assert ok(daemon, "random", "off") == [MODES]
    assert status(daemon)["random"] == "0"


def test_repeat_on_off(daemon):
    assert ok(daemon, "repeat", "on") == ["volume:100%   repeat: on    random: off   single: off   consume: off   autoplay: off"]
    assert status(daemon)["repeat"] == "1"
    assert ok(daemon, "repeat", "off") == [MODES]
    assert status(daemon)["repeat"] == "0"


def test_queue_stopped(daemon, http):
    ok(daemon, "add", url(http, 1), ALBUM)
    lines = ok(daemon, "queue")
    assert len(lines) == 15
    assert lines[0] == f"  1. {url(http, 1)}"
    assert lines[1] == "  2. Daft Punk - One More Time"
    assert lines[14] == " 15. Daft Punk - Too Long"


def test_queue_marks_the_current_song(album):
    ok(album, "play", "2")
    lines = ok(album, "queue")
    assert lines[:3] == ["  1. Daft Punk - One More Time", "> 2. Daft Punk - Aerodynamic", "  3. Daft Punk - Digital Love"]
    assert lines[9] == " 10. Daft Punk - Voyager", "numbers right-aligned to the queue's length"


def test_clear(daemon, http):
    ok(daemon, "add", url(http, 1), url(http, 2))
    assert ok(daemon, "clear") == []
    st = status(daemon)
    assert (st["playlistlength"], st["playlist"]) == ("0", "4")


def test_del(daemon, http):
    ok(daemon, "add", url(http, 1), url(http, 2), url(http, 3))
    assert ok(daemon, "del", "1") == []
    assert daemon.client().cmd("playlist") == [f"0:file: {url(http, 2)}", f"1:file: {url(http, 3)}", "OK"]
    assert ok(daemon, "del", "2") == []
    assert daemon.client().cmd("playlist") == [f"0:file: {url(http, 2)}", "OK"]


def test_volume(daemon):
    assert ok(daemon, "volume") == ["volume: 100%"]
    assert ok(daemon, "volume", "50") == ["volume: 50%"]
    assert status(daemon)["volume"] == "50"
    assert ok(daemon, "volume", "+5") == ["volume: 55%"]
    assert status(daemon)["volume"] == "55"
    assert ok(daemon, "volume", "-5") == ["volume: 50%"]
    assert daemon.client().cmd("getvol") == ["volume: 50", "OK"]


def test_status_stopped(daemon):
    assert ok(daemon, "status") == [MODES]


def test_status_while_playing(album):
    ok(album, "play")
    lines = ok(album, "status")
    assert len(lines) == 4
    assert lines[0] == "Daft Punk - One More Time"
    assert lines[1].startswith("[playing] #1/14 ")
    assert re.fullmatch(r"\[playing\] #1/14   0:0\d/0:30 \(\d+%\)", lines[1]), lines[1]
    assert lines[2].startswith("[")
    assert re.fullmatch(r"\[[=> ]{40}\]", lines[2]), lines[2]
    assert lines[3] == MODES


def test_status_while_paused(album):
    ok(album, "play", "3")
    ok(album, "pause")
    lines = ok(album, "status")
    assert lines[0] == "Daft Punk - Digital Love"
    assert lines[1].startswith("[paused]  #3/14 ")
    assert lines[3] == MODES


def test_status_shows_the_playback_error(daemon, http):
    ok(daemon, "add", f"{http}/api/track/1")
    daemon.ctl("play")
    daemon.wait_state(daemon.client(), "stop")
    lines = ok(daemon, "status")
    assert lines[0] == MODES
    assert lines[1].startswith(f"ERROR: {http}/api/track/1: ")


def test_help(daemon):
    p = daemon.ctl("--help")
    assert p.returncode == 0
    assert p.stdout.startswith("usage: previewctl [--socket PATH] [--timeout S] COMMAND [ARGS]\n")


# ---------------------------------------------------------------- refusals (exit 1)

def test_play_99_refused(daemon, http):
    ok(daemon, "add", url(http, 1))
    p = daemon.ctl("play", "99")
    assert (p.returncode, p.stdout, p.stderr) == (1, "", "previewctl: play: Bad song index\n")


def test_del_99_refused(daemon, http):
    ok(daemon, "add", url(http, 1))
    p = daemon.ctl("del", "99")
    assert (p.returncode, p.stdout, p.stderr) == (1, "", "previewctl: delete: Bad song index\n")
    assert status(daemon)["playlistlength"] == "1"


def test_add_unknown_track_refused(daemon):
    p = daemon.ctl("add", "deezer:track:-1")
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == "previewctl: add: deezer:track:-1: not found (Deezer: no data, error 800)\n"


def test_add_unsupported_scheme_refused(daemon):
    p = daemon.ctl("add", "file:///etc/passwd")
    assert (p.returncode, p.stderr) == (1, "previewctl: add: Access denied\n")


def test_next_while_stopped_refused(daemon, http):
    ok(daemon, "add", url(http, 1))
    p = daemon.ctl("next")
    assert (p.returncode, p.stderr) == (1, "previewctl: next: Not playing\n")


# ---------------------------------------------------------------- usage errors (exit 64)

@pytest.mark.parametrize("args,message", [
    ((), "previewctl: no command given. See previewctl --help"),
    (("frob",), 'previewctl: unknown command "frob". See previewctl --help'),
    (("stauts",), 'previewctl: unknown command "stauts"; did you mean "status"? See previewctl --help'),
    (("nxt",), 'previewctl: unknown command "nxt"; did you mean "next"? See previewctl --help'),
    (("random", "maybe"), 'previewctl: random takes on or off, not "maybe". See previewctl random --help'),
    (("repeat",), 'previewctl: wrong number of arguments for "repeat". See previewctl repeat --help'),
    (("volume", "abc"), 'previewctl: volume takes N, +N or -N (0 to 100), not "abc". See previewctl volume --help'),
    (("volume", "1000"), 'previewctl: volume takes N, +N or -N (0 to 100), not "1000". See previewctl volume --help'),
    (("seek", "200%"), 'previewctl: seek takes SECONDS, +SECONDS, -SECONDS or PERCENT%, not "200%". '
                       'See previewctl seek --help'),
    (("want", "list"), 'previewctl: want takes add, rm, toggle or play, not "list". See previewctl want --help'),
    (("del", "0"), 'previewctl: del takes a queue position from 1, not "0". See previewctl del --help'),
    (("del",), 'previewctl: wrong number of arguments for "del". See previewctl del --help'),
    (("play", "0"), 'previewctl: play takes a queue position from 1, not "0". See previewctl play --help'),
    (("add",), "previewctl: add needs at least one URI. See previewctl add --help"),
    (("stop", "now"), 'previewctl: wrong number of arguments for "stop". See previewctl stop --help'),
    (("--frob", "status"), 'previewctl: unknown option "--frob". See previewctl --help'),
    (("--sockt", "x", "status"), 'previewctl: unknown option "--sockt"; did you mean "--socket"? See previewctl --help'),
])
def test_usage_error_is_one_line_exit_64(daemon, args, message):
    p = daemon.ctl(*args)
    assert (p.returncode, p.stdout, p.stderr) == (64, "", message + "\n")
    assert daemon.client().cmd("status")[-2:] == ["state: stop", "OK"]


@pytest.mark.parametrize("args", [("seek", "--help"), ("help", "seek"), ("seek", "-h")])
def test_command_help(args):
    p = subprocess.run([PREVIEWCTL, *args], capture_output=True, text=True, timeout=30)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout == ("usage: previewctl [--socket PATH] [--timeout S] COMMAND [ARGS]\n"
                        "  seek [+|-]S|P%    jump to S seconds (or P percent), or S seconds on or back\n")


def test_help_of_a_command_that_does_not_exist():
    p = subprocess.run([PREVIEWCTL, "help", "stauts"], capture_output=True, text=True, timeout=30)
    assert (p.returncode, p.stdout) == (64, "")
    assert p.stderr == 'previewctl: unknown command "stauts"; did you mean "status"? See previewctl --help\n'


# ---------------------------------------------------------------- no daemon (exit 69)

def test_no_daemon_socket_option():
    p = subprocess.run([PREVIEWCTL, "--socket", "/nonexistent/sock", "status"],
                       capture_output=True, text=True, timeout=30)
    assert (p.returncode, p.stdout) == (69, "")
    assert p.stderr.startswith("previewctl: cannot reach previewd at /nonexistent/sock")


def test_no_daemon_env_socket(tmp_path):
    env = dict(os.environ, PREVIEWD_SOCKET=str(tmp_path / "missing" / "socket"),
               XDG_RUNTIME_DIR=str(tmp_path))
    p = subprocess.run([PREVIEWCTL, "status"], capture_output=True, text=True, timeout=30, env=env)
    assert (p.returncode, p.stdout) == (69, "")
    assert p.stderr.startswith(f"previewctl: cannot reach previewd at {tmp_path / 'missing' / 'socket'}")


def test_env_socket_reaches_the_daemon(daemon):
    env = dict(os.environ, PREVIEWD_SOCKET=daemon.socket)
    p = subprocess.run([PREVIEWCTL, "status"], capture_output=True, text=True, timeout=30, env=env)
    assert (p.returncode, p.stdout, p.stderr) == (0, MODES + "\n", "")


def test_socket_that_is_not_a_daemon(tmp_path):
    # a regular file where the socket should be: connect fails
    path = tmp_path / "socket"
    path.write_text("")
    p = subprocess.run([PREVIEWCTL, "--socket", str(path), "status"], capture_output=True, text=True, timeout=30)
    assert (p.returncode, p.stdout) == (69, "")


def test_json_of_status_queue_want_library_and_playlists(daemon):
    assert json.loads(daemon.ctl("status", "--json").stdout) == {
        "state": "stop", "volume": 100, "repeat": False, "random": False, "single": "0", "consume": False,
        "autoplay": False, "crossfade": 0, "length": 0, "song": None, "error": None}
    c = daemon.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("play 1") == ["OK"] and c.cmd("pause 1") == ["OK"]
    doc = json.loads(daemon.ctl("status", "--json").stdout)
    song = doc.pop("song")
    assert doc == {"state": "pause", "volume": 100, "repeat": False, "random": False, "single": "0",
                   "consume": False, "autoplay": False, "crossfade": 0, "length": 14, "error": None}
    assert {k: song[k] for k in ("position", "id", "uri", "title", "artist", "album")} == {
        "position": 2, "id": 2, "uri": "deezer:track:3135554", "title": "Aerodynamic", "artist": "Daft Punk",
        "album": "Discovery"}
    assert isinstance(song["elapsed"], float) and song["duration"] == 30
    queue = json.loads(daemon.ctl("queue", "--json").stdout)["songs"]
    assert [(s["position"], s["id"], s["current"]) for s in queue[:3]] == [(1, 1, False), (2, 2, True), (3, 3, False)]
    assert len(queue) == 14 and queue[0]["title"] == "One More Time" and queue[0]["duration"] == 30
    assert daemon.ctl("want", "add", "deezer:album:302127").returncode == 0
    items = json.loads(daemon.ctl("want", "--json").stdout)["items"]
    assert [(i["kind"], i["uri"], i["title"], i["artist"]) for i in items] == [
        ("album", "deezer:album:302127", "Discovery", "Daft Punk")]
    assert items[0]["added"].endswith("Z")
    assert json.loads(daemon.ctl("library", "--json").stdout) == {"items": []}
    assert daemon.ctl("save", "mine").returncode == 0
    lists = json.loads(daemon.ctl("playlists", "--json").stdout)["playlists"]
    assert [p["name"] for p in lists] == ["mine"] and lists[0]["modified"].endswith("Z")
