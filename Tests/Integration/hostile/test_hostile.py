"""Hostile input (issue 32): what a hostile client, local user or catalog
sends gets a refusal naming the bound, and the daemon keeps running and
loses nothing. Each test here failed on the code before the bound."""
import concurrent.futures
import json
import os
import pwd
import re
import select
import shutil
import socket
import stat
import subprocess
import tempfile
import threading
import time
from urllib.request import urlopen

import pytest

from catalog import HOSTILE_TITLE
from helpers import PREVIEWCTL, PREVIEWD, Daemon, restart_with_edited_queue, url, wait_for
from webui import Web

NESTED = "ACK [2@0] {%s} filter nested too deeply (at most 64 levels)"


def deep_filter(levels):
    return "(" * levels + "artist == 'x'" + ")" * levels


@pytest.mark.parametrize("command", [
    "find", "search", "count", "findadd", "searchadd", "searchaddpl deep", "list album", "playlistfind",
    "playlistsearch"])
def test_deep_filters_are_refused_before_recursion(daemon, command):
    c = daemon.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    # 32,000 levels: the most the 64 KiB line limit lets through (25,000
    # crashed previewd with SIGSEGV before the bound).
    word = command.split()[0]
    line = f'{command} "{deep_filter(32_000)}"'
    assert len(line) < 65536
    assert c.cmd(line) == [NESTED % word]
    assert c.cmd(f'{command} "{deep_filter(65)}"') == [NESTED % word]
    assert c.cmd(f'{command} "{deep_filter(64)}"')[-1] == "OK"  # levels, the comparison's own included
    assert c.fields("status")["playlistlength"] == "1"  # no artist "x": findadd and searchadd add nothing
    assert daemon.proc.poll() is None


def test_over_size_command_list_runs_nothing(daemon_factory):
    d = daemon_factory(extra=("--max-command-list", "1"))
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    s = socket.socket(socket.AF_UNIX)
    s.connect(d.socket)
    s.settimeout(10)
    body = "".join(f"setvol {i % 100}\n" for i in range(200))  # 1,690 bytes > 1 KiB
    s.sendall(("command_list_begin\n" + body + "clear\ncommand_list_end\nclear\n").encode())
    got = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
    lines = got.decode().splitlines()
    assert lines[0] == "OK MPD 0.23.5"
    # Each line counts with its newline, as mpd counts: 103 lines fit in 1 KiB.
    assert lines[1:] == ["ACK [2@103] {} command list too long (at most 1024 bytes); closing the connection"]
    st = c.fields("status")
    assert st["playlistlength"] == "1"
    assert st["volume"] == "100"
    assert "command list over 1024 bytes; closing the connection" in d.log()


@pytest.mark.parametrize("where,ack", [
    ("cataloginfo deezer:artist:27", "ACK [52@0] {cataloginfo} deezer:artist:27: unexpected answer from the Deezer API: "
                                     "the body is not valid JSON"),
    ("add deezer:track:3135556", "ACK [52@0] {add} deezer:track:3135556: unexpected answer from the Deezer API: "
                                 "the body is not valid JSON"),
])
def test_deezer_answers_nested_100000_levels_are_refused(daemon, http, where, ack):
    path = "/" + where.split()[1].split(":", 1)[1].replace(":", "/")
    urlopen(f"{http}/_control/fault?path={path}&kind=deep").read()
    c = daemon.client()
    assert c.cmd(where) == [ack]
    assert c.cmd(where)[-1] == "OK"  # the next answer is the recorded one


def test_lastfm_answer_nested_100000_levels_is_refused(daemon_factory, http):
    d = daemon_factory(extra=("--lastfm-key", "test-key", "--lastfm-base", http + "/lastfm/2.0/"))
    urlopen(f"{http}/_control/fault?path=/lastfm&kind=deep").read()
    c = d.client()
    assert c.cmd("catalogchart tracks tag rock") == [
        "ACK [52@0] {catalogchart} Last.fm: unexpected answer (HTTP status 200)"]
    assert c.cmd("catalogchart tracks tag rock")[-1] == "OK"


def test_state_files_nested_100000_levels_are_set_aside(tmp_path, http):
    state = tmp_path / "d" / "state"
    state.mkdir(parents=True)
    deep = b'{"format": 1, "queue": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    for name in ("state.json", "want.json"):
        (state / name).write_bytes(deep)
    d = Daemon(tmp_path / "d", http)
    try:
        c = d.client()
        assert c.fields("status")["playlistlength"] == "0"
        assert sorted(n.split(".corrupt-")[0] for n in os.listdir(state) if ".corrupt-" in n) == [
            "state.json", "want.json"]
        assert c.cmd("add deezer:track:3135556") == ["OK"]
    finally:
        d.close()


# The fallback directory /tmp/previewd-UID, attacked by another user.
# Root plays the attacker and `nobody` the victim: only root can run
# programs as another uid, so without root these cannot run.
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run previewd as another user")


@pytest.fixture
def victim(tmp_path):
    """`nobody`, with copies of the binaries it can run and a home it owns;
    its /tmp/previewd-UID is removed before and after."""
    user = pwd.getpwnam("nobody")
    home = tempfile.mkdtemp(prefix="previewd-victim-")
    os.chmod(home, 0o755)
    for name in (PREVIEWD, PREVIEWCTL):
        shutil.copy(name, home)
    os.makedirs(os.path.join(home, "state"))
    os.chown(os.path.join(home, "state"), user.pw_uid, user.pw_gid)
    fallback = f"/tmp/previewd-{user.pw_uid}"
    remove(fallback)

    def run(program, *args, wait=True):
        env = {"PATH": "/usr/bin:/bin", "HOME": os.path.join(home, "state")}

        argv = [os.path.join(home, program), *args]
        who = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        if not wait:
            return subprocess.Popen(argv, env=env, **who, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return subprocess.run(argv, env=env, **who, capture_output=True, text=True, timeout=30)
    yield user, fallback, run, home
    remove(fallback)
    shutil.rmtree(home)


def remove(path):
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


class Listener:
    """The attacker's fake previewd: greets as MPD and records what arrives."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.bind(path)
        os.chmod(path, 0o777)
        self.sock.listen(8)
        self.received = b""
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                conn.sendall(b"OK MPD 0.23.5\n")  # a client that refuses us may be gone already
                while chunk := conn.recv(4096):
                    self.received += chunk
                    conn.sendall(b"OK\n")
            except OSError:
                pass
            conn.close()

    def close(self):
        self.sock.close()


@needs_root
@pytest.mark.parametrize("layout", ["owned by root", "symbolic link", "mode 0777"])
def test_a_fallback_directory_made_by_another_user_is_refused(victim, layout):
    user, fallback, run, home = victim
    if layout == "symbolic link":
        target = tempfile.mkdtemp(prefix="previewd-attacker-")
        os.chown(target, user.pw_uid, user.pw_gid)
        os.chmod(target, 0o700)
        os.symlink(target, fallback)
        reason = "is a symbolic link"
    else:
        os.mkdir(fallback, 0o700)
        if layout == "mode 0777":
            os.chown(fallback, user.pw_uid, user.pw_gid)
            os.chmod(fallback, 0o777)
            reason = "has mode 0777 (group or others may use it; 0700 is needed)"
        else:
            reason = f"is owned by uid 0, not {user.pw_uid}"
    listener = Listener(fallback + "/socket")
    try:
        p = run("previewctl", "add", "deezer:track:3135556")
        assert (p.returncode, p.stdout) == (69, "")
        assert p.stderr == (f"previewctl: {fallback} {reason}; not trusting a socket there. "
                            "Set XDG_RUNTIME_DIR, or pass --socket PATH\n")
        assert listener.received == b""
        daemon = run("previewd", "--output", "null", "--api-base", "http://127.0.0.1:9/api")
        assert daemon.returncode == 1
        assert f"{fallback} {reason}; not listening there. Set XDG_RUNTIME_DIR, or pass --socket PATH" in daemon.stderr
    finally:
        listener.close()
        if layout == "symbolic link":
            remove(fallback)
            shutil.rmtree(target)


@needs_root
def test_previewctl_refuses_a_daemon_of_another_user(victim):
    user, fallback, run, home = victim
    path = os.path.join(home, "theirs.sock")
    listener = Listener(path)
    try:
        p = run("previewctl", "--socket", path, "add", "deezer:track:3135556")
        assert (p.returncode, p.stdout) == (69, "")
        assert p.stderr == f"previewctl: {path} is served by uid 0, not by you (uid {user.pw_uid}); refusing it\n"
        assert listener.received == b""
    finally:
        listener.close()


@needs_root
def test_the_fallback_directory_is_made_private_and_used(victim, http):
    user, fallback, run, home = victim
    daemon = run("previewd", "--output", "null", "--api-base", http + "/api", wait=False)
    try:
        wait_for(lambda: os.path.exists(fallback + "/socket"), what="the fallback socket")
        st = os.lstat(fallback)
        assert (stat.S_ISDIR(st.st_mode), st.st_uid, stat.S_IMODE(st.st_mode)) == (True, user.pw_uid, 0o700)
        p = run("previewctl", "add", "deezer:track:3135556")
        assert (p.returncode, p.stderr) == (0, "")
        p = run("previewctl", "status", "--json")
        assert (p.returncode, json.loads(p.stdout)["length"]) == (0, 1)
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


@needs_root
def test_a_planted_listing_is_not_read_and_no_link_is_written_through(victim, http):
    """Issue 42: the socket in a shared directory and no XDG_RUNTIME_DIR sent
    the listing to /tmp/previewd-UID unchecked: another user planted a
    listing there (`open 1 --add` queued their album) and links at the
    temporary names, through which the victim's save overwrote their own file."""
    user, fallback, run, home = victim
    shared = tempfile.mkdtemp(prefix="previewd-shared-")
    os.chmod(shared, 0o1777)
    socket_path = os.path.join(shared, "socket")
    precious = os.path.join(home, "state", "precious")
    with open(precious, "w") as f:
        f.write("mine\n")
    os.chown(precious, user.pw_uid, user.pw_gid)
    # The attacker's directory, open to all, with a listing and links at the
    # temporary names of the next few hundred PIDs.
    os.mkdir(fallback)
    os.chmod(fallback, 0o777)
    with open(os.path.join(fallback, "previewctl-listing"), "w") as f:
        f.write("previewctl listing 1\ndeezer:album:302127\n")
    last = int(open("/proc/sys/kernel/ns_last_pid").read())
    for pid in range(last + 1, last + 400):
        os.symlink(precious, os.path.join(fallback, f"previewctl-listing.tmp-{pid}"))
    daemon = run("previewd", "--output", "null", "--api-base", http + "/api", "--socket", socket_path, wait=False)
    try:
        wait_for(lambda: os.path.exists(socket_path), what="the socket")
        p = run("previewctl", "--socket", socket_path, "search", "tracks", "daft punk")
        assert (p.returncode, p.stderr) == (0, ""), p.stderr
        p = run("previewctl", "--socket", socket_path, "open", "1", "--add")
        assert (p.returncode, p.stdout) == (64, "")
        assert p.stderr.startswith("previewctl: no listing to take numbers from yet"), p.stderr
        p = run("previewctl", "--socket", socket_path, "status", "--json")
        assert json.loads(p.stdout)["length"] == 0
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        shutil.rmtree(shared)
    assert open(precious).read() == "mine\n"
    assert sorted(os.listdir(fallback))[0] == "previewctl-listing" and len(os.listdir(fallback)) == 400


SAFE_TITLE = "One]0;pwned More[2J Time2J"


def test_previewctl_prints_no_control_characters_from_data(daemon_factory, http):
    daemon = daemon_factory(output="null", pace="realtime")
    # A recorded track whose title a hostile catalog filled with escapes.
    urlopen(f"{http}/_control/fault?path=/track/3135556&kind=escape-title").read()
    c = daemon.client()
    assert c.cmd("addid deezer:track:3135556") == ["Id: 1", "OK"]
    assert c.cmd("play 0")[-1] == "OK"
    for args in (["queue"], ["status"], ["current"], ["current", "--format", "%title%"]):
        for env in (None, {**os.environ, "TERM": "xterm"}):
            p = daemon.ctl(*args, env=env)
            assert p.returncode == 0, (args, p.stderr)
            assert SAFE_TITLE in p.stdout, (args, p.stdout)
            assert not [ch for ch in p.stdout if ord(ch) < 0x20 and ch not in "\t\n" or 0x7f <= ord(ch) <= 0x9f], args
    doc = json.loads(daemon.ctl("queue", "--json").stdout)
    assert doc["songs"][0]["title"] == HOSTILE_TITLE
    raw = daemon.ctl("status", "--json").stdout
    assert "\\u001b]0;pwned\\u0007 More\\u001b[2J Time\\u009b2J\\u007f" in raw
    assert json.loads(raw)["song"]["title"] == HOSTILE_TITLE


def test_secrets_stay_out_of_logs_and_files_are_private(tmp_path, http):
    state = tmp_path / "d" / "state"
    state.mkdir(parents=True)
    os.chmod(state, 0o755)  # made by an older previewd, or by hand
    for name in ("library.sqlite", "library.sqlite-wal", "library.sqlite-shm"):
        (state / name).write_bytes(b"")
        os.chmod(state / name, 0o644)
    config = tmp_path / "config" / "previewd"
    config.mkdir(parents=True)
    key = config / "lastfm.key"
    key.write_text("test-key\n")
    os.chmod(key, 0o644)
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    d = Daemon(tmp_path / "d", http, extra=("--lastfm-base", http + "/lastfm/2.0/"), env=env)
    try:
        c = d.client()
        assert c.cmd("catalogchart tracks tag rock")[-1] == "OK"  # the key is still used
        assert c.cmd("add deezer:album:302127") == ["OK"]
        assert c.cmd("libraryadd deezer:album:302127")[-1] == "OK"
        assert c.cmd("save mine") == ["OK"]
        assert c.cmd("play 0") == ["OK"]
        wait_for(lambda: os.path.exists(d.wav), what="the WAV output")
    finally:
        d.close()
    log = d.log()
    assert f"warning: {key}: permissions 0644 are too open: others may read the Last.fm key; chmod 600 {key}" in log
    assert "api_key=…&" in log and "test-key" not in log
    modes = {}
    for root, dirs, files in os.walk(tmp_path / "d"):
        for name in dirs + files:
            path = os.path.join(root, name)
            modes[os.path.relpath(path, tmp_path / "d")] = stat.S_IMODE(os.lstat(path).st_mode)
    assert modes.pop("previewd.log") is not None  # the test's own file
    assert modes["state"] == 0o700 and modes["run"] == 0o700
    assert "state/library.sqlite" in modes and "state/playlists/mine.m3u" in modes
    assert {p: m for p, m in modes.items() if m != (0o700 if os.path.isdir(tmp_path / "d" / p) else 0o600)} == {}


def test_a_burst_of_events_runs_at_most_eight_hooks(daemon_factory, tmp_path):
    log = tmp_path / "hooks"
    hook = f'mixer:echo "start $PREVIEWD_VOLUME" >> "{log}"; sleep 2; echo end >> "{log}"'
    d = daemon_factory(output="null", extra=("--on-event", hook))
    c = d.client()
    for i in range(200):
        assert c.cmd(f"setvol {i % 100}") == ["OK"]
    assert c.cmd("setvol 42") == ["OK"]
    lines = []

    def settled():
        # The newest record's run, then every run ended: checked on ends
        # alone, a busy machine's gap between one hook's end and the next
        # one's start looked settled.
        nonlocal lines
        lines = log.read_text().splitlines() if log.exists() else []
        starts = sum(1 for x in lines if x.startswith("start"))
        return "start 42" in lines and starts == lines.count("end")
    wait_for(settled, timeout=60, what="the hooks to end", detail=lambda: lines)
    running = peak = 0
    for line in lines:
        running += 1 if line.startswith("start") else -1
        peak = max(peak, running)
    starts = [x for x in lines if x.startswith("start")]
    assert peak <= 8
    assert len(starts) < 30  # 201 events; the waiting ones coalesce
    assert starts[-1] == "start 42"  # the newest record waited, not an old one
    assert "8 hooks running; later events wait, repeats of one kind coalesce" in d.log()


def test_tags_added_to_one_song_hold_at_most_64_kib(daemon):
    full = "ACK [2@0] {addtagid} tags added to one song hold at most 65536 bytes in all"
    c = daemon.client()
    assert c.cmd("addid deezer:track:3135556") == ["Id: 1", "OK"]
    value = "v" * 8000
    for _ in range(8):  # each costs its bytes, its name's and 16: 8 x 8,023
        assert c.cmd(f"addtagid 1 comment {value}") == ["OK"]
    assert c.cmd(f"addtagid 1 genre {value}") == [full]
    # Empty values are bounded too: (65,536 - 64,184) // (5 + 16) of them fit.
    empty = 0
    while (reply := c.cmd('addtagid 1 genre ""')) == ["OK"]:
        empty += 1
    assert (empty, reply) == (64, [full])
    info = c.cmd("playlistid 1")
    assert sum(1 for line in info if line.startswith("Comment: ")) == 8
    assert c.cmd("cleartagid 1 comment") == ["OK"]
    assert c.cmd("addtagid 1 genre x") == ["OK"]
    assert c.cmd('addtagid 1 title "a\x00b"') == [
        "ACK [2@0] {addtagid} tag values may not hold control characters"]
    assert c.cmd('addtagid 1 title "a\x1b[2Jb"') == [
        "ACK [2@0] {addtagid} tag values may not hold control characters"]


def test_notify_script_keeps_its_file_in_the_runtime_directory(tmp_path):
    from helpers import ROOT
    script = os.path.join(ROOT, "contrib", "desktop", "notify-on-change.sh")
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    # An attacker's link at the old fixed place must not be written through.
    planted = "/tmp/previewd-notified-songid"
    if not os.path.lexists(planted):
        os.symlink(tmp_path / "victim", planted)
    tools = tmp_path / "bin"  # the script's tools, and no notify-send whether installed or not
    tools.mkdir()
    for tool in ("cat", "mkdir"):
        os.symlink(shutil.which(tool), tools / tool)
    try:
        env = {"PATH": str(tools), "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(runtime),
               "PREVIEWD_STATE": "play", "PREVIEWD_TITLE": "One More Time", "PREVIEWD_SONGID": "7"}
        first = subprocess.run(["/bin/sh", script], env=env, capture_output=True, text=True)
        # No notify-send on its PATH: the script got as far as exec.
        assert first.returncode == 127, first.stderr
        assert (runtime / "previewd" / "notified-songid").read_text() == "7\n"
        assert stat.S_IMODE(os.stat(runtime / "previewd").st_mode) == 0o700
        again = subprocess.run(["/bin/sh", script], env=env, capture_output=True, text=True)
        assert (again.returncode, again.stderr) == (0, "")  # the same song is not announced twice
        assert not (tmp_path / "victim").exists()
    finally:
        if os.path.islink(planted) and os.readlink(planted) == str(tmp_path / "victim"):
            os.unlink(planted)


def test_refused_connections_are_logged_at_most_once_in_10_s(daemon_factory):
    d = daemon_factory(extra=("--max-clients", "5"))
    held = [d.client() for _ in range(5)]
    for _ in range(300):
        s = socket.socket(socket.AF_UNIX)
        s.connect(d.socket)
        s.settimeout(5)
        assert s.recv(200).startswith(b"OK MPD 0.23.5\n")
        s.close()
    assert held[0].cmd("ping") == ["OK"]
    assert d.log().count("refused a client: 5 already connected") == 1


def test_stale_temporary_files_are_removed_at_start(tmp_path, http):
    state = tmp_path / "d" / "state"
    (state / "playlists").mkdir(parents=True)
    stale = [state / "state.json.tmp-4194301", state / "playlists" / "mix.m3u.tmp-12"]
    for path in stale:
        path.write_text("cut short")
    (state / "playlists" / "keep.tmp-notapid.m3u").write_text("#EXTM3U\n")
    d = Daemon(tmp_path / "d", http)
    try:
        assert [p for p in stale if p.exists()] == []
        assert (state / "playlists" / "keep.tmp-notapid.m3u").exists()
        for path in stale:
            assert f"removed {path}, left by a save that was cut short" in d.log()
    finally:
        d.close()


def test_playlist_names_no_file_can_hold_are_refused(daemon):
    c = daemon.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    assert c.cmd("save .hidden") == ["ACK [2@0] {save} Bad playlist name: it may not start with '.' (a hidden file)"]
    assert c.cmd("save " + "n" * 240) == ["ACK [2@0] {save} Bad playlist name: longer than 239 bytes"]
    assert c.cmd("save " + "é" * 120) == ["ACK [2@0] {save} Bad playlist name: longer than 239 bytes"]  # 240 bytes
    assert c.cmd('save "con\x01trol"') == ["ACK [2@0] {save} Bad playlist name"]
    assert c.cmd("save " + "n" * 239) == ["OK"]
    assert c.cmd("listplaylists")[0] == "playlist: " + "n" * 239
    assert c.cmd('rename "' + "n" * 239 + '" .x') == [
        "ACK [2@0] {rename} Bad playlist name: it may not start with '.' (a hidden file)"]


@pytest.mark.parametrize("uri", ["file:///etc/passwd", "ftp://example.com/x.mp3", "/home/user/x.mp3"])
def test_load_takes_only_http_and_deezer_uris(daemon, uri):
    c = daemon.client()
    playlists = os.path.join(daemon.tmp, "state", "playlists")
    os.makedirs(playlists, exist_ok=True)
    with open(os.path.join(playlists, "edited.m3u"), "w") as f:
        f.write(f"#EXTM3U\ndeezer:track:3135556\n{uri}\n")
    assert c.cmd("load edited") == [
        f'ACK [53@0] {{load}} edited.m3u line 3: only http(s):// and deezer: URIs can be queued, not "{uri}"']
    assert c.fields("status")["playlistlength"] == "0"


def test_settings_file_nul_bom_and_a_10_mb_value(tmp_path):
    conf = tmp_path / "previewd.conf"
    conf.write_bytes(b"\xef\xbb\xbfmax-clients = 3\nprefetch = 2\x00\n")
    r = subprocess.run([PREVIEWD, "--config", str(conf), "--print-config"], capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (64, f"previewd: {conf}:2: a NUL byte (the file is not text)\n")
    conf.write_bytes(b"\xef\xbb\xbfmax-clients = 3\n")  # the byte-order mark is skipped
    r = subprocess.run([PREVIEWD, "--config", str(conf), "--print-config"], capture_output=True, text=True)
    assert r.returncode == 0 and "max-clients = 3" in r.stdout.splitlines()
    conf.write_text("log-level = " + "x" * 10_000_000 + "\n")
    r = subprocess.run([PREVIEWD, "--config", str(conf), "--print-config"], capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (64, f"previewd: {conf}:1: log-level must be error, warning, info or debug, "
                                            f'not "{"x" * 80}… (10000000 bytes)"\n')
    # A 10 MB key: no close match is looked for (that took minutes and GBs).
    conf.write_text("x" * 10_000_000 + " = 1\n")
    r = subprocess.run([PREVIEWD, "--config", str(conf), "--print-config"], capture_output=True, text=True, timeout=30)
    assert (r.returncode, r.stderr) == (64, f'previewd: {conf}:1: unknown key "{"x" * 80}… (10000000 bytes)"\n')


def memory_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(field)


def test_60_concurrent_adds_of_huge_answers_stay_within_the_budget(daemon_factory, http):
    d = daemon_factory(output="null")
    base = memory_kib(d.proc.pid, "VmRSS")
    urlopen(f"{http}/_control/padding?bytes={15 << 20}").read()
    try:
        clients = [d.client() for _ in range(60)]
        for i, c in enumerate(clients):  # tracks the stand-in has no body for: each answer is its own
            c.send(f"add deezer:track:{970000000 + i}\n")
        replies = [c.reply() for c in clients]
    finally:
        urlopen(f"{http}/_control/padding?bytes=0").read()
    busy = "API answers in flight hold 64 MiB already; try again"
    for i, reply in enumerate(replies):
        assert len(reply) == 1 and reply[0].startswith("ACK [") and (
            reply[0].endswith(f"deezer:track:{970000000 + i}: not found (Deezer: no data, error 800)") or busy in reply[0]), reply
    assert any(busy in r[0] for r in replies)
    peak = memory_kib(d.proc.pid, "VmHWM")
    assert peak - base < 200 << 10, f"peak {peak} KiB, {base} KiB before"
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]  # the budget was given back
    assert memory_kib(d.proc.pid, "VmRSS") - base < 64 << 10


def test_a_library_that_cannot_be_opened_is_an_error_not_an_empty_list(tmp_path, http):
    state = tmp_path / "d" / "state"
    state.mkdir(parents=True)
    (state / "library.sqlite").mkdir()  # what a full disk or a stray directory leaves: no database to open
    d = Daemon(tmp_path / "d", http)
    try:
        c = d.client()
        reply = c.cmd("librarylist")
        assert reply[0].startswith(f"ACK [52@0] {{librarylist}} cannot read {state}/library.sqlite: "), reply
        assert c.cmd("lsinfo deezer:library")[0].startswith("ACK [52@0] {lsinfo} cannot read ")
        assert c.cmd("ping") == ["OK"]
    finally:
        d.close()


def test_a_queue_database_that_lost_its_rows_is_said(tmp_path, http):
    root = tmp_path / "d"
    d = restart_with_edited_queue(root, http, "add deezer:album:302127", "DROP TABLE songs")
    try:
        assert d.client().fields("status")["playlistlength"] == "0"
        assert f"warning: {root}/state/queue.sqlite holds 0 songs where state.json counted 14" in d.log()
    finally:
        d.close()


# previewweb against another local user, password guessing and slow
# clients (issue 42).

# Run as `nobody`: the attacker's requests, each on its own connection;
# prints the status line of each answer, or "refused" when the connection
# is closed without one. Passed with -c, as pytest's directories are 0700.
ATTACKER = r"""
import socket, sys
port, token = int(sys.argv[1]), sys.argv[2]
for request in (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n",
                f"POST /api/mpd?c=clear HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Previewweb-Token: {token}\r\n"
                "Content-Length: 0\r\nConnection: close\r\n\r\n"):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    answer = b""
    try:
        s.sendall(request.encode())
        while chunk := s.recv(65536):
            answer += chunk
    except OSError:
        pass
    s.close()
    print(answer.split(b"\r\n")[0].decode() if answer else "refused")
"""


@needs_root
def test_previewweb_serves_no_other_user(site, http):
    """Without a password previewweb keeps previewd's promise: a second
    local user can neither read the page (and its token) nor change the
    queue; its connections are closed before a byte is read."""
    d, w = site
    c = d.client()
    assert c.cmd(f'add "{url(http, 1)}"') == ["OK"]
    token = w.token()
    nobody = pwd.getpwnam("nobody")
    r = subprocess.run(["/usr/bin/python3", "-c", ATTACKER, str(w.port), token], user=nobody.pw_uid,
                       group=nobody.pw_gid, extra_groups=[], env={"PATH": "/usr/bin:/bin"}, cwd="/",
                       capture_output=True, text=True, timeout=30)
    assert (r.stdout, r.stderr) == ("refused\nrefused\n", "")
    assert c.fields("status")["playlistlength"] == "1"
    # One line for the two refusals (at most one in 10 s).
    assert w.proc.stderr.readline() == (f"previewweb: refused a connection from uid {nobody.pw_uid} "
                                        f"(previewweb serves uid {os.geteuid()} only)\n")
    # Its own user is served as before.
    assert w.request("GET", "/")[0] == 200
    assert w.request("POST", "/api/mpd?c=clear", {"X-Previewweb-Token": token})[:3:2] == (200, "[[]]\n")
    assert c.fields("status")["playlistlength"] == "0"


def digest(w, password, source):
    """curl's (status, body) of GET /api/status with `password` (HTTP
    digest), sent from the loopback address `source`."""
    r = subprocess.run(["curl", "-s", "-o", "-", "-w", "%{http_code}", "--interface", source, "--digest",
                        "-u", f"previewd:{password}", f"http://127.0.0.1:{w.port}/api/status"],
                       capture_output=True, text=True, timeout=30)
    return int(r.stdout[-3:]), r.stdout[:-3]


def test_password_guesses_slow_down_then_lock_the_address_out(daemon, tmp_path):
    """Each wrong password from an address waits longer for its 401 (0.1 s,
    doubling); the 10th locks that address out for 5 minutes (429, even
    with the right password), which is logged; another address with the
    right password is let in meanwhile."""
    secret = tmp_path / "password"
    secret.write_text("correct horse\n")
    os.chmod(secret, 0o600)
    w = Web(daemon, extra=["--password-file", str(secret)], listen="0.0.0.0:0")
    try:
        for delay in (0.1, 0.2, 0.4, 0.8):
            started = time.monotonic()
            assert digest(w, "wrong", "127.0.0.1") == (401, "the user name and password are needed\n")
            assert time.monotonic() - started >= delay  # a floor: the answer is held at least this long
        with concurrent.futures.ThreadPoolExecutor(5) as pool:  # guesses 5 to 9, side by side
            assert set(pool.map(lambda _: digest(w, "wrong", "127.0.0.1")[0], range(5))) == {401}
        assert digest(w, "wrong", "127.0.0.1") == (429, "too many wrong passwords; try again in 300 s\n")
        assert w.proc.stderr.readline() == "previewweb: 127.0.0.1 sent 10 wrong passwords: refused for 300 s\n"
        status, body = digest(w, "correct horse", "127.0.0.1")
        assert status == 429 and re.fullmatch(r"too many wrong passwords; try again in (300|299) s\n", body), body
        status, body = digest(w, "correct horse", "127.0.0.2")
        assert status == 200 and json.loads(body)["state"] == "stop", body
    finally:
        w.close()


def is_closed(s):
    """Whether the server closed `s` (an end of file or a reset waits on it)."""
    if not select.select([s], [], [], 0)[0]:
        return False
    try:
        return s.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def test_slow_clients_are_held_to_16_and_dropped_after_10_s(site):
    """300 connections from one address sending their headers a byte at a
    time: 16 are kept (the limit for one address), the rest closed at once;
    a request from another address is answered meanwhile; and the 16 are
    shut down 10 s after they opened, though they never fall silent."""
    _, w = site
    dribblers = []
    for _ in range(300):
        s = socket.create_connection(("127.0.0.1", w.port), timeout=10)
        try:
            s.sendall(b"GET / HTTP/1.1\r\n")
        except OSError:
            pass  # closed already: over the limit
        dribblers.append(s)
    assert wait_for(lambda: sum(not is_closed(s) for s in dribblers) == 16, timeout=10)
    held = [s for s in dribblers if not is_closed(s)]
    assert w.request("GET", "/", source="127.0.0.2")[0] == 200
    # A byte a second: each beats the 15 s idle timeout, none the deadline.
    for _ in range(14):
        for s in held:
            try:
                s.sendall(b"X")
            except OSError:
                pass
        if all(is_closed(s) for s in held):
            break
        time.sleep(1)  # fixed: the dribble's pace, a byte a second, is the scenario
    assert all(is_closed(s) for s in held)
    for s in dribblers:
        s.close()
    assert w.request("GET", "/")[0] == 200
