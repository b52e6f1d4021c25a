#!/usr/bin/python3
"""First figures for the first slice, measured side by side on this machine:
  - play -> first sample at the output (previewd's own log line, null output
    paced in real time, loopback catalog: resolve + fetch + decode + write);
  - previewd's RSS while playing (VmRSS and VmHWM from /proc);
  - `previewctl status` vs `mpc status` wall time against the same daemon,
    alternating, median of N runs.
Prints figures; never fails on timing. Usage: contrib/bench/slice.py [BIN_DIR]
(default: .build/release; build with `swift build -c release` first)."""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from urllib.request import urlopen

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
import catalog  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release")
RUNS = 100


def rss(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            fields[k] = v.strip()
    return fields["VmRSS"], fields["VmHWM"]


def wall(cmd, env):
    t = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t) * 1000


def main():
    server = catalog.serve()
    base = f"http://127.0.0.1:{server.server_port}"
    tmp = tempfile.mkdtemp()
    sock = os.path.join(tmp, "socket")
    log = open(os.path.join(tmp, "log"), "w+")
    d = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", sock, "--output", "null",
                          "--api-base", base + "/api", "--state-dir", tmp, "--log-level", "debug"],
                         stderr=log)
    while not os.path.exists(sock):
        time.sleep(0.01)
    env = dict(os.environ, PREVIEWD_SOCKET=sock, MPD_HOST=sock)
    ctl = [os.path.join(BIN, "previewctl")]
    latencies = []
    try:
        def first_audio(songs):
            for pos in songs:
                subprocess.run(ctl + ["play", str(pos)], env=env, check=True, stdout=subprocess.DEVNULL)
                time.sleep(0.5)
            log.seek(0)
            found = [int(m) for m in re.findall(r"first audio of song \d+ at the output after (\d+) ms", log.read())]
            log.seek(0)
            log.truncate()
            return found
        # Warm: preview URLs known from the album listing (fetch + decode).
        subprocess.run(ctl + ["add", "deezer:album:302127"], env=env, check=True)
        warm = first_audio(range(1, 8))
        # Cold: URLs about to expire, so each play resolves /track/ID first.
        urlopen(base + "/_control/expiry?seconds=30").read()
        subprocess.run(ctl + ["clear"], env=env, check=True)
        subprocess.run(ctl + ["add", "deezer:album:302127"], env=env, check=True)
        latencies = first_audio(range(1, 8))
        resolved = sum(1 for p in json.load(urlopen(base + "/_control/log")) if p.startswith("/api/track/"))
        assert resolved >= 7, "cold plays did not resolve their preview URLs"
        print(f"play -> first sample, URL known (fetch + decode), ms: {warm} median {statistics.median(warm)}")
        time.sleep(1)
        now, peak = rss(d.pid)
        ours, theirs = [], []
        for _ in range(RUNS):
            ours.append(wall(ctl + ["status"], env))
            theirs.append(wall(["mpc", "status"], env))
        print(f"play -> first sample (cold: resolve + fetch + decode), ms: {latencies} "
              f"median {statistics.median(latencies) if latencies else 'n/a'}")
        print(f"previewd RSS while playing: {now} (peak {peak})")
        mo, mt = statistics.median(ours), statistics.median(theirs)
        print(f"previewctl status: median {mo:.2f} ms; mpc status: median {mt:.2f} ms; ratio {mo / mt:.2f}x ({RUNS} runs each, alternating)")
    finally:
        d.terminate()
        d.wait()
        server.shutdown()


if __name__ == "__main__":
    main()
