"""Numbers that arrive from outside (stored playlists, the state files,
protocol arguments) never stop the daemon: each bad one gets the usual
treatment of its source (an ACK naming the file and line, the corrupt-file
path, an ACK naming the argument), and the daemon keeps serving."""
import glob
import json
import os
import socket
import sqlite3
import subprocess
import threading

import pytest

from helpers import PREVIEWCTL, PREVIEWD, Daemon, playlist_file, restart_with_edited_queue

# Durations that read as numbers but that no song can have. The first is
# the file that crashed the daemon (issue 13).
BAD_DURATIONS = ["330e53", "inf", "-1e400", "nan", "99999999999999999999"]


def write_playlist(daemon, name, duration):
    path = playlist_file(daemon, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"#EXTM3U\n#EXTINF:{duration},x\nhttp://127.0.0.1:1/y.mp3\n")


@pytest.mark.parametrize("duration", BAD_DURATIONS)
def test_a_playlist_with_a_duration_out_of_range_gets_an_ack_naming_file_and_line(daemon, duration):
    c = daemon.client()
    assert c.cmd('add "http://127.0.0.1:1/kept.mp3"') == ["OK"]
    write_playlist(daemon, "bad2", duration)
    reason = f"bad2.m3u line 2: duration out of range: {duration}"
    for command in ["listplaylistinfo bad2", "listplaylist bad2", "load bad2", "save bad2 append",
                    'playlistadd bad2 "http://127.0.0.1:1/z.mp3"']:
        name = command.split()[0]
        assert c.cmd(command) == [f"ACK [53@0] {{{name}}} {reason}"], command
    # Nothing was lost or added, and the daemon keeps serving this client and new ones.
    assert c.cmd("playlistinfo") == ["file: http://127.0.0.1:1/kept.mp3", "Pos: 0", "Id: 1", "OK"]
    assert daemon.client().cmd("ping") == ["OK"]
    with open(playlist_file(daemon, "bad2"), encoding="utf-8") as f:
        assert f.read() == f"#EXTM3U\n#EXTINF:{duration},x\nhttp://127.0.0.1:1/y.mp3\n"


def test_playlist_durations_that_players_write_still_load(daemon):
    # -1 is "unknown" (as players write it); words and attributes are ignored.
    path = playlist_file(daemon, "ok")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("#EXTM3U\r\n#EXTINF:-1,A - B\r\nhttp://127.0.0.1:1/a.mp3\r\n"
                "#EXTINF:abc,C\nhttp://127.0.0.1:1/b.mp3\n#EXTINF:1000000000,D\nhttp://127.0.0.1:1/c.mp3\n")
    c = daemon.client()
    assert c.cmd("listplaylistinfo ok") == [
        "file: http://127.0.0.1:1/a.mp3", "Artist: A", "Title: B",
        "file: http://127.0.0.1:1/b.mp3", "Title: C",
        "file: http://127.0.0.1:1/c.mp3", "Title: D", "Time: 1000000000", "duration: 1000000000.000", "OK"]
    assert c.cmd("load ok") == ["OK"]
    assert c.fields("status")["playlistlength"] == "3"


def saved_state(tmp_path, http):
    """The state a daemon saves for one song with a range, as one
    state.json of format 1 (the queue in the file, as previewd wrote it
    before queue.sqlite, and reads it still): the base that the tests below
    change one number of."""
    d = Daemon(tmp_path / "base", http)
    try:
        c = d.client()
        assert c.cmd('addid "http://127.0.0.1:1/a.mp3"') == ["Id: 1", "OK"]
        assert c.cmd("rangeid 1 1.5:20") == ["OK"]
    finally:
        d.close()
    with open(tmp_path / "base" / "state" / "state.json", encoding="utf-8") as f:
        state = json.load(f)
    assert (state["format"], state["queue"]) == (2, [])
    with sqlite3.connect(tmp_path / "base" / "state" / "queue.sqlite") as db:
        rows = db.execute("SELECT id, uri, priority, range_start, range_end FROM songs ORDER BY ord").fetchall()
    state["format"] = 1
    state["queue"] = [{"id": i, "song": {"uri": uri, "addedTags": []}, "priority": prio, "version": state["queueVersion"],
                       "range": {"start": start, "end": end}} for i, uri, prio, start, end in rows]
    return state


def start_with_state(tmp_path, http, state):
    root = tmp_path / "d"
    (root / "state").mkdir(parents=True)
    (root / "state" / "state.json").write_text(json.dumps(state))
    return root, Daemon(root, http)


@pytest.mark.parametrize("change,reason", [
    (lambda s: s["queue"][0]["song"].update(duration=1e300), "song 1: duration out of range: 1e+300"),
    (lambda s: s.update(elapsed=1e300), "elapsed out of range: 1e+300"),
    (lambda s: s["queue"][0]["range"].update(start=-5), "song 1: range out of range"),
    (lambda s: s["queue"][0]["range"].update(end=1e10), "song 1: range out of range"),
    (lambda s: s["queue"].append(dict(s["queue"][0])), "song id 1 twice"),
])
def test_a_state_file_with_a_number_out_of_range_is_set_aside(tmp_path, http, change, reason):
    state = saved_state(tmp_path, http)
    change(state)
    root, d = start_with_state(tmp_path, http, state)
    try:
        c = d.client()
        assert c.fields("status")["playlistlength"] == "0"
        assert len(glob.glob(str(root / "state" / "state.json.corrupt-*"))) == 1
        assert f"does not parse ({reason}); kept aside" in d.log()
        assert c.cmd('add "http://127.0.0.1:1/b.mp3"') == ["OK"]
    finally:
        d.close()


def test_a_queue_row_with_a_number_out_of_range_is_set_aside(tmp_path, http):
    root = tmp_path / "d"
    d = restart_with_edited_queue(root, http, 'addid "http://127.0.0.1:1/a.mp3"', "UPDATE songs SET duration = 1e300")
    try:
        c = d.client()
        assert c.fields("status")["playlistlength"] == "0"
        aside = glob.glob(str(root / "state" / "queue.sqlite.corrupt-*"))
        assert len([p for p in aside if not p.endswith("-wal")]) == 1  # its log goes with it
        assert "queue.sqlite is no usable database (song 1: duration out of range: 1e+300); kept aside" in d.log()
        assert c.cmd('add "http://127.0.0.1:1/b.mp3"') == ["OK"]
    finally:
        d.close()


def test_the_same_state_file_within_range_restores(tmp_path, http):
    # The control for the test above: the file as written, with a duration.
    state = saved_state(tmp_path, http)
    state["queue"][0]["song"]["duration"] = 30.0
    root, d = start_with_state(tmp_path, http, state)
    try:
        c = d.client()
        assert c.cmd("playlistinfo") == [
            "file: http://127.0.0.1:1/a.mp3", "Range: 1.500-20.000", "Time: 19", "duration: 18.500",
            "Pos: 0", "Id: 1", "OK"]
        assert not glob.glob(str(root / "state" / "*.corrupt-*"))
    finally:
        d.close()


@pytest.mark.parametrize("added", [99999999999999999, -1])
def test_a_want_list_with_a_time_out_of_range_is_set_aside(tmp_path, http, added):
    root = tmp_path / "d"
    (root / "state").mkdir(parents=True)
    (root / "state" / "want.json").write_text(json.dumps([{"uri": "deezer:album:302127", "added": added}]))
    d = Daemon(root, http)
    try:
        c = d.client()
        assert c.cmd("wantlist") == ["OK"]
        assert len(glob.glob(str(root / "state" / "want.json.corrupt-*"))) == 1
        assert f"time out of range: {added}" in d.log()
    finally:
        d.close()


@pytest.mark.parametrize("option,value,message", [
    ("--stream-timeout", "1e300", 'previewd: --stream-timeout takes seconds (at most 1000000000), not "1e300"'),
    ("--hook-timeout", "inf", 'previewd: --hook-timeout takes seconds (at most 1000000000), not "inf"'),
    ("--previous-restart", "nan", 'previewd: --previous-restart takes seconds (at most 1000000000), not "nan"'),
    ("--max-clients", "99999999999999999999",
     'previewd: --max-clients takes a number from 1 to 100000, not "99999999999999999999"'),
])
def test_daemon_options_out_of_range_are_usage_errors(tmp_path, option, value, message):
    p = subprocess.run([PREVIEWD, "--socket", str(tmp_path / "s"), option, value],
                       capture_output=True, text=True, timeout=10)
    assert (p.returncode, p.stderr.strip().splitlines()[0]) == (64, message)


class FakeServer:
    """A Unix socket that greets like mpd and answers each request with
    `answer(request_text)` (None: never answers): what previewctl meets
    when something else answers on its socket."""

    def __init__(self, path, answer):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.bind(path)
        self.sock.listen(4)
        self.answer = answer
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.talk(conn)

    def talk(self, conn):
        with conn:
            conn.sendall(b"OK MPD 0.23.5\n")
            data = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
                # A request ends with its line, or a list with command_list_end.
                if data.endswith(b"\n") and (not data.startswith(b"command_list") or data.endswith(b"command_list_end\n")):
                    reply = self.answer(data.decode())
                    data = b""
                    if reply is not None:
                        conn.sendall(reply.encode())

    def close(self):
        self.sock.close()


def ctl(path, *args, env=None):
    return subprocess.run([PREVIEWCTL, "--socket", path, *args], capture_output=True, text=True, timeout=30,
                          env={**os.environ, **(env or {})})


def test_previewctl_refuses_a_command_list_answered_short(tmp_path):
    # `status` asks for status and currentsong in one list; one list_OK only.
    path = str(tmp_path / "s")
    server = FakeServer(path, lambda request: "volume: 99999999999999999999\nlist_OK\nOK\n")
    try:
        p = ctl(path, "status")
    finally:
        server.close()
    assert (p.returncode, p.stderr) == (69, "previewctl: previewd sent 1 replies for 2 commands\n")


def test_previewctl_gives_up_on_a_server_that_never_answers(tmp_path):
    path = str(tmp_path / "s")
    server = FakeServer(path, lambda request: None)
    try:
        p = ctl(path, "status", env={"MPD_TIMEOUT": "1"})
    finally:
        server.close()
    assert (p.returncode, p.stderr) == (75, "previewctl: previewd did not answer within 1 s (busy or stopped? --timeout S waits longer)\n")


def test_previewctl_reads_a_bare_ack_and_numbers_past_int(tmp_path):
    path = str(tmp_path / "s")
    answers = {"getvol\n": "ACK\n",
               "status\n": "state: play\nsong: 9223372036854775807\nplaylistlength: 1\nOK\n"}
    server = FakeServer(path, lambda request: answers.get(request, "OK\n"))
    try:
        volume = ctl(path, "volume")
        crop = ctl(path, "crop")
    finally:
        server.close()
    assert (volume.returncode, volume.stderr) == (1, "previewctl: ACK\n")
    # A current position past the queue's end: nothing to delete, no trap.
    assert (crop.returncode, crop.stderr) == (0, "")


@pytest.mark.parametrize("change,reason", [
    (lambda s: s.update(nextID=4294967295), "next song id out of range: 4294967295"),
    (lambda s: s["queue"][0].update(id=2147483648), "song id out of range: 2147483648"),
    (lambda s: s["queue"][0]["range"].update(start=20, end=3), "song 1: range out of range"),
])
def test_a_state_file_with_ids_or_a_range_no_client_can_use_is_set_aside(tmp_path, http, change, reason):
    state = saved_state(tmp_path, http)
    change(state)
    root, d = start_with_state(tmp_path, http, state)
    try:
        assert d.client().fields("status")["playlistlength"] == "0"
        assert f"does not parse ({reason}); kept aside" in d.log()
    finally:
        d.close()


def test_a_state_file_whose_last_id_was_handed_out_restores(tmp_path, http):
    # nextID one past the largest id is what the queue saves after using it.
    state = saved_state(tmp_path, http)
    state["queue"][0]["id"] = 2147483647
    state["current"] = 2147483647
    state["nextID"] = 2147483648
    root, d = start_with_state(tmp_path, http, state)
    try:
        c = d.client()
        assert c.fields("playlistid 2147483647")["Id"] == "2147483647"
        assert c.cmd('addid "http://127.0.0.1:1/b.mp3"') == ["ACK [51@0] {addid} No song ids left"]
        assert not glob.glob(str(root / "state" / "*.corrupt-*"))
    finally:
        d.close()


def test_seek_to_a_number_out_of_range_says_so(daemon):
    c = daemon.client()
    assert c.cmd('add "http://127.0.0.1:1/a.mp3"') == ["OK"]
    assert c.cmd("seek 0 1e18") == ["ACK [2@0] {seek} Number out of range: 1e18 (0 to 1000000000 seconds)"]
    assert c.cmd("seek 0 -1") == ["ACK [2@0] {seek} Number out of range: -1 (0 to 1000000000 seconds)"]
    assert c.cmd("seek 0 abc") == ["ACK [2@0] {seek} Float expected: abc"]
