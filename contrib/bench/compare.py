#!/usr/bin/python3
"""Side-by-side figures: previewd against mpd, mpg123 and mpc on this machine.
Builds nothing: run `swift build -c release` first (or pass a bin dir).
Starts everything on loopback (a corpus/catalog HTTP server, previewd, and
Debian's mpd with a null output), alternates the two sides for each
measurement, and prints medians and ratios; writes them to
bench-results.json. Never fails on timing: these are figures, not tests.

  contrib/bench/compare.py [BIN_DIR] [--runs N]
"""
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time

import benchlib  # noqa: E402  (also puts the stand-in on the path)
import catalog  # noqa: E402

BIN, ARGS = benchlib.arguments(runs=5)
RUNS = ARGS["runs"]
ROOT = benchlib.ROOT
PREVIEWS = sorted(f for f in os.listdir(catalog.CORPUS) if f.startswith("preview-"))


def wait_socket(path, proc):
    for _ in range(500):
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            s.close()
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("server exited")
            time.sleep(0.01)


def rss_kb(pid, key="VmHWM"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Conn:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(path)
        self.f = self.s.makefile("rwb")
        self.f.readline()

    def cmd(self, line):
        self.f.write(line.encode() + b"\n")
        self.f.flush()
        out = []
        while True:
            l = self.f.readline().decode().rstrip("\n")
            out.append(l)
            if l == "OK" or l.startswith("ACK"):
                return out


def start_previewd(tmp, http, output="null", pace="realtime"):
    sock = os.path.join(tmp, "previewd.sock")
    out = f"wav:{tmp}/out.wav" if output == "wav" else output
    p = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", sock, "--output", out, "--pace", pace,
                          "--api-base", http + "/api", "--state-dir", os.path.join(tmp, "pstate")],
                         stderr=subprocess.DEVNULL)
    wait_socket(sock, p)
    return p, sock


def start_mpd(tmp):
    root = os.path.join(tmp, "mpd")
    os.makedirs(os.path.join(root, "music"), exist_ok=True)
    sock = os.path.join(root, "socket")
    with open(os.path.join(root, "mpd.conf"), "w") as f:
        f.write(f'music_directory "{root}/music"\ndb_file "{root}/db"\nlog_file "{root}/log"\n'
                f'bind_to_address "{sock}"\naudio_output {{\n type "null"\n name "null"\n mixer_type "software"\n}}\n')
    p = subprocess.Popen(["mpd", "--no-daemon", os.path.join(root, "mpd.conf")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_socket(sock, p)
    return p, sock


def stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    server = catalog.serve()
    http = f"http://127.0.0.1:{server.server_port}"
    tmp = tempfile.mkdtemp()
    results = {}

    # 1. Decode throughput: the nine previews to WAV as fast as possible vs mpg123 -s.
    audio_seconds = sum(int(catalog_rate[0]) / int(catalog_rate[1]) for catalog_rate in
                        [(line.split("\t")[8], line.split("\t")[4]) for line in open(os.path.join(catalog.CORPUS, "manifest.tsv"))
                         if line.startswith("preview-")])
    ours, theirs = [], []
    for _ in range(RUNS):
        def run_previewd():
            d, sock = start_previewd(tmp, http, output="wav", pace="none")
            c = Conn(sock)
            c.cmd("command_list_begin\n" + "\n".join(f'add "{http}/corpus/{n}"' for n in PREVIEWS) + "\ncommand_list_end")
            c.cmd("play")
            while "state: stop" not in c.cmd("status"):
                time.sleep(0.005)
            stop(d)
        ours.append(timed(run_previewd))
        theirs.append(timed(lambda: [subprocess.run(["mpg123", "-q", "-s", os.path.join(catalog.CORPUS, n)],
                                                    stdout=subprocess.DEVNULL) for n in PREVIEWS]))
    results["decode_throughput_x_realtime"] = {"previewd": audio_seconds / statistics.median(ours),
                                               "mpg123": audio_seconds / statistics.median(theirs)}

    # 2. Playing in real time for 10 s: CPU and peak RSS, previewd vs mpd, same http URL.
    for name, start in [("previewd", lambda: start_previewd(tmp, http)), ("mpd", lambda: start_mpd(tmp))]:
        p, sock = start()
        c = Conn(sock)
        c.cmd(f'add "{http}/corpus/preview-01.mp3"')
        c.cmd("play")
        time.sleep(1)
        cpu0 = cpu_seconds(p.pid)
        time.sleep(10)
        results.setdefault("cpu_seconds_per_audio_second", {})[name] = (cpu_seconds(p.pid) - cpu0) / 10
        results.setdefault("peak_rss_kib_playing", {})[name] = rss_kb(p.pid)
        stop(p)

    # 3. Client wall time and pipelined status round trips against each server.
    pd, psock = start_previewd(tmp, http)
    md, msock = start_mpd(tmp)
    walls = {"previewctl status": [], "mpc status (previewd)": [], "mpc status (mpd)": []}
    for _ in range(RUNS * 20):
        walls["previewctl status"].append(timed(lambda: subprocess.run(
            [os.path.join(BIN, "previewctl"), "--socket", psock, "status"], stdout=subprocess.DEVNULL)))
        walls["mpc status (previewd)"].append(timed(lambda: subprocess.run(
            ["mpc", "status"], env=dict(os.environ, MPD_HOST=psock), stdout=subprocess.DEVNULL)))
        walls["mpc status (mpd)"].append(timed(lambda: subprocess.run(
            ["mpc", "status"], env=dict(os.environ, MPD_HOST=msock), stdout=subprocess.DEVNULL)))
    results["client_wall_ms"] = {k: statistics.median(v) * 1000 for k, v in walls.items()}
    for name, sock in [("previewd", psock), ("mpd", msock)]:
        c = Conn(sock)
        n = 20000
        t = time.perf_counter()
        c.f.write(b"status\n" * n)
        c.f.flush()
        done = 0
        while done < n:
            if c.f.readline() == b"OK\n":
                done += 1
        results.setdefault("status_round_trips_per_second", {})[name] = n / (time.perf_counter() - t)
    stop(pd)
    stop(md)
    server.shutdown()

    width = max(len(k) for k in results)
    for key, sides in results.items():
        cells = "   ".join(f"{side}: {value:,.3f}" for side, value in sides.items())
        values = list(sides.values())
        ratio = f"   ratio {values[0] / values[1]:.2f}" if len(values) == 2 and values[1] else ""
        print(f"{key:<{width}}   {cells}{ratio}")
    with open("bench-results.json", "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
