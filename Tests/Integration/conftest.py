"""Shared fixtures for the integration tests: the loopback catalog server,
a previewd started per test in a temp dir, and a raw MPD-protocol client."""
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import wave

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import catalog  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BIN = os.environ.get("PREVIEWD_BIN_DIR") or os.path.join(ROOT, ".build", "debug")
PREVIEWD = os.path.join(BIN, "previewd")
PREVIEWCTL = os.path.join(BIN, "previewctl")


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


@pytest.fixture(scope="session")
def http():
    """The loopback Deezer API + CDN stand-in; yields its base URL."""
    server = catalog.serve()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


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


class Daemon:
    """previewd in a temp dir with its own socket; stops on close()."""

    def __init__(self, tmp, api, output="wav", pace="none", extra=(), env=None):
        self.tmp = str(tmp)
        os.makedirs(self.tmp, exist_ok=True)
        self.socket = os.path.join(self.tmp, "run", "socket")
        self.wav = os.path.join(self.tmp, "out.wav")
        self.api = api
        out = f"wav:{self.wav}" if output == "wav" else output
        self.log_path = os.path.join(self.tmp, "previewd.log")
        self.log_file = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [PREVIEWD, "--socket", self.socket, "--output", out, "--pace", pace,
             "--api-base", api + "/api", "--state-dir", os.path.join(self.tmp, "state"),
             "--log-level", "debug", *extra],
            stdout=self.log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
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
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log_file.close()
        assert self.proc.returncode == 0, f"previewd exited {self.proc.returncode}:\n{self.log()}"


@pytest.fixture
def daemon_factory(tmp_path, http):
    made = []

    def make(**kw):
        d = Daemon(tmp_path / f"d{len(made)}", http, **kw)
        made.append(d)
        return d
    yield make
    for d in made:
        d.close()


@pytest.fixture
def daemon(daemon_factory):
    return daemon_factory()


def wav_pcm(path):
    """(frames, rate, channels, pcm bytes) of a WAV file."""
    with wave.open(path, "rb") as w:
        return w.getnframes(), w.getframerate(), w.getnchannels(), w.readframes(w.getnframes())


def md5(data):
    return hashlib.md5(data).hexdigest()


def reference_pcm(name):
    """The s16 PCM `mpg123 -s` gives for a corpus file, checked against the manifest."""
    data = subprocess.run(["mpg123", "-q", "-s", os.path.join(catalog.CORPUS, name)],
                          capture_output=True, check=True).stdout
    assert md5(data) == MANIFEST[name]["pcm_md5_s16"], name
    return data


# ---- helpers shared by the protocol tests

def url(http, n):
    """The corpus preview number n as a plain MP3 URL."""
    return f"{http}/corpus/preview-0{n}.mp3"


def fixture(name):
    """A Deezer fixture body, decoded."""
    with open(os.path.join(catalog.FIXTURES, name), encoding="utf-8") as f:
        return json.load(f)


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


DISCOVERY = {"id": 302127}
# `lsinfo`'s root directories in order: the discovery lists come after the Library.
ROOT_DIRECTORIES = ["deezer:chart", "deezer:wantlist", "deezer:library",
                    "deezer:genres", "deezer:picks", "deezer:releases", "deezer:radios", "deezer:now"]


def album_tracks():
    """The tracks of album 302127, the album most tests queue."""
    return fixture("album-302127-tracks.json")["data"]


def control(http, what):
    """GET /_control/WHAT on the catalog server; the decoded JSON."""
    with urllib.request.urlopen(f"{http}/_control/{what}", timeout=10) as r:
        return json.load(r)


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


def wait_for(predicate, timeout=15, interval=0.05):
    """The predicate's first true value within `timeout` seconds, else its last value."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()
