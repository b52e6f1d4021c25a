#!/usr/bin/python3
"""Soak run: 1,000 songs through the release previewd at --pace none, with
skips, seeks and failing songs mixed in, watching the daemon's resident
memory, open file descriptors and threads. A figure, never a pass/fail
(though it says whether the targets were met: RSS growth after warm-up
under 1 MiB, descriptors and threads as after the warm-up).

  contrib/bench/soak.py [BIN_DIR] [--songs N]
"""
import os
import socket
import subprocess
import tempfile
import time

import benchlib  # noqa: E402  (also puts the stand-in on the path)
import catalog  # noqa: E402

BIN, ARGS = benchlib.arguments(songs=1000)
SONGS = ARGS["songs"]


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.buf = b""
        while not self.buf.endswith(b"\n"):  # the greeting
            self.buf += self.sock.recv(65536)
        self.buf = b""

    def reply(self):
        while not (self.buf.endswith(b"OK\n") or b"\nACK " in b"\n" + self.buf):
            self.buf += self.sock.recv(65536)
        out, self.buf = self.buf, b""
        return out.decode()

    def cmd(self, line):
        self.sock.sendall(line.encode() + b"\n")
        return self.reply()

    def status(self):
        return dict(l.split(": ", 1) for l in self.cmd("status").splitlines() if ": " in l)


def usage(pid):
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f)
    return (int(fields["VmRSS"].split()[0]), len(os.listdir(f"/proc/{pid}/fd")), int(fields["Threads"]))


def main():
    server = catalog.serve()
    base = f"http://127.0.0.1:{server.server_port}"
    tmp = tempfile.mkdtemp(prefix="previewd-soak-")
    path = os.path.join(tmp, "socket")
    log = open(os.path.join(tmp, "log"), "w")
    proc = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", path, "--output", "null", "--pace", "none",
                             "--api-base", base + "/api", "--state-dir", tmp], stdout=log, stderr=subprocess.STDOUT)
    benchlib.wait_socket(path, proc)
    c = Client(path)
    start = usage(proc.pid)
    # A cycle of 10: eight corpus previews, a 404 and an album track that
    # gets skipped; every fifth cycle also seeks.
    cycle = [f"{base}/corpus/{n}" for n in catalog.PREVIEWS[:8]] + [f"{base}/nothing.mp3", "deezer:track:3135556"]
    played = 0
    warm = start
    samples = []
    t0 = time.time()
    while played < SONGS:
        c.cmd("clear")
        for uri in cycle:
            c.cmd(f'add "{uri}"')
        c.cmd("play")
        if (played // 10) % 5 == 0:
            c.cmd("seek 1 20")
        c.cmd("playid 10")  # the album track: skipped while it plays
        c.cmd("next")
        while c.status()["state"] != "stop":
            time.sleep(0.005)
        played += len(cycle)
        if played == 100:
            warm = usage(proc.pid)
        samples.append(usage(proc.pid))
    c.cmd("clear")
    time.sleep(1)
    end = usage(proc.pid)
    elapsed = time.time() - t0
    c.sock.close()
    proc.terminate()
    proc.wait()
    server.shutdown()
    peak = max(s[0] for s in samples)
    print(f"{played} songs in {elapsed:.1f} s (release build in {BIN})")
    print(f"  RSS: start {start[0] / 1024:.1f} MiB, after warm-up (100 songs) {warm[0] / 1024:.1f} MiB, "
          f"peak {peak / 1024:.1f} MiB, end {end[0] / 1024:.1f} MiB; growth after warm-up {(end[0] - warm[0]) / 1024:+.2f} MiB"
          f" ({'under' if end[0] - warm[0] < 1024 else 'OVER'} the 1 MiB target)")
    # Judged from the warm-up, like memory: by then the state file's writer
    # (a Dispatch worker started by the first save) exists.
    print(f"  file descriptors: start {start[1]}, after warm-up {warm[1]}, end {end[1]}; "
          f"threads: start {start[2]}, after warm-up {warm[2]}, end {end[2]}"
          f" ({'as after warm-up' if (end[1], end[2]) == (warm[1], warm[2]) else 'NOT as after warm-up'})")


main()
