"""The helpers the integration tests share (conftest.py holds the pytest
fixtures): paths, the raw MPD client and the daemon under test, waiting,
the catalog's expected replies, PCM and recordings, and the programs the
client tests drive (mpc, tmux, a private D-Bus session bus).

Every helper is defined here once; a test file imports what it uses."""
import array
import fcntl
import hashlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import termios
import threading
import time
import urllib.request
import wave

import catalog

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BIN = os.environ.get("PREVIEWD_BIN_DIR") or os.path.join(ROOT, ".build", "debug")
PREVIEWD = os.path.join(BIN, "previewd")
PREVIEWCTL = os.path.join(BIN, "previewctl")

RATE = 44100  # the corpus previews' rate, and the recordings'
FRAME = 4  # bytes of one s16 stereo frame
# The cover URL path of album 302127 (Discovery) on the stand-in.
COVER_PATH = "/cover/images/cover/93b50f6ab0f44d53f8aee5ad207271ee/500x500-000000-80-0-0.jpg"
# The modes line of `mpc` and `previewctl` for a fresh daemon.
MODES = "volume:100%   repeat: off   random: off   single: off   consume: off"
# previewctl's: mpc's and previewd's own autoplay switch.
CTL_MODES = MODES + "   autoplay: off"


def manifest():
    """manifest.tsv rows by file name."""
    rows = {}
    with open(os.path.join(catalog.CORPUS, "manifest.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            rows[cols[0]] = dict(zip(header, cols))
    return rows


MANIFEST = manifest()


# ---- waiting and processes

def free_port():
    """A TCP port free on 127.0.0.1 now (for a server the test starts)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_for(predicate, timeout=15, interval=0.05, what=None, detail=None):
    """Calls `predicate` every `interval` s until it returns a truthy value,
    and returns that value. It is always called once more at or after the
    `timeout` s deadline; if that value is falsy too: without `what`, it is
    returned (for the caller's `assert wait_for(...), diagnostics`); with
    `what`, AssertionError "timed out after TIMEOUT s waiting for WHAT" is
    raised, followed by `detail()` (e.g. logs) if given."""
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value or time.time() >= deadline:
            break
        time.sleep(interval)
    if value or what is None:
        return value
    raise AssertionError(f"timed out after {timeout} s waiting for {what}" + ("\n" + detail() if detail else ""))


def open_sockets(pid):
    """How many sockets the process `pid` has open (its listeners, its
    clients' connections): it drops by one once it has closed a connection."""
    fd_dir = f"/proc/{pid}/fd"
    count = 0
    for fd in os.listdir(fd_dir):
        try:
            count += os.readlink(os.path.join(fd_dir, fd)).startswith("socket:")
        except OSError:
            pass  # closed meanwhile
    return count


def unread(sock):
    """Bytes sent on the stream socket `sock` that its peer has not read
    yet (Linux TIOCOUTQ): 0 once the peer read everything."""
    buf = array.array("i", [0])
    fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, buf)
    return buf[0]


def wait_read(sock, timeout=10):
    """Waits until the peer of `sock` has read everything sent on it."""
    wait_for(lambda: unread(sock) == 0, timeout, interval=0.005, what="the peer to read what was sent",
             detail=lambda: f"{unread(sock)} bytes unread")


def stop_process(proc, sig=signal.SIGTERM, timeout=10, group=False):
    """Sends `sig` to `proc` (to its process group if `group`) unless it has
    exited, and reaps it; SIGKILL if it has not exited within `timeout` s.
    Its exit status."""
    def send(s):
        try:
            os.killpg(proc.pid, s) if group else proc.send_signal(s)
        except ProcessLookupError:
            pass
    if proc.poll() is None:
        send(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            send(signal.SIGKILL)
            proc.wait()
    return proc.returncode


# ---- the daemon and its protocol

class Client:
    """A raw MPD-protocol client: sends lines, returns exact reply lines."""

    def __init__(self, path, timeout=10):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buf = b""
        self.greeting = self.readline()

    def readline(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def send(self, text):
        self.sock.sendall(text.encode() if isinstance(text, str) else text)

    def reply(self):
        """Lines up to and including OK or ACK."""
        lines = []
        while True:
            line = self.readline()
            lines.append(line)
            if line == "OK" or line.startswith("ACK "):
                return lines

    def cmd(self, line):
        self.send(line + "\n")
        return self.reply()

    def fields(self, line):
        """The reply as a dict (first value of each key); asserts OK."""
        lines = self.cmd(line)
        assert lines[-1] == "OK", lines
        out = {}
        for l in lines[:-1]:
            k, _, v = l.partition(": ")
            out.setdefault(k, v)
        return out

    def close(self):
        self.sock.close()


def without_locale():
    """os.environ with no locale territory (LANG=C.UTF-8, no LC_ALL or
    LC_MESSAGES): a daemon started in it has no country of its own, so
    Listen Now and `country ""` do not depend on the machine's locale."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "C.UTF-8"
    return env


class Daemon:
    """previewd in a temp dir with its own socket; stops on close()."""

    def __init__(self, tmp, api, output="wav", pace="none", extra=(), env=None, binary=None, ignoring=()):
        """`ignoring`: signals previewd starts with ignored, as `nohup` and a
        shell's background jobs start it."""
        self.tmp = str(tmp)
        os.makedirs(self.tmp, exist_ok=True)
        self.socket = os.path.join(self.tmp, "run", "socket")
        self.wav = os.path.join(self.tmp, "out.wav")
        self.api = api
        out = f"wav:{self.wav}" if output == "wav" else output
        self.log_path = os.path.join(self.tmp, "previewd.log")
        self.log_file = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [binary or PREVIEWD, "--socket", self.socket, "--output", out, "--pace", pace,
             "--api-base", api + "/api", "--state-dir", os.path.join(self.tmp, "state"),
             "--log-level", "debug", *extra],
            stdout=self.log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=env if env is not None else without_locale(),
            preexec_fn=(lambda: [signal.signal(s, signal.SIG_IGN) for s in ignoring]) if ignoring else None)
        deadline = time.time() + 10
        while not self._connectable():
            if self.proc.poll() is not None:
                raise RuntimeError("previewd exited: " + self.log())
            if time.time() > deadline:
                raise RuntimeError("previewd did not create its socket: " + self.log())
            time.sleep(0.01)

    def _connectable(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(self.socket)
            return True
        except OSError:
            return False
        finally:
            s.close()

    def log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def client(self):
        return Client(self.socket)

    def ctl(self, *args, env=None):
        """Runs previewctl against this daemon; returns CompletedProcess."""
        return subprocess.run([PREVIEWCTL, "--socket", self.socket, *args],
                              capture_output=True, text=True, timeout=30, env=env)

    def wait_state(self, client, state, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            st = client.fields("status")
            if st.get("state") == state:
                return st
            time.sleep(0.02)
        raise AssertionError(f"state never became {state}: {st}\n{self.log()}")

    def close(self):
        stop_process(self.proc)
        self.log_file.close()
        assert self.proc.returncode == 0, f"previewd exited {self.proc.returncode}:\n{self.log()}"


def restart(d, http, **kw):
    """Stops `d` with SIGTERM and starts a daemon on the same directory."""
    d.proc.send_signal(signal.SIGTERM)
    assert d.proc.wait(10) == 0
    d.log_file.close()
    os.rename(d.log_path, d.log_path + ".1")
    return Daemon(d.tmp, http, **kw)


def restart_with_edited_queue(root, http, add, sql):
    """A daemon in `root` that ran `add` and stopped, then `sql` run on its
    queue.sqlite (as a user or damage would edit it), then a new daemon on
    the same directory: returned running."""
    d = Daemon(root, http)
    try:
        assert d.client().cmd(add)[-1] == "OK"
    finally:
        d.close()
    with sqlite3.connect(os.path.join(str(root), "state", "queue.sqlite")) as db:
        db.execute(sql)
    return Daemon(root, http)


def play_uris(daemon, uris):
    """A new client of `daemon` that added `uris` (each quoted) and sent `play`."""
    c = daemon.client()
    for uri in uris:
        assert c.cmd(f'add "{uri}"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    return c


def elapsed_of(client):
    """The status's `elapsed` as a float; 0 when it has none."""
    return float(client.fields("status").get("elapsed", "0"))


def wait_status(client, key, timeout=10):
    """The client's status once it has `key`, polled for up to `timeout` s;
    AssertionError naming the key and the last status if it never does."""
    last = {}

    def has_key():
        last.clear()
        last.update(client.fields("status"))
        return key in last
    wait_for(has_key, timeout, what=f"`{key}` in the status", detail=lambda: str(last))
    return last


def playlist_file(daemon, name):
    """The path of `daemon`'s stored playlist `name`."""
    return os.path.join(daemon.tmp, "state", "playlists", name + ".m3u")


def assert_silent(client, seconds=0.3):
    """Nothing arrives from the daemon for `seconds`."""
    assert client.buf == b""
    client.sock.settimeout(seconds)
    try:
        data = client.sock.recv(65536)
    except socket.timeout:
        data = None
    finally:
        client.sock.settimeout(10)
    assert data is None, data


def pick(st, *keys):
    """The given keys of a status dict (None where missing)."""
    return {k: st.get(k) for k in keys}


def songs(lines):
    """Song-list reply lines as dicts (one per `file:`)."""
    assert lines[-1] == "OK", lines
    out = []
    for line in lines[:-1]:
        k, _, v = line.partition(": ")
        if k == "file":
            out.append({})
        out[-1][k] = v
    return out


# ---- the catalog stand-in and what previewd says of its songs

DISCOVERY = {"id": 302127}
# `lsinfo`'s root directories in order: the discovery lists come after the Library.
ROOT_DIRECTORIES = ["Library", "Want to Listen", "Listen Now", "Charts", "Genres", "Top Picks", "New Releases", "Radios"]


def url(http, n):
    """The corpus preview number n as a plain MP3 URL."""
    return f"{http}/corpus/preview-0{n}.mp3"


def fixture(name):
    """A Deezer fixture body, decoded."""
    with open(os.path.join(catalog.FIXTURES, name), encoding="utf-8") as f:
        return json.load(f)


def album_tracks():
    """The tracks of album 302127, the album most tests queue."""
    return fixture("album-302127-tracks.json")["data"]


def control(http, what):
    """GET /_control/WHAT on the catalog server; the decoded JSON."""
    with urllib.request.urlopen(f"{http}/_control/{what}", timeout=10) as r:
        return json.load(r)


def catalog_tag_lines(track):
    """The tag lines previewd adds after Album for a Deezer track object:
    AlbumArtist, Track, Disc, Date, Genre, Label, as far as the recorded
    bodies of its album give them (the stand-in answers /album/ID only for
    recorded albums; other lookups fail and add nothing)."""
    album_id = (track.get("album") or {}).get("id")
    album_file = os.path.join(catalog.FIXTURES, f"album-{album_id}.json")
    position, disc = track.get("track_position"), track.get("disk_number")
    if not os.path.exists(album_file):
        return []
    album = fixture(f"album-{album_id}.json")
    if position is None and os.path.exists(os.path.join(catalog.FIXTURES, f"album-{album_id}-tracks.json")):
        for t in fixture(f"album-{album_id}-tracks.json")["data"]:
            if t["id"] == track["id"]:
                position, disc = t.get("track_position"), t.get("disk_number")
    lines = [f"AlbumArtist: {album['artist']['name']}"]
    lines += [f"Track: {position}"] if position else []
    lines += [f"Disc: {disc}"] if disc else []
    lines += [f"Date: {album['release_date']}"] + [f"Genre: {g['name']}" for g in album["genres"]["data"]]
    return lines + [f"Label: {album['label']}"]


def song_lines(t, album=None):
    """A Deezer track as previewd lists it: file, tags, preview length (a
    track object without its album is taken as one of Discovery's)."""
    seconds = min(t["duration"], 30)
    tags = catalog_tag_lines(t if "album" in t else {**t, "album": DISCOVERY})
    return [f"file: deezer:track:{t['id']}", f"Artist: {t['artist']['name']}", f"Title: {t['title']}",
            f"Album: {album or t['album']['title']}", *tags, f"Time: {seconds}", f"duration: {seconds}.000"]


# ---- PCM: files, references, recordings

def wav_pcm(path):
    """(frames, rate, channels, pcm bytes) of a WAV file."""
    with wave.open(path, "rb") as w:
        return w.getnframes(), w.getframerate(), w.getnchannels(), w.readframes(w.getnframes())


def md5(data):
    """The hex MD5 of `data`."""
    return hashlib.md5(data).hexdigest()


def reference_pcm(name):
    """The s16 PCM `mpg123 -s` gives for a corpus file, checked against the manifest."""
    data = subprocess.run(["mpg123", "-q", "-s", os.path.join(catalog.CORPUS, name)],
                          capture_output=True, check=True).stdout
    assert md5(data) == MANIFEST[name]["pcm_md5_s16"], name
    return data


def recorded_bytes(path):
    """The size of a recorder's WAV file so far (0 before it exists).
    A recorder of a sink's monitor writes all the time: silence while
    nothing plays."""
    try:
        return os.path.getsize(path)
    except FileNotFoundError:
        return 0


def wait_recording(proc, path, timeout=10):
    """Waits until the recorder `proc` writes audio to its WAV file `path`
    (grown past its header and its size now): it is attached and running."""
    start = max(recorded_bytes(path), 44)

    def writing():
        assert proc.poll() is None, f"the recorder of {path} exited with {proc.returncode}"
        return recorded_bytes(path) > start
    wait_for(writing, timeout, interval=0.01, what=f"the recorder to write {path}")


def stop_recording(proc, path, trail=0.5):
    """Waits until the recorder `proc` wrote `trail` s more than its WAV
    file `path` holds now (a sink's monitor trails the sink), stops it
    with SIGINT and returns the PCM of the file (asserted 44.1 kHz s16
    stereo)."""
    goal = recorded_bytes(path) + int(trail * RATE) * FRAME
    wait_for(lambda: recorded_bytes(path) >= goal or proc.poll() is not None, trail + 10, interval=0.02,
             what=f"{trail} s more of the recording {path}")
    proc.send_signal(signal.SIGINT)
    proc.wait(10)
    with wave.open(str(path), "rb") as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (RATE, 2, 2)
        return w.readframes(w.getnframes())


def silent(pcm):
    """True if `pcm` is all zero bytes."""
    return pcm.count(0) == len(pcm)


def common_prefix(a, b):
    """Length of the longest common prefix of two byte strings."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # binary search on whole-prefix equality
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def audible_start(pcm, begin=0):
    """Byte offset of the first non-zero s16 stereo frame from byte `begin`
    on (rounded down to a frame); len(pcm) if all of it is silent."""
    for i in range(begin - begin % FRAME, len(pcm), FRAME):
        if pcm[i:i + FRAME] != b"\0\0\0\0":
            return i
    return len(pcm)


def why_not_found(recording, ref):
    """How far the recording follows `ref`: a message for a failed assertion."""
    start = audible_start(recording)
    at = ref.find(recording[start:start + 4410 * FRAME])
    if at < 0:
        return f"the recording's first audible 0.1 s (at byte {start}) is not in the reference"
    n = common_prefix(recording[start:], ref[at:])
    return (f"recording from byte {start} follows reference bytes {at}..{at + n} of {len(ref)} "
            f"({(len(ref) - at - n) // FRAME} frames missing or differing); the recording has {len(recording)} bytes")


def assert_whole(recording, ref):
    """`ref` is in the recording whole, frame-aligned, with only silence
    around it; its byte offset."""
    at = recording.find(ref)
    assert at >= 0, "reference PCM not found whole: " + why_not_found(recording, ref)
    assert at % FRAME == 0
    assert silent(recording[:at]), "non-silence before the reference"
    assert silent(recording[at + len(ref):]), "non-silence after the reference"
    return at


def assert_whole_through_underruns(recording, ref):
    """Like `assert_whole`, for a recording long enough that a loaded
    machine may starve the sound server: every frame of `ref` is in the
    recording, in order and unaltered, with only silence around it and,
    where the server ran dry (an underrun; PulseAudio and PipeWire then
    play silence and go on where they were), runs of zero frames between
    its parts. Returns those gaps as (frame of `ref` they precede, frames
    of silence)."""
    lead = audible_start(ref)
    assert lead < len(ref), "the reference is silent"
    at = recording.find(ref[lead:lead + 4410 * FRAME])
    assert at >= 0 and at % FRAME == 0, "reference PCM's first audible 0.1 s not found: " + why_not_found(recording, ref)
    r, p = at, lead
    assert silent(recording[:at]), "non-silence before the reference"
    gaps = []
    while True:
        n = common_prefix(recording[r:r + len(ref) - p], ref[p:])
        n -= n % FRAME
        r, p = r + n, p + n
        if p >= len(ref):
            break
        resumes = audible_start(recording, r)
        assert resumes > r, (f"frame {p // FRAME} of the reference differs in the recording (byte {r}), "
                             f"and no silence stands there: not an underrun; {len(gaps)} gaps before it")
        gaps.append((p // FRAME, (resumes - r) // FRAME))
        r = resumes
    assert silent(recording[r:]), "non-silence after the reference"
    return gaps


def blocks_in_order(heard, ref, block=4410):
    """How many of `ref`'s blocks of `block` frames `heard` holds
    verbatim, each after the one found before it: a measure for players
    that may drop or repeat a frame to stay in sync (Snapcast)."""
    found, at = 0, 0
    for i in range(0, len(ref) - block * FRAME + 1, block * FRAME):
        k = heard.find(ref[i:i + block * FRAME], at)
        if k >= 0:
            found, at = found + 1, k + block * FRAME
    return found


# ---- client programs: mpc, tmux, D-Bus

def mpc_env(daemon):
    """The environment for `mpc` against `daemon`: MPD_HOST its socket, no MPD_PORT."""
    env = {k: v for k, v in os.environ.items() if k not in ("MPD_PORT", "MPD_HOST")}
    env["MPD_HOST"] = daemon.socket
    return env


def run_mpc(daemon, *args):
    """Debian's mpc against `daemon`; the CompletedProcess (text)."""
    return subprocess.run(["mpc", *args], capture_output=True, text=True, timeout=30, env=mpc_env(daemon))


class Tmux:
    """A program on a private tmux server, driven by keys and read from its screen."""

    def __init__(self, env, argv, size=(120, 30)):
        self.server = f"previewd-tmux-{os.getpid()}-{id(self)}"
        self.env = env
        subprocess.run(["tmux", "-L", self.server, "new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]),
                        *argv], env=self.env, check=True)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.server, "capture-pane", "-p", "-t", "t"],
                              env=self.env, capture_output=True, text=True).stdout

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.server, "send-keys", "-t", "t", *keys], env=self.env, check=True)

    def shows(self, *texts, timeout=10):
        """The screen once it holds every text (asserts it does in time)."""
        text = wait_for(lambda: (lambda s: s if all(t in s for t in texts) else None)(self.screen()), timeout)
        assert text, f"never showed {texts}:\n{self.screen()}"
        return text

    def close(self):
        subprocess.run(["tmux", "-L", self.server, "kill-server"], env=self.env)


class Ncmpc(Tmux):
    """ncmpc on a private tmux server, 120x30."""

    def __init__(self, daemon, tmp_path):
        super().__init__(dict(os.environ, HOME=str(tmp_path), MPD_HOST=daemon.socket, TERM="xterm", LANG="C.UTF-8"),
                         ["ncmpc"])

    def search(self, mode_presses, query):
        """A new search on the Search screen after pressing `m` this many
        times (Title, Artist, Album, Filename, ...)."""
        self.keys("5")
        self.shows("Change search mode")

        def mode():
            m = re.search(r"Change search mode \[([^]]*)\]", self.screen())
            return m[1] if m else None
        for _ in range(mode_presses):
            before = mode()
            self.keys("m")
            wait_for(lambda: mode() not in (None, before), timeout=10, what=f"a search mode after {before}",
                     detail=self.screen)
        self.keys("5")
        self.shows("Search:")
        self.keys(query, "Enter")


class SessionBus:
    """A private D-Bus session bus (dbus-daemon at TMP/bus) and the processes
    started on it, all stopped by close(). `env` is os.environ with its
    address, HOME=TMP and no DISPLAY."""

    def __init__(self, tmp):
        self.tmp = str(tmp)
        path = os.path.join(self.tmp, "bus")
        self.proc = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address=unix:path={path}",
                                      "--print-address=1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.proc.stdout.readline().strip()
        assert self.address.startswith("unix:path="), self.address
        self.env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address, HOME=self.tmp)
        self.env.pop("DISPLAY", None)
        self.children = []

    def run(self, *args):
        return subprocess.run(list(args), env=self.env, capture_output=True, text=True, timeout=20)

    def follow(self, *args):
        """A long-running command on the bus; its output lines collected in `lines`."""
        p = subprocess.Popen(list(args), env=self.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        p.lines = []
        threading.Thread(target=lambda: [p.lines.append(l.rstrip("\n")) for l in p.stdout], daemon=True).start()
        self.children.append(p)
        return p

    def monitor(self, rule):
        """dbus-monitor of the messages matching `rule`, as `follow` gives
        it, once it monitors: the bus tells it NameLost for its own name when
        it becomes a monitor, after its match rules are in place."""
        p = self.follow("dbus-monitor", "--address", self.address, rule)
        wait_for(lambda: any("member=NameLost" in l for l in p.lines), timeout=10, what="dbus-monitor to monitor the bus",
                 detail=lambda: "\n".join(p.lines))
        return p

    def close(self):
        for p in self.children + [self.proc]:
            stop_process(p)
