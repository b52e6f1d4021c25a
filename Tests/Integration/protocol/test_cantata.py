"""Cantata 2.5 (Debian's) against previewd: the real program under Xvfb,
through a proxy that records what it sends, and a replay of the commands it
sent at start-up against Debian's mpd and previewd, compared reply by reply."""
import os
import re
import socket
import sqlite3
import subprocess
import threading

import pytest

from helpers import Client, control, stop_process, wait_for

# What Cantata 2.5.0 sent on connecting (recorded through the proxy below,
# against previewd playing an album; the albumart line is its cover request
# for the current song, as Cantata words it: the song's "directory").
CANTATA_START = [
    "channels", "stats", 'lsinfo "mpd-client://cantata/2.5.0"', "listpartitions", "status", "playlistinfo",
    "status", "stats", "urlhandlers", "tagtypes", "commands", "playlistinfo", "status", "outputs", "lsinfo",
    "currentsong", "listplaylists", 'listplaylistinfo "[Radio Streams]"', "playlistinfo", "status", "outputs",
]


class Proxy:
    """A Unix-socket proxy to `target` that records the client's lines and
    the server's ACK lines, in order."""

    def __init__(self, path, target):
        self.path, self.target = path, target
        self.lines, self.lock = [], threading.Lock()
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind(path)
        self.server.listen(8)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX)
            upstream.connect(self.target)
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, src, dst, from_server):
        pending = b""
        try:
            while data := src.recv(65536):
                dst.sendall(data)
                pending += data
                *whole, pending = pending.split(b"\n")
                with self.lock:
                    for line in whole:
                        if not from_server:
                            self.lines.append(line.decode("utf-8", "replace"))
                        elif line.startswith(b"ACK "):
                            self.lines.append("<- " + line.decode("utf-8", "replace"))
        except OSError:
            pass
        finally:
            try:
                dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def recorded(self):
        with self.lock:
            return list(self.lines)

    def close(self):
        self.server.close()


@pytest.fixture
def xvfb():
    """A private X server; yields its DISPLAY."""
    p = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    display = ":" + p.stdout.readline().strip()
    yield display
    p.terminate()
    p.wait(10)


def start_cantata(daemon, display, tmp_path):
    """Cantata on `display`, connected to `daemon` through a recording
    proxy, with a fresh home; returns (proxy, process)."""
    proxy = Proxy(str(tmp_path / "proxy.sock"), daemon.socket)
    home = tmp_path / "home"
    (home / ".config" / "cantata").mkdir(parents=True)
    (home / ".config" / "cantata" / "cantata.conf").write_text(
        f"[General]\nversion=2.5.0\ncurrentConnection=Default\nfirstRun=false\n\n"
        f"[Connection]\nhost={proxy.path}\nport=6600\npasswd=\ndir=/nonexistent/\n")
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_RUNTIME_DIR=str(runtime),
               DISPLAY=display, QT_QPA_PLATFORM="xcb")
    # Cantata needs a session bus (its single-instance check); a private one.
    # A process group of its own: stopping it stops the bus too, which
    # dbus-run-session leaves running when it is sent SIGTERM alone.
    app = subprocess.Popen(["dbus-run-session", "--", "cantata"], env=env, start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proxy, app


def test_cantata_under_xvfb_shows_the_queue_and_reads_the_whole_cover(daemon_factory, xvfb, tmp_path):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("play") == ["OK"]
    proxy, app = start_cantata(d, xvfb, tmp_path)
    try:
        cover_done = wait_for(lambda: any(l.startswith("albumart ") and not l.endswith(" 0") for l in proxy.recorded()),
                              timeout=45)
        lines = proxy.recorded()
        assert cover_done, lines
        shot = tmp_path / "cantata.png"
        subprocess.run(["import", "-window", "root", "-display", xvfb, str(shot)], check=True)
        mean = float(subprocess.run(["convert", str(shot), "-format", "%[mean]", "info:"],
                                    capture_output=True, text=True, check=True).stdout)
        assert mean > 10000, f"the screen is dark: mean {mean}"
    finally:
        stop_process(app, group=True)
        proxy.close()
    # The cover in two chunks of Cantata's binary limit (8192), no ACK.
    covers = [l for l in lines if l.startswith("albumart ")]
    assert covers[:2] == ['albumart "deezer:track:3135553/" 0', 'albumart "deezer:track:3135553/" 8192'], lines
    for line in CANTATA_START[:3] + ["playlistinfo", "currentsong", "outputs", "tagtypes", "commands"]:
        assert line in lines, (line, lines)
    # Only what mpd refuses too (see the replay below) is refused; with
    # stickers listed in `commands`, Cantata asks for the queued songs'
    # ratings, and an unrated song has none, as on mpd.
    acks = [l for l in lines if l.startswith("<- ")]
    assert set(acks) <= {"<- ACK [2@0] {lsinfo} Unsupported URI scheme",
                         "<- ACK [50@0] {listplaylistinfo} No such playlist",
                         "<- ACK [50@0] {sticker} no such sticker"}, acks
    asked = [l for l in lines if l.startswith("sticker ")]
    assert 'sticker get song "deezer:track:3135553" rating' in asked, lines
    assert all(re.fullmatch(r'sticker get song "deezer:track:\d+" rating', l) for l in asked), asked


def ack_code(reply):
    last = reply[-1]
    return last.split("]")[0] + "]" if last.startswith("ACK ") else "OK"


def test_cantatas_start_up_commands_get_the_answer_kinds_mpd_gives(mpd, daemon):
    """Each recorded command, on a fresh, stopped, empty server: OK on both,
    or the same ACK code on both; `status`, `currentsong`, `listplaylists`
    and `channels` name the same keys (stats and outputs differ on purpose:
    mpd has a database and output attributes)."""
    ours, theirs = daemon.client(), Client(mpd)
    for line in CANTATA_START:
        a, b = ours.cmd(line), theirs.cmd(line)
        assert ack_code(a) == ack_code(b), (line, a[-1], b[-1])
        if line in ("status", "currentsong", "listplaylists", "channels"):
            # previewd's own `autoplay` line aside (clients pass over a key they do not know).
            keys = [l.split(": ")[0] for l in a if line != "status" or not l.startswith("autoplay: ")]
            assert keys == [l.split(": ")[0] for l in b], (line, a, b)
    assert ours.cmd("listpartitions") == theirs.cmd("listpartitions") == ["partition: default", "OK"]
    assert ours.cmd("partition default") == theirs.cmd("partition default") == ["OK"]
    # Cantata's cover request for a catalog song: answered by previewd.
    assert ours.cmd('albumart "deezer:track:3135553/" 0')[-1] == "OK"


def test_cantata_reads_the_library_and_nothing_else_in_a_few_requests(daemon_factory, xvfb, tmp_path):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd("libraryadd deezer:album:302127") == ["OK"]
    api = lambda: [p for p in control(d.api, "log") if p.startswith("/api/")]  # noqa: E731
    api_before = len(api())
    proxy, app = start_cantata(d, xvfb, tmp_path)
    cache = tmp_path / "home" / ".local" / "share" / "cantata" / "library" / (str(tmp_path / "proxy.sock").replace("/", "_") + ".sql")
    try:
        # Cantata builds its library from the database tree: `lsinfo` at the
        # root, then each directory it lists (the sections; catalog items
        # are playlist entries, which it does not open); and its genre list.
        read = wait_for(lambda: 'lsinfo "Radios"' in proxy.recorded() and cache.exists(), timeout=45)
        lines = proxy.recorded()
        assert read, lines
        # The file appears with its tables before Cantata fills them (one
        # CI run read it empty), so wait for the songs themselves.
        expected = sorted(f"deezer:track:{n}" for n in range(3135553, 3135567))
        wait_for(lambda: library_files(cache) == expected, timeout=20)
    finally:
        stop_process(app, group=True)
        proxy.close()
    assert "list genre" in lines and "stats" in lines, lines
    acks = [l for l in lines if l.startswith("<- ")]
    assert set(acks) <= {"<- ACK [2@0] {lsinfo} Unsupported URI scheme",
                         "<- ACK [50@0] {listplaylistinfo} No such playlist"}, acks
    walked = [l for l in lines if l.startswith("lsinfo ")]
    requests = api()[api_before:]
    print(f"Cantata's library walk: {len(walked)} lsinfo, {len(requests)} catalog requests")
    assert len(requests) <= 20, requests
    assert 'lsinfo "Library"' in walked and 'lsinfo "Top Picks"' in walked, walked
    # Its library cache holds the Library's songs and nothing else.
    assert library_files(cache) == expected
    # What those commands answer (Cantata read the same, through the proxy).
    assert c.cmd("list genre") == ["Genre: Dance", "OK"]
    listing = c.cmd('lsinfo "Library"')
    assert sum(l.startswith("file: ") for l in listing) == 14 and "AlbumArtist: Daft Punk" in listing
    assert c.fields("stats")["songs"] == "14"


def library_files(cache):
    """The song files in Cantata's library cache (an SQLite file), sorted;
    None while it cannot be read."""
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as db:
            return sorted(row[0] for row in db.execute("SELECT file FROM songs"))
    except sqlite3.Error:
        return None
