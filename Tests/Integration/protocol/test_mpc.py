"""Unmodified clients against previewd: Debian's `mpc` (via MPD_HOST=<socket>)
and python3-mpd (python-mpd2). Expected output follows mpc 0.34 against
mpd 0.23 as recorded in /tmp/mpdref/mpc.txt."""
import json
import os
import threading
import time

import mpd
import pytest

import catalog
from helpers import MODES, run_mpc, url

ALBUM = "302127"


def album_lines():
    with open(os.path.join(catalog.FIXTURES, f"album-{ALBUM}-tracks.json"), encoding="utf-8") as f:
        return [f"{t['artist']['name']} - {t['title']}" for t in json.load(f)["data"]]


def ok(daemon, *args):
    """Runs mpc, asserts exit 0 and an empty stderr; the stdout lines."""
    p = run_mpc(daemon, *args)
    assert (p.returncode, p.stderr) == (0, ""), (args, p)
    return p.stdout.splitlines()


@pytest.fixture
def rt(daemon_factory):
    """A daemon whose songs stay playing (realtime pace)."""
    return daemon_factory(pace="realtime")


# ---------------------------------------------------------------- mpc

def test_mpc_status_stopped(daemon):
    assert ok(daemon, "status") == [MODES]


def test_mpc_without_command_is_status(daemon):
    assert ok(daemon) == [MODES]


def test_mpc_playlist_empty(daemon):
    assert ok(daemon, "playlist") == []


def test_mpc_add_urls_and_playlist(daemon, http):
    assert ok(daemon, "add", url(http, 1)) == []
    assert ok(daemon, "add", url(http, 2)) == []
    assert ok(daemon, "playlist") == [url(http, 1), url(http, 2)]
    assert daemon.client().fields("status")["playlistlength"] == "2"


def test_mpc_add_album_playlist_shows_artist_and_title(daemon, http):
    assert ok(daemon, "add", f"deezer:album:{ALBUM}") == []
    assert ok(daemon, "add", url(http, 1)) == []
    lines = ok(daemon, "playlist")
    assert lines[0] == "Daft Punk - One More Time"
    assert lines == album_lines() + [url(http, 1)]


def test_mpc_add_web_link(daemon):
    assert ok(daemon, "add", "https://www.deezer.com/track/3135556") == []
    assert ok(daemon, "playlist") == ["Daft Punk - Harder, Better, Faster, Stronger"]


def test_mpc_play_shows_current_song(rt):
    assert ok(rt, "add", f"deezer:album:{ALBUM}") == []
    lines = ok(rt, "play")
    assert len(lines) == 3
    assert lines[0] == "Daft Punk - One More Time"
    assert lines[1].startswith("[playing] #1/14   0:0")
    assert lines[1].endswith("/0:30 (0%)") or lines[1].endswith("/0:30 (3%)")
    assert lines[2] == MODES
    assert rt.client().fields("status")["state"] == "play"


def test_mpc_current(rt):
    assert ok(rt, "add", f"deezer:album:{ALBUM}") == []
    ok(rt, "play", "3")
    assert ok(rt, "current") == ["Daft Punk - Digital Love"]


def test_mpc_next_and_prev(rt):
    assert ok(rt, "add", f"deezer:album:{ALBUM}") == []
    ok(rt, "play")
    lines = ok(rt, "next")
    assert lines[0] == "Daft Punk - Aerodynamic"
    assert lines[1].startswith("[playing] #2/14 ")
    assert lines[2] == MODES
    st = rt.client().fields("status")
    assert (st["song"], st["songid"], st["nextsong"]) == ("1", "2", "2")
    lines = ok(rt, "prev")
    assert lines[0] == "Daft Punk - One More Time"
    assert lines[1].startswith("[playing] #1/14 ")


def test_mpc_pause_and_stop(rt):
    assert ok(rt, "add", f"deezer:album:{ALBUM}") == []
    ok(rt, "play", "2")
    lines = ok(rt, "pause")
    assert lines[0] == "Daft Punk - Aerodynamic"
    assert lines[1].startswith("[paused]  #2/14 ")
    assert rt.client().fields("status")["state"] == "pause"
    assert ok(rt, "stop") == [MODES]
    assert rt.client().fields("status")["state"] == "stop"


def test_mpc_insert_and_queued(rt, http):
    assert ok(rt, "add", f"deezer:album:{ALBUM}") == []
    ok(rt, "play")
    assert ok(rt, "insert", url(http, 1)) == []
    assert ok(rt, "queued") == [url(http, 1)]
    assert ok(rt, "playlist")[:3] == ["Daft Punk - One More Time", url(http, 1), "Daft Punk - Aerodynamic"]
    st = rt.client().fields("status")
    assert (st["song"], st["nextsong"], st["nextsongid"], st["playlistlength"]) == ("0", "1", "15", "15")


def test_mpc_toggle(rt):
    assert ok(rt, "add", f"deezer:album:{ALBUM}") == []
    ok(rt, "play")
    assert ok(rt, "toggle")[1].startswith("[paused]  #1/14 ")
    assert ok(rt, "toggle")[1].startswith("[playing] #1/14 ")
    assert rt.client().fields("status")["state"] == "play"


def test_mpc_play_99_fails(daemon, http):
    assert ok(daemon, "add", url(http, 1)) == []
    p = run_mpc(daemon, "play", "99")
    assert (p.returncode, p.stdout, p.stderr) == (1, "", "MPD error: Bad song index\n")


def test_mpc_add_refused_scheme(daemon):
    p = run_mpc(daemon, "add", "ftp://x/y.mp3")
    assert (p.returncode, p.stderr) == (1, "error adding ftp://x/y.mp3: Unsupported URI scheme\n")


def test_mpc_add_unknown_track(daemon):
    p = run_mpc(daemon, "add", "deezer:track:-1")
    assert p.returncode == 1
    assert p.stderr == "error adding deezer:track:-1: deezer:track:-1: not found (Deezer: no data, error 800)\n"


def test_mpc_volume(daemon):
    assert ok(daemon, "volume") == ["volume:100%"]
    ok(daemon, "volume", "50")
    assert ok(daemon, "volume") == ["volume: 50%"]
    ok(daemon, "volume", "+10")
    assert ok(daemon, "volume") == ["volume: 60%"]
    ok(daemon, "volume", "-20")
    assert daemon.client().cmd("getvol") == ["volume: 40", "OK"]


def test_mpc_modes(daemon):
    assert ok(daemon, "random", "on") == ["volume:100%   repeat: off   random: on    single: off   consume: off"]
    assert ok(daemon, "repeat", "on") == ["volume:100%   repeat: on    random: on    single: off   consume: off"]
    assert ok(daemon, "single", "on") == ["volume:100%   repeat: on    random: on    single: on    consume: off"]
    assert ok(daemon, "consume", "on") == ["volume:100%   repeat: on    random: on    single: on    consume: on "]
    st = daemon.client().fields("status")
    assert (st["random"], st["repeat"], st["single"], st["consume"]) == ("1", "1", "1", "1")


def test_mpc_clear(daemon, http):
    assert ok(daemon, "add", url(http, 1)) == []
    assert ok(daemon, "clear") == [MODES]
    assert ok(daemon, "playlist") == []


def test_mpc_del_and_move(daemon, http):
    for n in (1, 2, 3):
        ok(daemon, "add", url(http, n))
    assert ok(daemon, "del", "1") == []
    assert ok(daemon, "playlist") == [url(http, 2), url(http, 3)]
    assert ok(daemon, "move", "2", "1") == []
    assert ok(daemon, "playlist") == [url(http, 3), url(http, 2)]


def test_mpc_playlist_plain_url_after_play(daemon, http):
    ok(daemon, "add", url(http, 1))
    ok(daemon, "play")
    daemon.wait_state(daemon.client(), "stop")
    assert ok(daemon, "playlist") == [url(http, 1)]


# ---------------------------------------------------------------- python-mpd

@pytest.fixture
def client(daemon):
    c = mpd.MPDClient()
    c.timeout = 10
    c.connect(daemon.socket)
    yield c
    c.disconnect()


def test_python_mpd_status(client):
    assert client.mpd_version == "0.23.5"
    assert client.status() == {
        "volume": "100", "repeat": "0", "random": "0", "single": "0", "consume": "0", "autoplay": "0",
        "partition": "default", "playlist": "1", "playlistlength": "0",
        "mixrampdb": "0", "state": "stop"}


def test_python_mpd_add_addid_playlistinfo(client, http):
    assert client.add(url(http, 1)) is None
    assert client.addid(url(http, 2)) == "2"
    assert client.playlistinfo() == [
        {"file": url(http, 1), "pos": "0", "id": "1"},
        {"file": url(http, 2), "pos": "1", "id": "2"}]


def test_python_mpd_album_tags(client):
    client.add(f"deezer:album:{ALBUM}")
    info = client.playlistinfo()
    assert [f"{s['artist']} - {s['title']}" for s in info] == album_lines()
    assert {s["album"] for s in info} == {"Discovery"}


def test_python_mpd_command_error(client):
    with pytest.raises(mpd.CommandError) as e:
        client.play(99)
    assert str(e.value) == "[2@0] {play} Bad song index"
    with pytest.raises(mpd.CommandError) as e:
        client.add("deezer:track:-1")
    assert str(e.value) == "[50@0] {add} deezer:track:-1: not found (Deezer: no data, error 800)"
    assert client.ping() is None


def test_python_mpd_idle(daemon, client, http):
    result = []
    t = threading.Thread(target=lambda: result.append(client.idle("playlist")))
    t.start()
    time.sleep(0.3)  # fixed: the idle, sent meanwhile, must still wait after this window
    assert result == []
    other = mpd.MPDClient()
    other.connect(daemon.socket)
    other.add(url(http, 1))
    other.disconnect()
    t.join(10)
    assert result == [["playlist"]]


def test_python_mpd_command_list(client, http):
    client.command_list_ok_begin()
    client.add(url(http, 1))
    client.status()
    results = client.command_list_end()
    assert results[0] is None
    assert results[1]["playlistlength"] == "1"


def test_python_mpd_play_currentsong(daemon_factory, http):
    d = daemon_factory(pace="realtime")
    c = mpd.MPDClient()
    c.connect(d.socket)
    c.add("deezer:track:3135556")
    c.play(0)
    song = c.currentsong()
    assert (song["file"], song["artist"], song["title"], song["pos"], song["id"]) == (
        "deezer:track:3135556", "Daft Punk", "Harder, Better, Faster, Stronger", "0", "1")
    assert c.status()["state"] == "play"
    c.disconnect()
