#!/usr/bin/env python3
"""What linking the Swift runtime in costs: two builds of the same tree side
by side, BEFORE (`swift build -c release`: the runtime from the toolchain's
shared libraries, found through RUNPATH) and AFTER (contrib/build-release:
--static-swift-stdlib, no RUNPATH).

    contrib/bench/linking.py BEFORE_BIN_DIR AFTER_BIN_DIR [--runs N]

Per program: bytes on disk, and stripped (as the package installs them);
start-up, the median wall time of N runs (default 50, alternating the two
builds) of `previewd --version` and `previewweb --version`, and of previewd
from exec to its first `status` answer; resident memory (VmRSS) of an idle
previewd and previewweb after start-up; and `previewctl status`'s page
faults and peak RSS (getrusage of a child of /usr/bin/time).
"""
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time

from benchlib import idle_previewd, rss_kb, run_usage, two_builds, wait_socket

PROGRAMS = ("previewd", "previewctl", "previewweb")


def sizes(bin_dir, work):
    """{program: (bytes, stripped bytes)}."""
    out = {}
    for p in PROGRAMS:
        path = os.path.join(bin_dir, p)
        copy = os.path.join(work, p + ".stripped")
        shutil.copy(path, copy)
        subprocess.run(["strip", copy], check=True)
        out[p] = (os.path.getsize(path), os.path.getsize(copy))
    return out



def to_first_status(bin_dir, work):
    """Seconds from exec to previewd's first `status` answer."""
    start = time.perf_counter()
    proc, sock = idle_previewd(bin_dir, work)
    try:
        while True:
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(sock)
                break
            except OSError:
                s.close()
                time.sleep(0.0005)
        s.recv(64)
        s.sendall(b"status\n")
        buf = b""
        while not buf.endswith(b"OK\n"):
            buf += s.recv(4096)
        elapsed = time.perf_counter() - start
        s.close()
        return elapsed
    finally:
        proc.terminate()
        proc.wait()



def idle_rss(bin_dir, work):
    """(previewd's, previewweb's) VmRSS in KiB, idle, one second after start."""
    proc, sock = idle_previewd(bin_dir, work)
    web = None
    try:
        wait_socket(sock, proc)
        web = subprocess.Popen([os.path.join(bin_dir, "previewweb"), "--socket", sock, "--listen", "127.0.0.1:0",
                                "--cache-dir", os.path.join(work, "covers")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        return rss_kb(proc.pid, "VmRSS"), rss_kb(web.pid, "VmRSS")
    finally:
        for p in (web, proc):
            if p:
                p.terminate()
                p.wait()


def ctl_usage(bin_dir, work):
    """(minor page faults, peak RSS KiB) of `previewctl status`, median of 20."""
    proc, sock = idle_previewd(bin_dir, work)
    try:
        wait_socket(sock, proc)
        return run_usage([os.path.join(bin_dir, "previewctl"), "--socket", sock, "status"])
    finally:
        proc.terminate()
        proc.wait()


def wall(argv):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    before, after, runs = two_builds(__doc__, 50)
    builds = {"before": before, "after": after}
    with tempfile.TemporaryDirectory() as work:
        rows = {name: {} for name in builds}
        for name, d in builds.items():
            rows[name]["size"] = sizes(d, work)
        times = {name: {"previewd --version": [], "previewweb --version": [], "previewd to first status": []}
                 for name in builds}
        for _ in range(runs):
            for name, d in builds.items():
                times[name]["previewd --version"].append(wall([os.path.join(d, "previewd"), "--version"]))
                times[name]["previewweb --version"].append(wall([os.path.join(d, "previewweb"), "--version"]))
                times[name]["previewd to first status"].append(to_first_status(d, work))
        for name, d in builds.items():
            rows[name]["rss"] = idle_rss(d, work)
            rows[name]["ctl"] = ctl_usage(d, work)
        for name in builds:
            print(f"== {name} ({builds[name]})")
            for p, (size, stripped) in rows[name]["size"].items():
                print(f"  {p}: {size / 1e6:.1f} MB, stripped {stripped / 1e6:.1f} MB")
            for what, v in times[name].items():
                print(f"  {what}: {statistics.median(v) * 1000:.2f} ms")
            d_rss, w_rss = rows[name]["rss"]
            print(f"  idle RSS: previewd {d_rss / 1024:.1f} MB, previewweb {w_rss / 1024:.1f} MB")
            faults, rss = rows[name]["ctl"]
            print(f"  previewctl status: {faults:.0f} page faults, {rss / 1024:.1f} MB peak RSS")


if __name__ == "__main__":
    main()
