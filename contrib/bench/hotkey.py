#!/usr/bin/env python3
"""The hotkey path: `previewctl status` against `mpc status`, both talking
to one idle previewd, in alternating pairs (issue 47 asks previewctl to take
at most 1.0x mpc's median wall time).

    contrib/bench/hotkey.py [BIN_DIR] [--pairs N] [--rounds R]

BIN_DIR defaults to the release build (.build/release; contrib/build-release
makes it). Prints, per round of N pairs (default 200 pairs, 3 rounds), each
command's median wall time (fork to exit, as a hotkey daemon waits for it)
and the ratio; then the median page faults and peak RSS of 20 runs of each
(as /usr/bin/time reports them: a small parent, so the figures are the
command's own) and previewctl's size. Exits 1 when a round's ratio is
above 1.0.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import arguments, idle_previewd, run_usage, wait_socket


def run(argv, env):
    """Wall seconds of one run, fork to exit."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start




def main():
    bin_dir, opts = arguments(pairs=200, rounds=3)
    ctl = os.path.join(bin_dir, "previewctl")
    with tempfile.TemporaryDirectory() as work:
        daemon, sock = idle_previewd(bin_dir, work)
        try:
            wait_socket(sock, daemon)
            env = dict(os.environ, MPD_HOST=sock)
            commands = {"previewctl status": [ctl, "--socket", sock, "status"], "mpc status": ["mpc", "status"]}
            for c in commands.values():  # warm the page cache and the daemon
                run(c, env)
            worst = 0.0
            for r in range(opts["rounds"]):
                walls = {name: [] for name in commands}
                for _ in range(opts["pairs"]):
                    for name, argv in commands.items():
                        walls[name].append(run(argv, env))
                medians = {name: statistics.median(v) * 1000 for name, v in walls.items()}
                ratio = medians["previewctl status"] / medians["mpc status"]
                worst = max(worst, ratio)
                print(f"round {r + 1}: previewctl status {medians['previewctl status']:.3f} ms, "
                      f"mpc status {medians['mpc status']:.3f} ms, ratio {ratio:.3f}")
            for name, argv in commands.items():
                faults, rss = run_usage(argv, env)
                print(f"{name}: {faults:.0f} page faults, {rss / 1024:.1f} MB peak RSS")
            print(f"previewctl: {os.path.getsize(ctl) / 1e6:.1f} MB on disk")
        finally:
            daemon.terminate()
            daemon.wait()
    sys.exit(0 if worst <= 1.0 else 1)


if __name__ == "__main__":
    main()
