"""Hostile input, second round (issue 42): a catalog that writes lines
into playlists, hooks and the events stream, bounds that were missing
(tags added to the whole queue, catalog text, one `add`, subscriptions,
silent clients, an endless preview), what previewctl prints and how long
it waits. Each test failed on the code before the fix. The web front
end's part is in test_hostile.py."""
import json
import os
import signal
import socket
import subprocess
from urllib.request import urlopen

from catalog import BIDI_TITLE, CORPUS, CRLF_ARTIST, CRLF_TITLE, HUGE_TITLE
from helpers import PREVIEWCTL, Client, control, playlist_file, wait_for

# CRLF_TITLE and CRLF_ARTIST as previewd keeps them: each break a space, CR LF one.
CLEAN_TITLE = "Evil http://127.0.0.1:9/injected.mp3 state=hacked file: forged"
CLEAN_ARTIST = "A B C D E F G"


def crlf_track(daemon, http):
    """deezer:track:3135556 with CRLF_TITLE and CRLF_ARTIST, queued as song 1."""
    control(http, "fault?path=/track/3135556&kind=crlf-title")
    c = daemon.client()
    assert c.cmd("addid deezer:track:3135556") == ["Id: 1", "OK"]
    return c


def test_a_title_with_line_breaks_writes_no_line_into_a_stored_playlist(daemon, http):
    c = crlf_track(daemon, http)
    info = c.cmd("playlistinfo")
    assert f"Title: {CLEAN_TITLE}" in info and f"Artist: {CLEAN_ARTIST}" in info, info
    assert c.cmd("save evil") == ["OK"]
    assert open(playlist_file(daemon, "evil")).read().splitlines() == [
        "#EXTM3U", f"#EXTINF:30,{CLEAN_ARTIST} - {CLEAN_TITLE}", "#EXTALB:Discovery", "deezer:track:3135556"]
    assert c.cmd("clear") == ["OK"]
    assert c.cmd("load evil") == ["OK"]
    files = [line for line in c.cmd("playlistinfo") if line.startswith("file: ")]
    assert files == ["file: deezer:track:3135556"]


def test_a_title_with_line_breaks_forges_no_hook_line_nor_events_field(daemon_factory, http, tmp_path):
    out = tmp_path / "hook"
    out.mkdir()
    d = daemon_factory(output="null", pace="realtime",
                       extra=("--on-event", f'player:cat > "{out}/stdin"; env > "{out}/env"'))
    ev = d.client()
    ev.send("events\n")
    assert ev.reply()[-1] == "OK"  # the subscribed record
    c = crlf_track(d, http)
    assert ev.reply()[-1] == "OK"  # the playlist record
    assert c.cmd("play 0") == ["OK"]
    record = ev.reply()
    assert f"title: {CLEAN_TITLE}" in record and f"artist: {CLEAN_ARTIST}" in record, record
    assert [line for line in record if line.startswith("file: ")] == ["file: deezer:track:3135556"]
    wait_for(lambda: (out / "env").exists() and "PREVIEWD_STATE=play" in (out / "env").read_text(),
             what="the hook's environment")
    env = (out / "env").read_text().splitlines()
    assert f"PREVIEWD_TITLE={CLEAN_TITLE}" in env
    assert [line for line in env if line.startswith("PREVIEWD_STATE=")] == ["PREVIEWD_STATE=play"]
    stdin = (out / "stdin").read_text().splitlines()
    assert f"title={CLEAN_TITLE}" in stdin and f"artist={CLEAN_ARTIST}" in stdin
    assert [line for line in stdin if line.startswith("state=")] == ["state=play"]


def test_a_1_mib_title_is_cut_to_1_kib_on_its_way_in(daemon_factory, http, tmp_path):
    out = tmp_path / "hook"
    out.mkdir()
    d = daemon_factory(output="null", pace="realtime",
                       extra=("--on-event", f'player:cat > "{out}/stdin"; env > "{out}/env"'))
    control(http, "fault?path=/track/3135556&kind=huge-title")
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    assert c.fields("playlistinfo")["Title"] == HUGE_TITLE[:1024]
    assert c.cmd("play 0") == ["OK"]
    wait_for(lambda: (out / "env").exists() and "PREVIEWD_STATE=play" in (out / "env").read_text(),
             what="the hook's environment")
    env = dict(line.split("=", 1) for line in (out / "env").read_text().splitlines() if "=" in line)
    assert env["PREVIEWD_TITLE"] == HUGE_TITLE[:1024]
    assert "PREVIEWD_TRUNCATED" not in env
    assert ("title=" + HUGE_TITLE[:1024] + "\n") in (out / "stdin").read_text()


def test_tags_added_to_the_whole_queue_hold_at_most_16_mib(daemon):
    c = Client(daemon.socket, timeout=120)  # 16 MiB of tags: a debug build on a busy machine takes its time
    c.send("command_list_begin\n" + "add deezer:track:3135556\n" * 300 + "command_list_end\n")
    assert c.reply() == ["OK"]
    value = "v" * 65000  # 65,023 bytes counted a song: its bytes, "Comment" and 16
    # One request after another, pipelined (a command list holds 2 MiB).
    c.send("".join(f"addtagid {i} comment {value}\n" for i in range(1, 259)))
    assert [c.reply() for _ in range(258)] == [["OK"]] * 258  # 258 x 65,023 = 16,775,934 bytes
    full = ("ACK [2@0] {addtagid} tags added to the queue's songs hold at most 16777216 bytes in all; "
            "clear some (cleartagid) or remove songs")
    assert c.cmd(f"addtagid 259 comment {value}") == [full]
    assert c.cmd("addtagid 259 comment short") == ["OK"]  # 16,775,934 + 28 fits
    assert c.cmd("delete 0") == ["OK"]  # song 1 and its tag go
    assert c.cmd(f"addtagid 260 comment {value}") == ["OK"]
    assert c.fields("status")["playlistlength"] == "299"
    assert daemon.proc.poll() is None


def test_one_add_of_a_lying_album_is_refused_at_10000_songs(daemon, http):
    c = Client(daemon.socket, timeout=120)  # 12,000 tracks decoded: slow in a debug build on a busy machine
    before = urlopen(f"{http}/_control/count").read()
    control(http, "endless-album?id=302127")
    try:
        assert c.cmd("add deezer:album:302127") == [
            "ACK [51@0] {add} deezer:album:302127: over 10000 entries; previewd takes at most that many from one item"]
    finally:
        control(http, "endless-album")
    requests = json.loads(urlopen(f"{http}/_control/count").read())["api_requests"] - json.loads(before)["api_requests"]
    assert requests == 7  # the album, then pages of 2,000 until 12,000 entries
    assert c.fields("status")["playlistlength"] == "0"
    assert c.cmd("add deezer:track:3135556") == ["OK"]


def test_a_client_subscribes_to_at_most_16_channels(daemon):
    c = daemon.client()
    for i in range(16):
        assert c.cmd(f"subscribe ch{i}") == ["OK"]
    assert c.cmd("subscribe ch16") == ["ACK [56@0] {subscribe} subscription list is full (at most 16 channels)"]
    assert c.cmd("subscribe ch0") == ["ACK [56@0] {subscribe} already subscribed to this channel"]
    assert c.cmd("unsubscribe ch3") == ["OK"]
    assert c.cmd("subscribe ch16") == ["OK"]
    assert len([line for line in c.cmd("channels") if line.startswith("channel: ")]) == 16


def test_silent_clients_are_closed_and_a_real_one_gets_in(daemon_factory):
    d = daemon_factory(extra=("--max-clients", "6", "--connection-timeout", "1"))
    idle = d.client()
    idle.send("idle mixer\n")
    silent = []
    for _ in range(5):  # with the idle one, every place
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(10)
        s.connect(d.socket)
        assert s.recv(100) == b"OK MPD 0.23.5\n"
        silent.append(s)
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(d.socket)
    assert s.recv(200) == b"OK MPD 0.23.5\nACK [5@0] {} too many clients (at most 6)\n"
    for s in silent:  # closed by previewd after a second of silence
        assert s.recv(100) == b""
    c = d.client()
    assert c.cmd("setvol 50") == ["OK"]
    assert idle.reply() == ["changed: mixer", "OK"]  # idle may be silent for ever
    assert "client(s) silent for 1 s" in d.log()


def test_previewctl_shows_no_bidi_controls_or_invisible_characters(daemon_factory, http):
    d = daemon_factory(output="null", pace="realtime")
    control(http, "fault?path=/track/3135556&kind=bidi-title")
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    assert c.fields("playlistinfo")["Title"] == BIDI_TITLE  # the protocol carries the text as it is
    assert c.cmd("play 0") == ["OK"]
    for args in (["queue"], ["status"], ["current"], ["current", "--format", "%title%"]):
        p = d.ctl(*args)
        assert p.returncode == 0, (args, p.stderr)
        assert "evil3pm.exexy" in p.stdout, (args, p.stdout)
        assert not set(p.stdout) & set("\u202e\u2066\u2069\u200b\ufeff"), args


def test_previewctl_gives_up_on_a_stopped_daemon(daemon):
    c = daemon.client()
    assert c.cmd("ping") == ["OK"]
    os.kill(daemon.proc.pid, signal.SIGSTOP)
    try:
        p = daemon.ctl("--timeout", "1", "status")
        assert (p.returncode, p.stdout) == (75, "")
        assert p.stderr == (f"previewctl: previewd at {daemon.socket} did not greet within 1 s "
                            "(busy or stopped? --timeout S waits longer)\n")
        p = daemon.ctl("--timeout=0.5", "status")
        assert p.stderr == (f"previewctl: previewd at {daemon.socket} did not greet within 0.5 s "
                            "(busy or stopped? --timeout S waits longer)\n")
    finally:
        os.kill(daemon.proc.pid, signal.SIGCONT)
    assert daemon.ctl("status").returncode == 0
    p = daemon.ctl("--timeout", "0", "status")
    assert (p.returncode, p.stderr) == (64, "previewctl: --timeout takes seconds, above 0 and at most 86400: 0\n")


def test_previewctl_gives_up_when_a_stopped_daemon_takes_no_connection(tmp_path):
    """A listener that never accepts: once its backlog is full, connect(2)
    itself waits (a Unix socket does), and --timeout bounds that too."""
    path = str(tmp_path / "s")
    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    server.listen(0)
    held = []
    try:
        for _ in range(3):  # fill the backlog
            s = socket.socket(socket.AF_UNIX)
            s.setblocking(False)
            try:
                s.connect(path)
            except BlockingIOError:
                pass
            held.append(s)
        p = subprocess.run([PREVIEWCTL, "--socket", path, "--timeout", "1", "status"], capture_output=True, text=True,
                           timeout=30)
    finally:
        for s in held:
            s.close()
        server.close()
    assert (p.returncode, p.stdout) == (75, "")
    assert p.stderr == (f"previewctl: previewd at {path} did not take the connection within 1 s "
                        "(busy or stopped? --timeout S waits longer)\n")


def test_an_endless_preview_fails_at_60_seconds_with_the_reason(daemon, http, tmp_path):
    # Three previews back to back: 90 s where the catalog promises 30.
    long = tmp_path / "long.mp3"
    long.write_bytes(b"".join(open(os.path.join(CORPUS, f"preview-0{i}.mp3"), "rb").read() for i in (1, 2, 3)))
    control(http, f"preview-file?track=3135556&path={long}")
    try:
        c = daemon.client()
        assert c.cmd("add deezer:track:3135556") == ["OK"]
        assert c.cmd("play 0") == ["OK"]
        wait_for(lambda: "error" in c.fields("status"), timeout=60, what="the error")
        st = c.fields("status")
    finally:
        control(http, "reset")
    assert st["error"] == ("deezer:track:3135556: the preview plays past 60 s (a catalog preview is 30 s); "
                           "stopped there")
    assert st["state"] == "stop"


def test_a_lastfm_key_on_the_command_line_gets_a_warning(daemon_factory, http):
    d = daemon_factory(extra=("--lastfm-key", "test-key", "--lastfm-base", http + "/lastfm/2.0/"))
    assert d.client().cmd("catalogchart tracks tag rock")[-1] == "OK"  # still used
    assert ("warning: --lastfm-key: other users of this machine can read a command line (/proc/PID/cmdline, ps); "
            "put the key in ") in d.log()
    assert "test-key" not in d.log()


def test_no_temporary_file_is_written_through_a_link(daemon, tmp_path):
    """A link planted at a save's temporary name (a PID guessed) is removed,
    never followed: the file it points to keeps its bytes."""
    c = daemon.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    precious = tmp_path / "precious"
    precious.write_text("mine\n")
    playlists = os.path.join(daemon.tmp, "state", "playlists")
    os.makedirs(playlists, exist_ok=True)
    planted = os.path.join(playlists, f"mix.m3u.tmp-{daemon.proc.pid}")
    os.symlink(precious, planted)
    assert c.cmd("save mix") == ["OK"]
    assert precious.read_text() == "mine\n"
    assert not os.path.lexists(planted)
    assert open(playlist_file(daemon, "mix")).read().splitlines()[-1] == "deezer:track:3135556"



# What a second attack found (a lying search, an album's genres, a dribbling
# client, a stale `watch`, the key in a settings file others may read).

def test_a_lying_search_is_cut_to_what_was_asked(daemon, http):
    """A search page of 3,000 where 100 were asked (500,000 once queued
    them all, at 609 MiB): previewd keeps what it asked for."""
    c = Client(daemon.socket, timeout=120)
    control(http, "endless-search?on=1")
    try:
        tracks = [line for line in c.cmd("catalogsearch tracks x limit 25") if line.startswith("file: ")]
        assert len(tracks) == 25
        assert c.cmd("searchadd any daft") == ["OK"]  # one page of 100 (searchadd reads one)
        assert c.fields("status")["playlistlength"] == "100"
        assert len([line for line in c.cmd('search any daft window 0:1000') if line.startswith("file: ")]) == 1000
    finally:
        control(http, "endless-search?on=0")


def test_an_album_brings_at_most_8_genres_to_its_songs(daemon, http):
    control(http, "fault?path=/album/302127&kind=many-genres")
    c = daemon.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    genres = [line for line in c.cmd("playlistinfo 0") if line.startswith("Genre: ")]
    assert genres == [f"Genre: Genre {n} " + "x" * 990 for n in range(8)]


def test_a_client_dribbling_a_line_is_closed_as_a_silent_one(daemon_factory):
    d = daemon_factory(extra=("--max-clients", "2", "--connection-timeout", "1"))
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(d.socket)
    assert s.recv(100) == b"OK MPD 0.23.5\n"
    closed = False
    for byte in b"status" * 10:  # a byte every 0.2 s, never a whole line
        try:
            s.sendall(bytes([byte]))
        except OSError:
            closed = True
            break
        import select
        if select.select([s], [], [], 0.2)[0] and s.recv(100) == b"":
            closed = True
            break
    assert closed
    assert d.client().cmd("ping") == ["OK"]


def test_watch_says_a_stopped_daemon_is_not_running(daemon):
    watch = subprocess.Popen([PREVIEWCTL, "--socket", daemon.socket, "--timeout", "1", "watch", "--interval", "0.5",
                              "--format", "%state%"], stdout=subprocess.PIPE, text=True)
    try:
        assert watch.stdout.readline() == "stopped\n"
        os.kill(daemon.proc.pid, signal.SIGSTOP)
        try:
            line = watch.stdout.readline()
            while line == "stopped\n":  # ticks already sent
                line = watch.stdout.readline()
            assert line == "previewd not running\n"
        finally:
            os.kill(daemon.proc.pid, signal.SIGCONT)
        assert watch.stdout.readline() == "stopped\n"
    finally:
        watch.kill()
        watch.wait()


def test_a_lastfm_key_in_a_settings_file_others_may_read_gets_a_warning(daemon_factory, http, tmp_path):
    conf = tmp_path / "previewd.conf"
    conf.write_text("lastfm-key = test-key\n")
    os.chmod(conf, 0o644)
    d = daemon_factory(extra=("--config", str(conf), "--lastfm-base", http + "/lastfm/2.0/"))
    assert d.client().cmd("catalogchart tracks tag rock")[-1] == "OK"
    assert (f"warning: {conf}: permissions 0644 are too open: others may read the Last.fm key it holds; "
            f"chmod 600 {conf}") in d.log()


def test_addtagid_refuses_c1_controls_and_line_separators(daemon):
    c = daemon.client()
    assert c.cmd("addid deezer:track:3135556") == ["Id: 1", "OK"]
    for value in ("a\u009b2Jb", "a\u0085b", "a\u2028b"):
        assert c.cmd(f'addtagid 1 comment "{value}"') == [
            "ACK [2@0] {addtagid} tag values may not hold control characters"]
    assert c.cmd('addtagid 1 comment "a\u00e9b"') == ["OK"]
