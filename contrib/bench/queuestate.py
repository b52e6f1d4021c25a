#!/usr/bin/python3
"""The queue's state on disk, against issue 32's figures (release build):
bytes previewd writes in 10 s while a 200,000-song queue plays, bytes one
`add` costs on that queue, and how long a 1,000,000-song queue takes to
start (exec to the first `status` reply that shows it). Bytes are the
daemon's write(2) total (/proc/PID/io `wchar`), replies to this script
included (a few hundred bytes). Prints figures only.

    contrib/bench/queuestate.py [BIN_DIR] [--songs-large N]
"""
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
BIN = args[0] if args else os.path.join(ROOT, ".build", "release")
LARGE = int(sys.argv[sys.argv.index("--songs-large") + 1]) if "--songs-large" in sys.argv else 1_000_000
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "mp3"))
# Every queued URL is one corpus preview on a loopback server, so the queue plays.
server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "0"], cwd=CORPUS,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
PORT = int(server.stdout.readline().split("port ")[1].split()[0])


class Daemon:
    def __init__(self, state):
        self.sock = os.path.join(state, "socket")
        self.log = open(os.path.join(state, "log"), "a")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [os.path.join(BIN, "previewd"), "--socket", self.sock, "--output", "null", "--pace", "realtime",
             "--state-dir", state, "--log-level", "debug", "--max-command-list", "65536",
             "--api-base", "http://127.0.0.1:9"], stderr=self.log)
        while True:
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(self.sock)
                break
            except OSError:
                time.sleep(0.005)
        self.f = s.makefile("rwb")
        self.f.readline()

    def cmd(self, line):
        self.f.write((line + "\n").encode())
        self.f.flush()
        out = []
        while True:
            got = self.f.readline().decode().rstrip("\n")
            if got == "OK" or got.startswith("ACK"):
                return out + [got]
            out.append(got)

    def wchar(self):
        with open(f"/proc/{self.proc.pid}/io") as f:
            return int(next(line for line in f if line.startswith("wchar:")).split()[1])

    def fill(self, n):
        batch = 50_000
        for start in range(0, n, batch):
            body = "".join(f'addid "http://127.0.0.1:{PORT}/preview-01.mp3?n={i}"\n'
                           for i in range(start, min(n, start + batch)))
            self.f.write(("command_list_begin\n" + body + "command_list_end\n").encode())
            self.f.flush()
            while self.f.readline().strip() != b"OK":
                pass

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def playing_and_add(n):
    state = tempfile.mkdtemp(prefix="previewd-queuestate-")
    d = Daemon(state)
    d.fill(n)
    d.cmd("play 0")
    time.sleep(2.5)  # the fill's own save
    before = d.wchar()
    time.sleep(10)
    ten = d.wchar() - before
    before = d.wchar()
    d.cmd(f'addid "http://127.0.0.1:{PORT}/preview-02.mp3"')
    time.sleep(2.5)
    one = d.wchar() - before
    d.stop()
    return ten, one


def start_time(n):
    state = tempfile.mkdtemp(prefix="previewd-queuestate-")
    d = Daemon(state)
    d.fill(n)
    d.stop()
    d = Daemon(state)
    while True:
        st = d.cmd("status")
        if f"playlistlength: {n}" in st:
            break
        time.sleep(0.01)
    seconds = time.monotonic() - d.started
    d.stop()
    return seconds


ten, one = playing_and_add(200_000)
print(f"200,000-song queue: {ten} bytes written in 10 s (issue 32: at most 1 MiB); one add: {one} bytes (at most 1 MiB)")
print(f"{LARGE:,}-song queue: start to its first status in {start_time(LARGE):.2f} s (issue 32: at most 5 s)")
server.terminate()
