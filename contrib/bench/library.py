#!/usr/bin/python3
"""The Library with 10,000 saved tracks: time of `libraryadd` and
`libraryrm`, `status`, `listall`, `listallinfo`, `lsinfo deezer:library`,
`list album` and `list albumartist`, and the start-up load. The fixture is
written as a `library.json`; a previewd that keeps the Library in
`library.sqlite` imports it on its first start (timed apart), and the
start-up figure is then that of a second start. Uses the loopback catalog
stand-in for the tracks added. Prints figures only.

    contrib/bench/library.py [BIN_DIR] [--tracks N]     (default .build/release, 10000)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
import catalog  # noqa: E402
from conftest import Client  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("--")]
BIN = args[0] if args else os.path.join(ROOT, ".build", "release")
N = int(sys.argv[sys.argv.index("--tracks") + 1]) if "--tracks" in sys.argv else 10000


def library_file(path, n):
    """n saved tracks (500 artists, 1,000 albums), oldest first, as previewd writes them."""
    entries = [{"uri": f"deezer:track:{900000000 + i}", "added": 1_700_000_000 + i,
                "songs": [{"uri": f"deezer:track:{900000000 + i}", "title": f"Song {i}", "artist": f"Artist {i % 500}",
                           "album": f"Album {i % 1000}", "duration": 30, "addedTags": []}]} for i in range(n)]
    with open(path, "w") as f:
        json.dump(entries, f, separators=(",", ":"))


def raw_cmd(c, line):
    """The reply's bytes up to OK, read in big chunks (Client.readline copies
    the rest of its buffer per line: too slow for 60,000 lines)."""
    c.send(line + "\n")
    data = bytearray(c.buf)
    c.buf = b""
    while not (data.endswith(b"\nOK\n") or data == b"OK\n" or data.startswith(b"ACK ")):
        data += c.sock.recv(1 << 20)
    return bytes(data)


def timed(c, line, runs):
    """Median milliseconds of `line`'s round trip, and its reply's length in lines."""
    times, reply = [], b""
    for _ in range(runs):
        t = time.perf_counter()
        reply = raw_cmd(c, line)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), reply.count(b"\n")


server = catalog.serve()
tmp = tempfile.mkdtemp()
state = os.path.join(tmp, "state")
os.makedirs(state)
library_file(os.path.join(state, "library.json"), N)
size = os.path.getsize(os.path.join(state, "library.json"))
sock = os.path.join(tmp, "socket")


def start():
    """previewd over `state`, its client, and the milliseconds until its socket answered."""
    t = time.perf_counter()
    d = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", sock, "--output", "null", "--state-dir", state,
                          "--api-base", f"http://127.0.0.1:{server.server_port}/api", "--log-level", "error"])
    while True:
        try:
            return d, Client(sock), (time.perf_counter() - t) * 1000
        except OSError:
            time.sleep(0.005)


d, c, ms = start()
if os.path.exists(os.path.join(state, "library.json.imported")):
    print(f"first start, importing library.json ({size / 1e6:.1f} MB): {ms:.0f} ms")
    c.close()
    d.terminate()
    d.wait()
    d, c, ms = start()
    db = os.path.join(state, "library.sqlite")
    print(f"{N} saved tracks, library.sqlite {os.path.getsize(db) / 1e6:.1f} MB; start-up until the socket answers: {ms:.0f} ms")
else:
    print(f"{N} saved tracks, library.json {size / 1e6:.1f} MB; start-up until the socket answers: {ms:.0f} ms")
ids = list(range(3135553, 3135567))
c.cmd("libraryadd deezer:track:3135553")  # warms the connection to the stand-in
c.cmd("libraryrm deezer:track:3135553")
adds, rms = [], []
for i in ids:
    c.cmd(f"lsinfo deezer:track:{i}")  # the catalog answer is cached: the add is the rewrite
    t = time.perf_counter()
    assert c.cmd(f"libraryadd deezer:track:{i}") == ["OK"]
    adds.append((time.perf_counter() - t) * 1000)
for i in ids:
    t = time.perf_counter()
    assert c.cmd(f"libraryrm deezer:track:{i}") == ["OK"]
    rms.append((time.perf_counter() - t) * 1000)
print(f"libraryadd (catalog answer cached): median {statistics.median(adds):.1f} ms, "
      f"max {max(adds):.1f} ms over {len(adds)}")
print(f"libraryrm: median {statistics.median(rms):.1f} ms, max {max(rms):.1f} ms")
# The newest entries were removed above; the oldest moves every other entry.
t = time.perf_counter()
assert c.cmd("libraryrm deezer:track:900000000") == ["OK"]
print(f"libraryrm of the oldest entry: {(time.perf_counter() - t) * 1000:.1f} ms")
print(f"status: median {timed(c, 'status', 200)[0]:.3f} ms")
print(f"stats (after a change, then kept): {timed(c, 'stats', 1)[0]:.2f} ms, then {timed(c, 'stats', 50)[0]:.3f} ms")
for line in ("listall", "listallinfo", "lsinfo deezer:library", "list album", "list albumartist"):
    ms, lines = timed(c, line, 10)
    print(f"{line}: median {ms:.1f} ms ({lines} lines)")
# The song list is rebuilt once after a change: the first listing pays for it.
c.cmd("libraryadd deezer:track:3135553")
ms, _ = timed(c, "listall", 1)
print(f"listall right after a change (song list rebuilt): {ms:.1f} ms")
c.close()
d.terminate()
d.wait()
server.shutdown()
