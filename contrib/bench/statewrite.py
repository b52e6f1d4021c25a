#!/usr/bin/python3
"""Cost of one state write with a 10,000-song queue (release build):
previewd logs each save's duration at debug level: the first writes the
queue's rows into queue.sqlite, the next five (after a volume change each)
only state.json. Prints figures only."""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release")
tmp = tempfile.mkdtemp()
sock = os.path.join(tmp, "s")
log = open(os.path.join(tmp, "log"), "w+")
d = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", sock, "--output", "null", "--state-dir", tmp,
                      "--log-level", "debug", "--api-base", "http://127.0.0.1:9"], stderr=log)
while not os.path.exists(sock):
    time.sleep(0.01)
s = socket.socket(socket.AF_UNIX)
s.connect(sock)
f = s.makefile("rwb")
f.readline()
body = "".join(f'addid "http://127.0.0.1:9/song-{i}.mp3"\n' for i in range(10000))
f.write(("command_list_begin\n" + body + "command_list_end\n").encode())
f.flush()
while f.readline().strip() != b"OK":
    pass
for i in range(5):  # five more writes, each after a change
    time.sleep(1.1)
    f.write(f"setvol {50 + i}\n".encode())
    f.flush()
    f.readline()
time.sleep(1.2)
d.terminate()
d.wait()
log.seek(0)
# The first save writes the queue's 10,000 rows; each later one state.json alone.
times = [int(m) for m in re.findall(r"state saved: 10000 songs, .* in (\d+) ms", log.read())]
size = os.path.getsize(os.path.join(tmp, "state.json"))
rows = os.path.getsize(os.path.join(tmp, "queue.sqlite"))
print(f"state write, 10,000-song queue: {times} ms (first: the queue's rows; median {sorted(times)[len(times) // 2]} ms), "
      f"state.json {size} bytes, queue.sqlite {rows // 1024} KiB")
