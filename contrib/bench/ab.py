#!/usr/bin/python3
"""Two builds of previewd side by side, A/B: the figures a refactoring must
not make worse, measured alternately so the machine's noise falls on both.
Prints the median and every sample; never fails on timing.

  contrib/bench/ab.py OLD_BIN_DIR NEW_BIN_DIR [--runs N]     (default --runs 5)

- status: the server's CPU per pipelined `status` reply (ns), 100,000
  replies a run (`compare.py`'s `status_server_cpu_ns_per_reply`).
- pulse: CPU per second of audio playing preview-01 through a private
  PulseAudio null sink, 10 s a run (`cpu_seconds_per_audio_second_pulse`).

For a figure the noise hides, count instructions instead (repeatable):
valgrind --tool=callgrind on each previewd while one client pipelines
20,000 `status` lines, then compare callgrind_annotate's totals.
"""
import os
import statistics
import sys
import tempfile
import time

import benchlib  # also puts the stand-in on the path

*builds, runs = benchlib.two_builds(__doc__, 5)
sys.argv = [sys.argv[0]]
import catalog  # noqa: E402
import compare  # noqa: E402


def main():
    server = catalog.serve()
    http = f"http://127.0.0.1:{server.server_port}"
    tmp = tempfile.mkdtemp()
    sides = {}
    for name, bin_dir in zip(["A", "B"], builds):
        compare.BIN = bin_dir
        sides[name] = compare.installed_copies(tempfile.mkdtemp())
    status = {"A": [], "B": []}
    pulse_cpu = {"A": [], "B": []}
    pulse, env = compare.start_pulse(tmp)
    for i in range(runs):
        for name in (["A", "B"] if i % 2 == 0 else ["B", "A"]):
            compare.BIN = sides[name]
            p, sock = compare.start_previewd(tmp, http)
            before = benchlib.thread_cpu_seconds(p.pid)
            compare.pipelined_status(sock)
            status[name].append((benchlib.thread_cpu_seconds(p.pid) - before) / 100_000 * 1e9)
            compare.stop(p)
            p, sock = compare.start_previewd(tmp, http, output="pulse", env=env)
            c = compare.Conn(sock)
            c.cmd(f'add "{http}/corpus/preview-01.mp3"')
            c.cmd("play")
            time.sleep(1)
            cpu0 = benchlib.thread_cpu_seconds(p.pid)
            time.sleep(10)
            pulse_cpu[name].append((benchlib.thread_cpu_seconds(p.pid) - cpu0) / 10 * 1e6)
            compare.stop(p)
    compare.stop(pulse)
    for label, figures, unit in [("status", status, "ns a reply"), ("pulse", pulse_cpu, "µs CPU a second of audio")]:
        for name, bin_dir in zip(["A", "B"], builds):
            v = figures[name]
            print(f"{label:7s} {name} {bin_dir}: median {statistics.median(v):.0f} {unit}  {[round(x) for x in v]}")


if __name__ == "__main__":
    main()
