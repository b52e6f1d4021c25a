#!/usr/bin/python3
"""Command-to-first-sample for `next`, with prefetch on and off, and the
daemon's peak memory in each mode. A figure, never a pass/fail.

Runs the release previewd (build it first: swift build -c release) against
the loopback catalog stand-in, which delays every response by --delay-ms
(default 100, a typical round trip to a CDN). The album 302127 is queued
and played to the null output at real-time pace; then `next` is sent --runs
times, a second and a half apart. The time is from sending `next` to its
OK, which previewd sends once the new song's first samples reached the
output; the daemon's own log line gives the same interval from inside.

  contrib/bench/next.py [BIN_DIR] [--runs N] [--delay-ms MS]
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

BIN, ARGS = benchlib.arguments(runs=10, delay_ms=100)
RUNS, DELAY_MS = ARGS["runs"], ARGS["delay_ms"]


command = benchlib.command


def peak_rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))


def run(prefetch):
    base = f"http://127.0.0.1:{server.server_port}"
    urllib.request.urlopen(base + "/_control/reset").read()
    tmp = tempfile.mkdtemp(prefix="previewd-next-")
    path = os.path.join(tmp, "socket")
    log = open(os.path.join(tmp, "log"), "w+")
    proc = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", path, "--output", "null",
                             "--api-base", base + "/api", "--state-dir", tmp, "--log-level", "debug",
                             "--prefetch", str(prefetch)], stdout=log, stderr=subprocess.STDOUT)
    try:
        benchlib.wait_socket(path, proc)
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        s.recv(100)
        command(s, "add deezer:album:302127")
        command(s, "play")
        urllib.request.urlopen(f"{base}/_control/delay?ms={DELAY_MS}").read()
        time.sleep(1.5)
        times = []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            reply = command(s, "next")
            times.append((time.perf_counter() - t0) * 1000)
            assert reply == "OK\n", reply
            time.sleep(1.5)
        peak = peak_rss_kb(proc.pid)
        s.close()
    finally:
        proc.terminate()
        proc.wait()
    log.seek(0)
    inside = [int(m[1]) for m in re.finditer(r"first audio of song \d+ at the output after (\d+) ms", log.read())]
    return times, inside[1:], peak


server = catalog.serve()
print(f"next -> first sample, {RUNS} runs, server delay {DELAY_MS} ms, release build in {BIN}")
for prefetch in (2, 0):
    times, inside, peak = run(prefetch)
    print(f"  --prefetch {prefetch}: median {statistics.median(times):7.2f} ms, max {max(times):7.2f} ms"
          f" (daemon's own count: median {statistics.median(inside)} ms); peak RSS {peak / 1024:.1f} MiB")
server.shutdown()
