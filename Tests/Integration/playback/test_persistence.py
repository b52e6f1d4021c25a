"""State across restarts, crash safety of the state directory, and the
Want to Listen list."""
import glob
import json
import os
import random
import signal
import sqlite3
import subprocess
import time

import pytest

import catalog
from helpers import PREVIEWD, Daemon, restart, wait_for, wait_status


def test_restart_restores_queue_ids_modes_volume_and_position(tmp_path, http):
    d = Daemon(tmp_path / "d", http, output="null", pace="realtime")
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("add deezer:chart") == ["OK"]
    assert c.cmd("delete 20:24") == ["OK"]
    assert c.fields("status")["playlistlength"] == "20"
    for line in ["repeat 1", "random 1", "single 0", "consume 0", "setvol 35", "prio 9 3", "rangeid 5 2:", "seek 6 15"]:
        assert c.cmd(line) == ["OK"], line
    wait_status(c, "audio")  # the song sought to plays
    before_status = c.fields("status")
    before_queue = c.cmd("playlistinfo")
    c.close()
    d2 = restart(d, http, output="null", pace="realtime")
    try:
        c2 = d2.client()
        after_status = c2.fields("status")
        assert c2.cmd("playlistinfo") == before_queue
        assert after_status["state"] == "pause"  # comes back paused at the same place
        assert abs(float(after_status["elapsed"]) - float(before_status["elapsed"])) <= 0.5
        for key in ["volume", "repeat", "random", "single", "consume", "playlistlength", "song", "songid"]:
            assert after_status[key] == before_status[key], key
        assert c2.cmd("play") == ["OK"]
        assert c2.fields("status")["state"] == "play"
    finally:
        d2.close()


def test_new_ids_never_reuse_restored_ones(tmp_path, http):
    d = Daemon(tmp_path / "d", http)
    c = d.client()
    ids = [c.cmd('addid "http://127.0.0.1:1/a.mp3"')[0] for _ in range(3)]
    assert ids == ["Id: 1", "Id: 2", "Id: 3"]
    assert c.cmd("deleteid 3") == ["OK"]
    d2 = restart(d, http)
    try:
        assert d2.client().cmd('addid "http://127.0.0.1:1/b.mp3"') == ["Id: 4", "OK"]
    finally:
        d2.close()


def test_restore_playing_option_resumes(tmp_path, http):
    d = Daemon(tmp_path / "d", http, output="null", pace="realtime")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    d2 = restart(d, http, output="null", pace="realtime", extra=("--restore-playing",))
    try:
        assert d2.client().fields("status")["state"] == "play"
    finally:
        d2.close()


def test_corrupt_state_files_are_set_aside(tmp_path, http):
    # Truncated JSON, binary garbage, valid JSON of the wrong shape.
    for i, body in enumerate([b'{"format":1,"queue":[{"id":1,', bytes(range(256)) * 4, b'{"queue": "not a list"}']):
        state = tmp_path / f"d{i}" / "state"
        state.mkdir(parents=True)
        (state / "state.json").write_bytes(body)
        (state / "want.json").write_bytes(body)
        d = Daemon(tmp_path / f"d{i}", http)
        try:
            c = d.client()
            assert c.fields("status")["playlistlength"] == "0"
            assert c.cmd("wantlist") == ["OK"]
            aside = sorted(os.path.basename(p).split(".corrupt-")[0] for p in glob.glob(str(state / "*.corrupt-*")))
            assert aside == ["state.json", "want.json"]
            assert "does not parse" in d.log()
            assert c.cmd("add deezer:track:3135556") == ["OK"]
        finally:
            d.close()
        # What it writes next parses: the queue is in queue.sqlite now.
        assert json.loads((state / "state.json").read_text())["format"] == 2
        with sqlite3.connect(state / "queue.sqlite") as db:
            assert db.execute("SELECT uri FROM songs ORDER BY ord").fetchall() == [("deezer:track:3135556",)]


def test_want_list(tmp_path, http):
    d = Daemon(tmp_path / "d", http)
    c = d.client()
    t0 = time.time()
    assert c.cmd("wantadd deezer:album:302127") == ["OK"]
    # The stamps count whole seconds: the next add comes in a later one.
    first_second = int(time.time())
    wait_for(lambda: int(time.time()) > first_second, timeout=2, interval=0.01, what="the next second")
    assert c.cmd("wantadd https://www.deezer.com/fr/track/3135556") == ["OK"]
    assert c.cmd("wantadd deezer:album:302127") == ["unchanged: deezer:album:302127 is already in the want list", "OK"]
    assert c.cmd("wantadd deezer:artist:27") == [
        "ACK [2@0] {wantadd} the want list holds albums and tracks (deezer:album:ID, deezer:track:ID)"]
    lines = c.cmd("wantlist")
    assert lines[0] == "file: deezer:track:3135556"  # newest first
    assert "album: deezer:album:302127" in lines
    assert "Title: Discovery" in lines
    added = [l[len("added: "):] for l in lines if l.startswith("added: ")]
    stamps = [time.mktime(time.strptime(a, "%Y-%m-%dT%H:%M:%SZ")) - time.timezone for a in added]
    assert all(t0 - 2 <= s <= time.time() + 1 for s in stamps), (added, t0)
    assert stamps[0] > stamps[1]
    listing = c.cmd("lsinfo deezer:wantlist")
    # Tracks are songs with their tags, albums are directories.
    assert [l for l in listing if l.startswith(("file: ", "directory: "))] == [
        "file: deezer:track:3135556", "directory: deezer:album:302127"]
    assert "Genre: Dance" in listing and "Title: Harder, Better, Faster, Stronger" in listing
    assert c.cmd("wanttoggle deezer:track:3135556") == ["wanted: 0", "OK"]
    assert c.cmd("wanttoggle deezer:track:3135556") == ["wanted: 1", "OK"]
    assert c.cmd("wantrm deezer:track:3135556") == ["OK"]
    assert c.cmd("wantrm deezer:track:3135556") == ["ACK [50@0] {wantrm} deezer:track:3135556 is not in the want list"]
    d2 = restart(d, http)
    try:
        c2 = d2.client()
        assert [l for l in c2.cmd("wantlist") if l.startswith("album: ")] == ["album: deezer:album:302127"]
        assert c2.cmd("wantplay") == ["OK"]
        st = c2.fields("status")
        assert st["playlistlength"] == "14" and st["state"] in ("play", "stop")
        p = d2.ctl("want")
        assert p.returncode == 0
        assert p.stdout.startswith("Daft Punk - Discovery  (album, added ")
        assert "ago" in p.stdout or "just now" in p.stdout
    finally:
        d2.close()


def test_want_idle_fires_stored_playlist(daemon):
    a, b = daemon.client(), daemon.client()
    a.send("idle stored_playlist\n")
    assert b.cmd("wantadd deezer:track:3135556") == ["OK"]
    assert a.reply() == ["changed: stored_playlist", "OK"]


CHART_TRACKS = [t["id"] for t in json.load(open(os.path.join(catalog.FIXTURES, "chart-0-tracks.json")))["data"][:5]]


# 200 kills in all, in four runs of 50 with seeds of their own, so that
# CI's workers share them.
@pytest.mark.parametrize("seed", [1234, 1235, 1236, 1237])
def test_kill_9_never_tears_or_loses_acknowledged_state(tmp_path, http, seed):
    rng = random.Random(seed)
    root = tmp_path / "crash"
    acknowledged = []  # (queue length, time of the acknowledgement)
    previous = 0
    for i in range(50):
        d = Daemon(root, http, output="null")
        c = d.client()
        toggler = d.client()
        length = int(c.fields("status")["playlistlength"])
        # What came back is one of the acknowledged states, and no state
        # acknowledged more than the debounce interval before the kill is lost.
        durable = [n for n, at in acknowledged if at < last_kill - 1.0] if acknowledged else []
        assert length in {n for n, _ in acknowledged} | {0}, (i, length)
        assert length >= (max(durable) if durable else 0), (i, length)
        assert not glob.glob(str(root / "state" / "*.corrupt-*"))
        acknowledged = [(length, 0.0)]
        for _ in range(rng.randint(1, 3)):
            assert c.cmd(f'add "http://127.0.0.1:1/{i}.mp3"') == ["OK"]
            length += 1
            acknowledged.append((length, time.monotonic()))
            # Tracks the stand-in knows (wanttoggle looks a track up before adding it).
            toggler.send(f"wanttoggle deezer:track:{CHART_TRACKS[i % 5]}\n")  # not waited for: the kill may cut it
        time.sleep(rng.uniform(0, 0.3))  # fixed: a random moment for the kill is the scenario
        os.kill(d.proc.pid, signal.SIGKILL)
        last_kill = time.monotonic()
        d.proc.wait()
        d.log_file.close()
        previous = length
    assert previous > 0
    d = Daemon(root, http)
    try:
        json.loads((root / "state" / "state.json").read_text())
        json.loads((root / "state" / "want.json").read_text())
    finally:
        d.close()


def test_kill_9_while_playing_resumes_within_5_s(tmp_path, http):
    d = Daemon(tmp_path / "d", http, output="null", pace="realtime")
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    assert c.cmd("play") == ["OK"]
    # Nothing changes while the song plays: only the periodic save keeps
    # the position (every 5 s, as mpd's state_file_interval).
    while float(c.fields("status")["elapsed"]) < 7.5:
        time.sleep(0.05)
    killed_at = float(c.fields("status")["elapsed"])
    os.kill(d.proc.pid, signal.SIGKILL)
    d.proc.wait()
    d.log_file.close()
    os.rename(d.log_path, d.log_path + ".1")
    again = Daemon(d.tmp, http, output="null", pace="realtime")
    try:
        st = again.client().fields("status")
        assert st["state"] == "pause" and st["songid"] == "1", st
        assert killed_at - 5.1 <= float(st["elapsed"]) <= killed_at, (killed_at, st)
    finally:
        again.close()


def test_one_daemon_per_state_directory(tmp_path, http):
    first = Daemon(tmp_path / "d", http, output="null")
    try:
        c = first.client()
        assert c.cmd("add deezer:album:302127") == ["OK"]
        # Another socket, the same state directory: refused, naming the holder.
        second = subprocess.run([PREVIEWD, "--socket", str(tmp_path / "other.sock"), "--output", "null",
                                 "--api-base", http + "/api", "--state-dir", os.path.join(first.tmp, "state")],
                                capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
        assert second.returncode == 1
        assert second.stderr.strip().endswith(
            f"previewd: another previewd (pid {first.proc.pid}) uses the state directory {first.tmp}/state"), second.stderr
        assert not (tmp_path / "other.sock").exists()
        assert c.fields("status")["playlistlength"] == "14"
    finally:
        first.close()
    # Once the first is gone the directory is free again, with its queue.
    again = Daemon(tmp_path / "d", http, output="null")
    try:
        assert again.client().fields("status")["playlistlength"] == "14"
    finally:
        again.close()


def test_previewctl_want_and_playlists(daemon_factory, http):
    # In real time: unpaced, the first song can end before `want play`
    # prints what plays (a CI-like run saw the second one).
    daemon = daemon_factory(output="null", pace="realtime")
    assert daemon.ctl("want").stdout == "the want list is empty\n"
    p = daemon.ctl("want", "add", "deezer:album:302127")
    assert (p.returncode, p.stdout) == (0, "")
    p = daemon.ctl("want", "add", "deezer:album:302127")
    assert p.stdout == "deezer:album:302127 is already in the want list\n"
    assert daemon.ctl("want", "toggle", "deezer:track:3135556").stdout == "added deezer:track:3135556\n"
    lines = daemon.ctl("want").stdout.splitlines()
    assert lines[0].startswith("Daft Punk - Harder, Better, Faster, Stronger  (track, added ")
    assert lines[1].startswith("Daft Punk - Discovery  (album, added ")
    assert daemon.ctl("want", "rm", "deezer:track:3135556").returncode == 0
    p = daemon.ctl("want", "rm", "deezer:track:3135556")
    assert (p.returncode, p.stderr) == (1, "previewctl: wantrm: deezer:track:3135556 is not in the want list\n")
    assert daemon.ctl("want", "bogus").returncode == 64
    p = daemon.ctl("want", "play")
    assert p.returncode == 0 and p.stdout.startswith("Daft Punk - One More Time\n")
    # Stored playlists.
    assert daemon.ctl("save", "mix").returncode == 0
    assert daemon.ctl("playlists").stdout == "mix\n"
    assert daemon.ctl("playlist", "mix").stdout.splitlines()[:2] == ["1. Daft Punk - One More Time", "2. Daft Punk - Aerodynamic"]
    assert daemon.ctl("clear").returncode == 0
    assert daemon.ctl("load", "mix").returncode == 0
    assert daemon.client().fields("status")["playlistlength"] == "14"
    assert daemon.ctl("rmplaylist", "mix").returncode == 0
    p = daemon.ctl("load", "mix")
    assert (p.returncode, p.stderr) == (1, "previewctl: load: No such playlist\n")


def test_previewctl_edits_stored_playlists(daemon):
    assert daemon.ctl("add", "deezer:album:302127").returncode == 0
    assert daemon.ctl("save", "mix").returncode == 0
    p = daemon.ctl("save", "mix")
    assert (p.returncode, p.stderr) == (1, "previewctl: save: Playlist already exists\n")
    assert daemon.ctl("del", "1").returncode == 0
    assert daemon.ctl("save", "--replace", "mix").returncode == 0
    assert len(daemon.ctl("playlist", "mix").stdout.splitlines()) == 13
    assert daemon.ctl("playlist", "mix", "rename", "road trip").returncode == 0
    assert daemon.ctl("playlists").stdout == "road trip\n"
    assert daemon.ctl("playlist", "road trip", "del", "2").returncode == 0
    assert daemon.ctl("playlist", "road trip", "move", "1", "3").returncode == 0
    assert daemon.ctl("playlist", "road trip").stdout.splitlines()[:3] == [
        "1. Daft Punk - Harder, Better, Faster, Stronger", "2. Daft Punk - Crescendolls", "3. Daft Punk - Aerodynamic"]
    p = daemon.ctl("playlist", "road trip", "del", "99")
    assert (p.returncode, p.stderr) == (1, "previewctl: playlistdelete: Bad song index\n")
    p = daemon.ctl("playlist", "nowhere", "rename", "x")
    assert (p.returncode, p.stderr) == (1, "previewctl: rename: No such playlist\n")
    p = daemon.ctl("playlist", "road trip", "cut")
    assert p.returncode == 64 and p.stderr == ('previewctl: playlist NAME takes add, rename, del or move, not "cut". '
                                               'See previewctl playlist --help\n')


def test_want_add_looks_the_item_up_first(tmp_path, http):
    """An id Deezer does not know is refused as libraryadd refuses it, and
    leaves the list (and Listen Now's More like) as it was."""
    d = Daemon(tmp_path / "d", http)
    try:
        c = d.client()
        refused = c.cmd("wantadd deezer:album:12345678")
        assert refused == [c.cmd("libraryadd deezer:album:12345678")[0].replace("{libraryadd}", "{wantadd}")], refused
        assert refused[0].startswith("ACK [50@0] {wantadd} deezer:album:12345678"), refused
        assert c.cmd("wanttoggle deezer:track:999999999")[0].startswith("ACK [50@0] {wanttoggle} deezer:track:999999999")
        assert c.cmd("wantlist") == ["OK"]
        assert c.cmd("wanttoggle deezer:album:302127") == ["wanted: 1", "OK"]
    finally:
        d.close()
