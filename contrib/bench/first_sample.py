#!/usr/bin/python3
"""Cold `play` to the first sample with replay gain on and off: what the
wait for a song's measurement costs (issue 35). A figure, never a pass/fail.

Runs the release previewd (build it first: swift build -c release) against
the loopback catalog stand-in, which delays every response by --delay-ms
(default 100, a round trip to a CDN) and, in the last case, sends preview
bodies at --slow-rate bytes a second (default 40000, slower than the wait's
bound allows: the song starts with the fallback gain). Each run starts a
fresh daemon with a fresh state directory (nothing measured), queues one
catalog track and times `play`, which previewd answers once the first
samples reached the output (null output, real-time pace). The modes run
alternately, so the machine's noise falls on both.

  contrib/bench/first_sample.py [BIN_DIR] [--runs N] [--delay-ms MS] [--slow-rate BYTES]
"""
import os
import re
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

import benchlib  # noqa: E402  (also puts the stand-in on the path)
import catalog  # noqa: E402

BIN, ARGS = benchlib.arguments(runs=15, delay_ms=100, slow_rate=40000)
RUNS, DELAY_MS, SLOW_RATE = ARGS["runs"], ARGS["delay_ms"], ARGS["slow_rate"]
TRACKS = [t["id"] for t in catalog._load("album-302127-tracks.json")["data"]]


command = benchlib.command


def once(base, mode, track):
    """(ms from `play` sent to its OK, the replay_gain_source status shows then)."""
    tmp = tempfile.mkdtemp(prefix="previewd-first-")
    path = os.path.join(tmp, "socket")
    log = open(os.path.join(tmp, "log"), "w")
    proc = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", path, "--output", "null",
                             "--api-base", base + "/api", "--state-dir", tmp, "--prefetch", "0"],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        benchlib.wait_socket(path, proc)
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        s.recv(100)
        command(s, f"replay_gain_mode {mode}")
        command(s, f"add deezer:track:{track}")
        t0 = time.perf_counter()
        reply = command(s, "play")
        ms = (time.perf_counter() - t0) * 1000
        assert reply == "OK\n", reply
        source = re.search(r"replay_gain_source: (\w+)", command(s, "status"))
        s.close()
        return ms, source[1] if source else "-"
    finally:
        proc.terminate()
        proc.wait()


server = catalog.serve()
base = f"http://127.0.0.1:{server.server_port}"
print(f"cold play -> first sample, {RUNS} runs each, server delay {DELAY_MS} ms, release build in {BIN}")
for label, rate in [("full-speed previews", 0), (f"previews at {SLOW_RATE} B/s", SLOW_RATE)]:
    urllib.request.urlopen(f"{base}/_control/reset").read()
    urllib.request.urlopen(f"{base}/_control/delay?ms={DELAY_MS}").read()
    if rate:
        urllib.request.urlopen(f"{base}/_control/slow-preview?rate={rate}").read()
    times = {"off": [], "track": []}
    sources = {"off": set(), "track": set()}
    for i in range(RUNS):
        for mode in ("off", "track") if i % 2 == 0 else ("track", "off"):
            # A different track each run: no cache of the stand-in's or the daemon's helps.
            ms, source = once(base, mode, TRACKS[i % len(TRACKS)])
            times[mode].append(ms)
            sources[mode].add(source)
    for mode in ("off", "track"):
        t = sorted(times[mode])
        print(f"  {label}, replay_gain_mode {mode:5}: median {statistics.median(t):7.1f} ms, "
              f"p90 {t[int(len(t) * 0.9) - 1]:7.1f} ms, max {t[-1]:7.1f} ms; status source {sorted(sources[mode])}")
server.shutdown()
