#!/usr/bin/python3
"""What replay gain costs: previewd's CPU per second of audio while it plays
an album's previews with `replay_gain_mode off`, with `track` on songs not
measured yet (each is held, metered by the decode that plays it, and its
figure saved), with `track` on songs already measured (only the scale on
the PCM), and, in a fresh daemon, `track` on unmeasured songs with
`crossfade 3` (a fade's incoming song is held and metered as the fade
begins); and the wall time of decoding them all. The null output, paced
as fast as decoding allows, so the figure is the daemon's work alone.
Figures, not a test: nothing fails on them.

  contrib/bench/loudness.py [BIN_DIR] [--runs N]
"""
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import tempfile
import time

import benchlib  # noqa: E402  (also puts the stand-in on the path)
import catalog  # noqa: E402

BIN, ARGS = benchlib.arguments(runs=3)




def measured(db):
    """Rows in loudness.sqlite (0 before it exists)."""
    if not os.path.exists(db):
        return 0
    with sqlite3.connect(db) as c:
        return c.execute("SELECT count(*) FROM songs").fetchone()[0]


def send(f, line):
    f.write(line.encode() + b"\n")
    f.flush()
    out = []
    while True:
        l = f.readline().decode().rstrip("\n")
        out.append(l)
        if l == "OK" or l.startswith("ACK"):
            return out


def play_through(f):
    """Plays the queue from its start and waits for the end; seconds played."""
    send(f, "play 0")
    while "state: stop" not in send(f, "status"):
        time.sleep(0.02)


def daemon(http, tmp, tracks):
    """A fresh previewd (its own state) with `tracks` queued: the process and its connection."""
    state = tempfile.mkdtemp(dir=tmp)
    sock = os.path.join(state, "sock")
    p = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", sock, "--output", "null", "--pace", "none",
                          "--api-base", http + "/api", "--state-dir", state], stderr=subprocess.DEVNULL)
    benchlib.wait_socket(sock, p)
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    f = s.makefile("rwb")
    f.readline()
    for t in tracks:
        send(f, f"add deezer:track:{t}")
    return p, f, state


def one_run(http, tracks, tmp):
    p, f, state = daemon(http, tmp, tracks)
    figures = {}
    for name, mode in (("off", "off"), ("track, not measured", "track"), ("track, measured", "track")):
        send(f, f"replay_gain_mode {mode}")
        before = benchlib.thread_cpu_seconds(p.pid)
        started = time.perf_counter()
        play_through(f)
        figures[name + " wall"] = time.perf_counter() - started
        if name == "track, not measured":
            # The measurements run on an idle-priority thread; wait for them.
            deadline = time.time() + 30
            db = os.path.join(state, "loudness.sqlite")
            while time.time() < deadline and measured(db) < len(tracks):
                time.sleep(0.05)
        figures[name] = benchlib.thread_cpu_seconds(p.pid) - before
    p.terminate()
    p.wait()
    p, f, state = daemon(http, tmp, tracks)
    send(f, "crossfade 3")
    send(f, "replay_gain_mode track")
    for name in ("track, not measured, crossfade 3", "track, measured, crossfade 3"):
        before = benchlib.thread_cpu_seconds(p.pid)
        started = time.perf_counter()
        play_through(f)
        figures[name + " wall"] = time.perf_counter() - started
        figures[name] = benchlib.thread_cpu_seconds(p.pid) - before
    p.terminate()
    p.wait()
    return figures


def main():
    server = catalog.serve()
    http = f"http://127.0.0.1:{server.server_port}"
    tmp = tempfile.mkdtemp()
    with open(os.path.join(catalog.FIXTURES, "album-302127-tracks.json")) as fh:
        tracks = [t["id"] for t in json.load(fh)["data"]]
    audio_seconds = 30.0 * len(tracks)
    runs = [one_run(http, tracks, tmp) for _ in range(ARGS["runs"])]
    print(f"previewd CPU per second of audio, {len(tracks)} previews, null output, {ARGS['runs']} runs (median):")
    off = statistics.median(r["off"] for r in runs)
    off_wall = statistics.median(r["off wall"] for r in runs)
    for name in (n for n in runs[0] if not n.endswith(" wall")):
        ms = statistics.median(r[name] for r in runs) / audio_seconds * 1000
        wall = statistics.median(r[name + " wall"] for r in runs)
        print(f"  {name:33s} CPU {ms:6.3f} ms/s ({ms / (off / audio_seconds * 1000):.2f}x off), "
              f"decoding all {wall * 1000:6.1f} ms ({wall / off_wall:.2f}x off)")
    server.shutdown()


if __name__ == "__main__":
    main()
