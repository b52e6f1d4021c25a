#!/usr/bin/python3
"""A whole-tree walk as Cantata makes one at start-up (recursive `lsinfo`
from the root, into every `directory:`), on a fresh daemon with a saved
album and a wanted track, against the loopback catalog stand-in answering
with a Deezer-like latency. Prints, for the named tree (the root today) and
for the URI tree it replaced (a walk from the old root's `deezer:*`
directories, which still answer):

  - the Deezer API requests of the walk, the most in any 5 s (Deezer's
    quota is 50), its wall time and the songs it found;
  - `search artist "eminem N"` latency on a second connection, alone and
    while the walk runs (a search every 0.5 s of it), on fresh daemons.

    contrib/bench/treewalk.py [BIN_DIR] [--latency-ms 40] [--runs 5]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from urllib.request import urlopen

from benchlib import arguments, wait_socket

BIN, opts = arguments(latency_ms=40, runs=5)
import catalog  # noqa: E402  (on the path through benchlib)
from helpers import Client  # noqa: E402

OLD_ROOT = ["deezer:chart", "deezer:wantlist", "deezer:library", "deezer:genres", "deezer:picks",
            "deezer:releases", "deezer:radios", "deezer:now"]
server = catalog.serve()
HTTP = f"http://127.0.0.1:{server.server_port}"


def control(what):
    return json.load(urlopen(f"{HTTP}/_control/{what}"))


def start():
    state = tempfile.mkdtemp(prefix="treewalk-")
    sock = os.path.join(state, "socket")
    proc = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", sock, "--output", "null",
                             "--api-base", HTTP + "/api", "--state-dir", state], stderr=subprocess.DEVNULL)
    wait_socket(sock, proc)
    c = Client(sock, timeout=120)
    assert c.cmd("libraryadd deezer:album:302127")[-1] == "OK"
    assert c.cmd("wantadd deezer:track:3135556")[-1] == "OK"
    return proc, sock


def walk(c, paths):
    songs = 0
    todo = list(paths)
    while todo:
        path = todo.pop(0)
        quoted = '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'
        for line in c.cmd(f"lsinfo {quoted}" if path else "lsinfo"):
            # The URI tree reaches items the stand-in has no recorded body
            # for ("no data", as Deezer answers an id it lacks); the named
            # tree reaches none.
            assert not line.startswith("ACK") or ":" in path, (path, line)
            if line.startswith("directory: "):
                todo.append(line[len("directory: "):])
            elif line.startswith("file: "):
                songs += 1
    return songs


def busiest_5s(times):
    times = sorted(times)
    return max((sum(1 for u in times if t <= u < t + 5) for t in times), default=0)


SEARCHES = iter(range(10**9))


def search_ms(c):
    """One search no earlier one asked (the cache cannot answer it; the
    stand-in answers every query naming eminem with its recorded page)."""
    t = time.monotonic()
    assert c.cmd(f'search artist "eminem {next(SEARCHES)}"')[-1] == "OK"
    return (time.monotonic() - t) * 1000


def measure(name, roots):
    proc, sock = start()
    try:
        control(f"delay?ms={opts['latency_ms']}")
        before = control("count")
        t = time.monotonic()
        songs = walk(Client(sock, timeout=300), roots)
        wall = time.monotonic() - t
        after = control("count")
        times = after["api_times"][len(before["api_times"]):]
        print(f"{name}: walk {after['api_requests'] - before['api_requests']} API requests "
              f"(at most {busiest_5s(times)} in 5 s), {wall:.2f} s, {songs} songs")
    finally:
        proc.terminate()
        proc.wait()
    # Search latency: a fresh daemon each time, so neither run finds the
    # other's answers in the cache. During the walk, a search every 0.5 s
    # for as long as it lasts (at least one, at its start).
    alone, during = [], []
    for _ in range(opts["runs"]):
        proc, sock = start()
        alone.append(search_ms(Client(sock)))
        proc.terminate()
        proc.wait()
        proc, sock = start()
        walker = threading.Thread(target=walk, args=(Client(sock, timeout=300), roots))
        walker.start()
        searcher = Client(sock, timeout=300)
        while True:
            during.append(search_ms(searcher))
            if not walker.is_alive():
                break
            time.sleep(0.5)
        walker.join()
        proc.terminate()
        proc.wait()
    print(f"{name}: search {statistics.median(alone):.0f} ms alone (median of {len(alone)}), during the walk "
          f"{statistics.median(during):.0f} ms median, {max(during):.0f} ms at most ({len(during)} searches; "
          f"{opts['latency_ms']} ms per API answer)")


measure("named tree", [""])
measure("URI tree (before)", OLD_ROOT)
control("delay?ms=0")
server.shutdown()
