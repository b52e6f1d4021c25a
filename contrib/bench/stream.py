#!/usr/bin/python3
"""The HTTP stream's figures (issue 43), previewd against Debian's mpd 0.23
on the same songs, everything on loopback:

  1. CPU per second of audio with the stream output and one MP3 listener
     reading throughout, no listener (encoder off), one FLAC listener:
     previewd `--output null --output http:127.0.0.1:P --pace realtime`
     against mpd with a null output (mixer none) and an `httpd` output
     (`encoder "lame"`, `bitrate "128"`, CBR; or `encoder "flac"`), both
     converting to 44.1 kHz stereo (mpd: `audio_output_format
     "44100:16:2"`, soxr "high", as previewd's libsoxr; with the format
     on the httpd output alone, mpd with a listener stalled 4.4 s at the
     switch to the 48 kHz preview). CPU is utime+stime of the daemon
     (/proc/PID/stat, all its threads, dead ones too) from `play` to the
     end of the queue, over the audio seconds played (in brackets: the
     same from schedstat, to the nanosecond, of the threads alive from
     `play` to the last second of the queue);
  2. `play` to the first encoded byte at a listener: previewd's listener
     connected before `play`; and, for both daemons, a listener that
     connects from `play` on (mpd accepts a listener only while its
     output is open, i.e. playing), median of --tries;
  3. the same songs with --listeners MP3 listeners (default 50; previewd
     is started with `--stream-listeners` that many): CPU per audio second,
     VmRSS (highest seen) and VmHWM, and the cost of each listener past
     the first, as % of one core;
  4. previewd only: one MP3 listener stops reading for --stall seconds
     (default 60) while a second one reads: the second one's largest gap
     between arrivals and its rate, the null output's `elapsed` against
     the wall clock, and when the stalled one is dropped.

Each run starts a fresh daemon. The queue is the nine corpus previews
(44.1 kHz CBR and VBR, 48 kHz, 22.05 kHz mono) as http URLs from the
stand-in, each played for --song-seconds (default 3; `rangeid 0:S`), in
real time; then LAME alone (the lame CLI) at previewd's quality 5 and at
LAME's default 3, which mpd's lame encoder keeps (it sets no quality for
a CBR bitrate). It takes about five and a half minutes. Figures, never
pass/fail.

  contrib/bench/stream.py [BIN_DIR] [--song-seconds S] [--tries N] [--listeners N] [--stall S]
"""
import datetime
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import benchlib  # noqa: E402  (also puts the stand-in on the path)
import catalog  # noqa: E402
from helpers import Client, free_port  # noqa: E402

BIN, ARGS = benchlib.arguments(song_seconds=3, tries=10, listeners=50, stall=60)
SONG_SECONDS, TRIES, LISTENERS, STALL = ARGS["song_seconds"], ARGS["tries"], ARGS["listeners"], ARGS["stall"]
PREVIEWS = sorted(f for f in os.listdir(catalog.CORPUS) if f.startswith("preview-"))
TICK = os.sysconf("SC_CLK_TCK")
MP3_RATE = 16000  # bytes a second of CBR 128 kbit/s
STARTED = []  # every process this script started, killed at the end


# ---- the daemon process, from /proc

def cpu_seconds(pid):
    """utime + stime of the whole process (its threads, those that ended
    too), in seconds (clock ticks)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK




def memory_kib(pid):
    """(VmRSS, VmHWM, threads) of the process."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Threads"):
                out[key] = int(value.split()[0])
    return out["VmRSS"], out["VmHWM"], out["Threads"]


def stop_process(p):
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


# ---- the two daemons

class Previewd:
    name = "previewd"

    def __init__(self, tmp, http, binary):
        self.dir = tempfile.mkdtemp(prefix="previewd-", dir=tmp)
        self.port = free_port()
        self.sock = os.path.join(self.dir, "socket")
        self.log_path = os.path.join(self.dir, "log")
        with open(self.log_path, "w") as log:
            self.p = subprocess.Popen([binary, "--socket", self.sock, "--output", "null",
                                       "--output", f"http:127.0.0.1:{self.port}", "--pace", "realtime",
                                       "--stream-listeners", str(max(LISTENERS, 16)),
                                       "--api-base", http + "/api", "--state-dir", os.path.join(self.dir, "state"),
                                       "--no-mpris"], stdout=subprocess.DEVNULL, stderr=log)
        STARTED.append(self.p)
        benchlib.wait_socket(self.sock, self.p)
        for _ in range(500):
            if "HTTP stream on" in self.log():
                break
            time.sleep(0.01)
        self.c = Client(self.sock, timeout=30)

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def close(self):
        stop_process(self.p)


class Mpd:
    name = "mpd"

    def __init__(self, tmp, encoder="lame"):
        self.dir = tempfile.mkdtemp(prefix="mpd-", dir=tmp)
        self.port = free_port()
        self.sock = os.path.join(self.dir, "socket")
        self.log_path = os.path.join(self.dir, "log")
        os.makedirs(os.path.join(self.dir, "music"))
        encoding = 'encoder "lame"\n bitrate "128"' if encoder == "lame" else 'encoder "flac"\n compression "5"'
        with open(os.path.join(self.dir, "mpd.conf"), "w") as f:
            f.write(f'music_directory "{self.dir}/music"\ndb_file "{self.dir}/db"\nlog_file "{self.log_path}"\n'
                    f'bind_to_address "{self.sock}"\nzeroconf_enabled "no"\n'
                    'audio_output_format "44100:16:2"\n' 'resampler {\n plugin "soxr"\n quality "high"\n}\n'
                    'audio_output {\n type "null"\n name "null"\n mixer_type "none"\n}\n'
                    f'audio_output {{\n type "httpd"\n name "httpd"\n {encoding}\n format "44100:16:2"\n'
                    f' bind_to_address "127.0.0.1"\n port "{self.port}"\n max_clients "0"\n mixer_type "none"\n}}\n')
        self.p = subprocess.Popen(["mpd", "--no-daemon", os.path.join(self.dir, "mpd.conf")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        STARTED.append(self.p)
        benchlib.wait_socket(self.sock, self.p)
        self.c = Client(self.sock, timeout=30)

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def close(self):
        stop_process(self.p)


def queue(daemon, urls, seconds=None):
    """Queues `urls`, each for its first `seconds` (rangeid) if given."""
    for url in urls:
        reply = daemon.c.cmd(f'addid "{url}"')
        assert reply[-1] == "OK", reply
        if seconds:
            song = reply[0].split(": ")[1]
            assert daemon.c.cmd(f"rangeid {song} 0:{seconds}") == ["OK"]


def status(daemon):
    return dict(line.split(": ", 1) for line in daemon.c.cmd("status")[:-1])


# ---- listeners

class Listener:
    """One HTTP client of a stream on a thread of its own: sends its GET
    (HTTP/1.0, so the body is the stream as is), records when each chunk
    arrives, and stops reading while `reading` is clear. With `retry_until`
    it connects again until a response comes (mpd accepts listeners only
    while its output is open)."""

    def __init__(self, port, path="/stream.mp3", retry_until=None, save=False, rcvbuf=None):
        self.port, self.path, self.retry_until, self.rcvbuf = port, path, retry_until, rcvbuf
        self.status = None  # the HTTP status code, or "refused"/"closed"
        self.first = None  # when the first body byte came
        self.arrivals = []  # (time, bytes)
        self.bytes = 0
        self.body = bytearray() if save else None
        self.end = None  # when the stream ended (EOF, or reset)
        self.ending = None
        self.reading = threading.Event()
        self.reading.set()
        self.sock = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _connect(self):
        while True:
            s = socket.socket()
            if self.rcvbuf:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.rcvbuf)
            try:
                s.connect(("127.0.0.1", self.port))
                s.sendall(f"GET {self.path} HTTP/1.0\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = s.recv(65536)
                    if not chunk:
                        raise EOFError
                    head += chunk
                return s, head, time.perf_counter()
            except (OSError, EOFError) as e:
                s.close()
                if self.retry_until is None or time.perf_counter() > self.retry_until:
                    self.status = "refused" if isinstance(e, ConnectionRefusedError) else "closed"
                    return None, None, None
                time.sleep(0.002)

    def _run(self):
        s, head, t = self._connect()
        if s is None:
            return
        self.sock = s
        head, _, rest = head.partition(b"\r\n\r\n")
        self.status = int(head.split(b" ")[1])
        if self.status != 200:
            s.close()
            return
        if rest:
            self._got(t, rest)
        while True:
            self.reading.wait()
            try:
                chunk = s.recv(65536)
            except OSError as e:
                self.end, self.ending = time.perf_counter(), type(e).__name__
                break
            if not chunk:
                self.end, self.ending = time.perf_counter(), "EOF"
                break
            self._got(time.perf_counter(), chunk)
        s.close()

    def _got(self, t, chunk):
        if self.first is None:
            self.first = t
        self.arrivals.append((t, len(chunk)))
        self.bytes += len(chunk)
        if self.body is not None:
            self.body += chunk

    def close(self):
        if self.sock:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.reading.set()
        self.thread.join(5)

    def largest_gap(self, start=None, stop=None):
        times = [t for t, _ in self.arrivals if (start is None or t >= start) and (stop is None or t <= stop)]
        return max((b - a for a, b in zip(times, times[1:])), default=float("nan"))


def decoded_seconds(data, tmp, name):
    """Seconds of audio ffmpeg decodes from a stream's bytes, and its error lines."""
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    r = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "s16le", "-ac", "2", "-ar", "44100", "-"],
                       capture_output=True)
    return len(r.stdout) / 176400, [l for l in r.stderr.decode(errors="replace").splitlines() if l.strip()]


# ---- 1 and 3: the queue played with 0, 1 or many listeners

def program(daemon, urls, listeners=0, path="/stream.mp3", save=False):
    """Plays the nine previews, SONG_SECONDS each, with `listeners`
    listeners on `path`; returns the figures of the run."""
    audio = SONG_SECONDS * len(urls)
    queue(daemon, urls, SONG_SECONDS)
    group = []
    if daemon.name == "previewd":  # listening before play
        group = [Listener(daemon.port, path, save=save and i == 0) for i in range(listeners)]
        for _ in range(300):
            if all(l.status is not None for l in group) and len(group) == listeners:
                break
            time.sleep(0.01)
        time.sleep(0.2)
    cpu0, sched0 = cpu_seconds(daemon.p.pid), benchlib.thread_cpu_seconds(daemon.p.pid)
    t0 = time.perf_counter()
    daemon.c.cmd("play 0")
    if daemon.name == "mpd":  # its output is open from now on
        group = [Listener(daemon.port, path, retry_until=time.perf_counter() + 5, save=save and i == 0)
                 for i in range(listeners)]
    rss_peak, window = 0, None
    while (st := status(daemon))["state"] != "stop":
        rss_peak = max(rss_peak, memory_kib(daemon.p.pid)[0])
        # Near the end, every thread still there: the precise reading.
        if window is None and int(st.get("song", 0)) == len(urls) - 1 and float(st.get("elapsed", 0)) >= SONG_SECONDS - 1:
            window = (benchlib.thread_cpu_seconds(daemon.p.pid) - sched0,
                      (len(urls) - 1) * SONG_SECONDS + float(st["elapsed"]))
        time.sleep(0.1)
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(daemon.p.pid) - cpu0
    rss, hwm, _ = memory_kib(daemon.p.pid)
    for l in group:
        l.thread.join(5)
        l.close()
    accepted = [l for l in group if l.status == 200]
    outcome = {}
    for l in group:
        outcome[str(l.status)] = outcome.get(str(l.status), 0) + 1
    gaps = [(l.largest_gap(), l) for l in accepted if len(l.arrivals) > 1]
    worst = max(gaps, key=lambda g: g[0], default=(float("nan"), None))
    where = None
    if worst[1]:
        times = [t for t, _ in worst[1].arrivals]
        k = max(range(1, len(times)), key=lambda i: times[i] - times[i - 1])
        where = PREVIEWS[min(len(urls) - 1, int(((times[k] + times[k - 1]) / 2 - t0) // SONG_SECONDS))]
    result = {"cpu": cpu, "audio": audio, "wall": wall, "cpu_per_s": cpu / audio, "rss": max(rss, rss_peak),
              "hwm": hwm, "accepted": len(accepted), "outcome": outcome,
              "sched_per_s": window[0] / window[1] if window else float("nan"),
              "gap": worst[0], "gap_where": where,
              "bytes": [l.bytes for l in accepted]}
    if save and accepted and accepted[0].body is not None:
        result["decoded"], result["decode_errors"] = decoded_seconds(bytes(accepted[0].body), daemon.dir,
                                                                     "got" + path.replace("/stream", ""))
    return result


# ---- 2: play to the first encoded byte

def first_byte(daemon, urls, connected_before):
    """`play` to the first body byte at a listener, ms; TRIES tries, each
    a different preview, the daemon stopped in between."""
    queue(daemon, urls)
    samples = []
    for i in range(TRIES):
        if connected_before:
            l = Listener(daemon.port)
            time.sleep(0.3)  # the request read and the listener joined
        daemon.c.send(f"play {i % len(urls)}\n")
        t0 = time.perf_counter()
        if not connected_before:
            l = Listener(daemon.port, retry_until=t0 + 5)
        for _ in range(5000):
            if l.first is not None or (l.status is not None and l.status != 200):
                break
            time.sleep(0.001)
        daemon.c.reply()
        samples.append((l.first - t0) * 1000 if l.first else float("nan"))
        daemon.c.cmd("stop")
        l.close()
        time.sleep(0.2)
    return samples


# ---- 4: one listener stalls

def stall(tmp, http, binary, urls):
    """previewd: listener A reads 5 s, stops reading for STALL s, reads
    again; listener B reads throughout. Ten seconds of each preview."""
    d = Previewd(tmp, http, binary)
    try:
        per_song = 10
        queue(d, urls, per_song)
        # A small receive buffer, as a phone's: the kernel holds only
        # ~128 KiB for it (loopback's autotuning would otherwise grow to MBs).
        a = Listener(d.port, rcvbuf=65536)
        b = Listener(d.port)
        time.sleep(0.3)
        d.c.cmd("play 0")
        t0 = time.perf_counter()
        samples = []  # (wall, audio position)
        stall_from = stall_to = dropped = None
        while True:
            now = time.perf_counter() - t0
            st = status(d)
            if st["state"] == "stop":
                break
            song = int(st.get("song", 0))
            samples.append((time.perf_counter(), song * per_song + float(st.get("elapsed", 0))))
            if stall_from is None and now >= 5:
                a.reading.clear()
                stall_from = time.perf_counter()
            if stall_from and stall_to is None and time.perf_counter() - stall_from >= STALL:
                a.reading.set()
                stall_to = time.perf_counter()
            if dropped is None and "dropped" in d.log():
                dropped = time.perf_counter()
            if stall_to and time.perf_counter() - stall_to >= 5:
                break
            time.sleep(0.1)
        d.c.cmd("stop")
        rate_during = sum(n for t, n in b.arrivals if stall_from <= t <= stall_to) / (stall_to - stall_from)
        # Slowest second at B during the stall (bytes in each whole second).
        seconds = [0] * int(stall_to - stall_from)
        for t, n in b.arrivals:
            k = int(t - stall_from)
            if 0 <= k < len(seconds):
                seconds[k] += n
        # elapsed: the longest wall time it did not move, and how far it
        # fell behind the wall clock over the run.
        still, longest, lag = samples[0], 0.0, 0.0
        for (t, pos) in samples[1:]:
            if pos > still[1]:
                still = (t, pos)
            longest = max(longest, t - still[0])
        (w0, p0), (w1, p1) = samples[0], samples[-1]
        lag = (w1 - w0) - (p1 - p0)
        a.close()
        b.close()
        log = [line for line in d.log().splitlines() if re.search(r"drop|error|fail|warn|refus", line, re.I)]
        return {"b_gap": b.largest_gap(), "b_gap_stall": b.largest_gap(stall_from, stall_to),
                "b_rate": rate_during, "b_min_second": min(seconds) if seconds else 0,
                "elapsed_still": longest, "elapsed_behind": lag, "wall": w1 - w0,
                "dropped_after": (dropped - stall_from) if dropped else None,
                "a_end_after": (a.end - stall_from) if a.end else None, "a_ending": a.ending,
                "a_bytes": a.bytes, "log": log,
                # What B had and A never got when A was dropped: A's lag then.
                "a_lag_bytes": (sum(n for t, n in b.arrivals if t <= dropped) - a.bytes) if dropped else None}
    finally:
        d.close()


# ---- LAME alone, quality 5 (previewd) against LAME's default 3 (mpd sets none)

def lame_alone(tmp):
    wav = os.path.join(tmp, "lame-in.wav")
    names = [n for n in PREVIEWS if "48k" not in n and "mono" not in n]
    subprocess.run(["ffmpeg", "-v", "error", "-y"] + [a for n in names for a in ("-i", os.path.join(catalog.CORPUS, n))]
                   + ["-filter_complex", "".join(f"[{i}:a]" for i in range(len(names))) + f"concat=n={len(names)}:v=0:a=1",
                      "-ar", "44100", "-ac", "2", wav], check=True)
    seconds = (os.path.getsize(wav) - 44) / 176400
    out = {5: [], 3: []}
    for _ in range(2):  # alternated; the least of each (the machine is shared)
        for q in (5, 3):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(["lame", "--silent", "--cbr", "-b", "128", "-m", "j", "-q", str(q), wav, os.devnull], check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            out[q].append(((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) / seconds)
    out = {q: min(v) for q, v in out.items()}
    return out


# ---- versions

def versions(binary):
    def run(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            return "?"
    swift = "/opt/swift/usr/bin/swift" if os.path.exists("/opt/swift/usr/bin/swift") else "swift"
    libs = run(["dpkg-query", "-W", "-f", "${Package} ${Version}, ", "libmp3lame0", "libflac12", "libmicrohttpd12",
                "libmpg123-0", "libsoxr0"]).rstrip(", ")
    head = run(["git", "-C", benchlib.ROOT, "log", "-1", "--format=%h %cs"])
    return {"previewd": f"{run([binary, '--version'])} (release build in {BIN}; the checkout at run time: {head})",
            "swift": run([swift, "--version"]), "mpd": run(["mpd", "--version"]), "libraries": libs,
            "cpu": run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"]) + f", {os.cpu_count()} cores"}


def fmt_ms(x):
    return f"{x * 1000:.2f} ms"


def main():
    started = time.time()
    server = catalog.serve()
    http = f"http://127.0.0.1:{server.server_port}"
    tmp = tempfile.mkdtemp(prefix="bench-stream-")
    # A copy of the binary, as compare.py runs it (a file the linker just
    # wrote runs slower while its pages fault in).
    binary = os.path.join(tmp, "previewd")
    shutil.copyfile(os.path.join(BIN, "previewd"), binary)
    os.chmod(binary, 0o755)
    urls = [f"{http}/corpus/{n}" for n in PREVIEWS]
    info = versions(binary)
    for k, v in info.items():
        print(f"{k}: {v}")
    print(f"queue: {len(urls)} previews x {SONG_SECONDS} s = {len(urls) * SONG_SECONDS} s of audio a run, real time",
          flush=True)
    runs = {}
    try:
        # 1 and 3, the two daemons alternated, a fresh one each run.
        for label, n, path in [("no listener", 0, "/stream.mp3"), ("1 MP3 listener", 1, "/stream.mp3"),
                               ("1 FLAC listener", 1, "/stream.flac"), (f"{LISTENERS} MP3 listeners", LISTENERS, "/stream.mp3")]:
            for make in (lambda: Previewd(tmp, http, binary),
                         lambda: Mpd(tmp, "flac" if path.endswith("flac") else "lame")):
                d = make()
                try:
                    r = program(d, urls, n, path, save=(n == 1))
                    r["log"] = [l for l in d.log().splitlines()
                                if re.search(r"drop|error|fail|warn|refus|exception", l, re.I)]
                finally:
                    d.close()
                runs[(label, d.name)] = r
                print(f"  {label}, {d.name}: {fmt_ms(r['cpu_per_s'])} CPU per audio second "
                      f"({r['cpu']:.2f} s over {r['audio']} s, wall {r['wall']:.1f} s), VmRSS {r['rss'] / 1024:.1f} MiB, "
                      f"VmHWM {r['hwm'] / 1024:.1f} MiB, listeners {r['outcome']}, bytes {sorted(r['bytes'])[:1]}..,"
                      f" largest gap {r['gap']:.2f} s (in {r['gap_where']}), schedstat {fmt_ms(r['sched_per_s'])}/s"
                      + (f", decoded {r['decoded']:.2f} s, {len(r['decode_errors'])} decoder errors" if "decoded" in r else ""),
                      flush=True)
                for line in r["log"][:5]:
                    print(f"    log: {line}")

        # 2. play to the first byte.
        firsts = {}
        for name, make, before in [("previewd, listener connected before play", lambda: Previewd(tmp, http, binary), True),
                                   ("previewd, listener connecting from play on", lambda: Previewd(tmp, http, binary), False),
                                   ("mpd, listener connecting from play on", lambda: Mpd(tmp), False)]:
            d = make()
            try:
                firsts[name] = first_byte(d, urls, before)
            finally:
                d.close()
            print(f"  play -> first byte, {name}: median {statistics.median(firsts[name]):.1f} ms "
                  f"({', '.join(f'{x:.0f}' for x in firsts[name])})", flush=True)

        # 4. A stalled listener.
        s = stall(tmp, http, binary, urls)
        print(f"  stall: {s}", flush=True)

        lame = lame_alone(tmp)
    finally:
        for p in STARTED:
            stop_process(p)
        server.shutdown()

    # ---- the table
    def row(*cells):
        print("| " + " | ".join(cells) + " |")

    def cpu(label, name):
        return runs[(label, name)]["cpu_per_s"]

    def both(r):
        """The CPU figure: /proc/PID/stat over the run (schedstat to the last second)."""
        return f"{fmt_ms(r['cpu_per_s'])} ({r['sched_per_s'] * 1000:.2f})"

    many = f"{LISTENERS} MP3 listeners"
    print()
    print(f"{datetime.date.today()}, {info['cpu']}; previewd {info['previewd']}; {info['mpd']}; {info['libraries']}")
    print(f"`contrib/bench/stream.py {' '.join(sys.argv[1:])}`: {len(urls)} previews x {SONG_SECONDS} s a run, "
          f"real time. CPU = utime+stime (/proc/PID/stat, 10 ms ticks) from play to the end of the queue, over "
          f"the audio seconds; in brackets the same from schedstat (ns, the threads alive) from play to the last second")
    print()
    row("figure", "previewd", "mpd 0.23", "ratio", "target")
    row("---", "---", "---", "---", "---")
    for label, target in [("1 MP3 listener", "≤ 1.0"), ("no listener", ""), ("1 FLAC listener", "")]:
        p, m = runs[(label, "previewd")], runs[(label, "mpd")]
        row(f"CPU per second of audio, {label}", both(p), both(m), f"{p['cpu_per_s'] / m['cpu_per_s']:.2f}", target)
    p, m = runs[(many, "previewd")], runs[(many, "mpd")]
    refused = ", ".join(f"{n} {k}" for k, n in p["outcome"].items() if k != "200")
    row(f"CPU per second of audio, {LISTENERS} MP3 listeners asked (accepted: previewd {p['accepted']}"
        + (f", refused {refused}" if refused else "") + f"; mpd {m['accepted']})", both(p), both(m), f"{p['cpu_per_s'] / m['cpu_per_s']:.2f}", "")
    per = {}
    for name in ("previewd", "mpd"):
        r1, rn = runs[("1 MP3 listener", name)], runs[(many, name)]
        n = max(rn["accepted"] - 1, 1)
        per[name] = f"{(rn['cpu_per_s'] - r1['cpu_per_s']) / n * 100:.3f} % ({(rn['sched_per_s'] - r1['sched_per_s']) / n * 100:.3f} %)"
        per[name + "hwm"] = f"{(rn['hwm'] - r1['hwm']) / n:.0f} KiB"
    row("each listener past the first: CPU, % of one core", per["previewd"], per["mpd"], "", "≤ 1 %")
    for label in ("no listener", "1 MP3 listener", many):
        p, m = runs[(label, "previewd")], runs[(label, "mpd")]
        row(f"VmRSS (highest seen) / VmHWM, {label}", f"{p['rss'] / 1024:.1f} / {p['hwm'] / 1024:.1f} MiB",
            f"{m['rss'] / 1024:.1f} / {m['hwm'] / 1024:.1f} MiB", f"{p['hwm'] / m['hwm']:.2f}", "")
    row("each listener past the first: VmHWM", per["previewdhwm"], per["mpdhwm"], "", "")
    p, m = runs[("1 MP3 listener", "previewd")], runs[("1 MP3 listener", "mpd")]
    row("largest gap between arrivals at a listener, whole queue", f"{p['gap']:.2f} s (in {p['gap_where']})",
        f"{m['gap']:.2f} s", "", "≤ 1 s")
    pb, pa, ma = (statistics.median(firsts[k]) for k in firsts)
    row("play → first MP3 byte, listener connected before play (median)", f"{pb:.1f} ms", "(mpd refuses listeners while stopped)",
        "", "≤ 300 ms")
    row("play → first MP3 byte, listener connecting from play on (median)", f"{pa:.1f} ms", f"{ma:.1f} ms",
        f"{pa / ma:.2f}", "")
    row(f"one listener stalled {STALL} s: largest gap at another listener (during the stall / whole run)",
        f"{s['b_gap_stall']:.2f} / {s['b_gap']:.2f} s", "", "", "≤ 1 s")
    row("  its rate during the stall (slowest whole second)", f"{s['b_rate']:.0f} B/s ({s['b_min_second']} B)", "", "", "16,000 B/s")
    row("  null output's elapsed: longest still (polled every 0.1 s) / behind the wall clock over the run",
        f"{s['elapsed_still']:.2f} s / {s['elapsed_behind']:.2f} s over {s['wall']:.0f} s", "", "", "no gap")
    drop = f"{s['dropped_after']:.1f} s into the stall" if s["dropped_after"] is not None else "not dropped"
    if s["a_lag_bytes"] is not None:
        drop += f", {s['a_lag_bytes']:,} bytes ({s['a_lag_bytes'] / MP3_RATE:.1f} s) behind the other listener"
    row("  the stalled listener dropped (previewd's log, polled every 0.1 s)", drop, "", "", "dropped")
    row("LAME alone (lame 3.100 CLI), CPU per second of audio, -q 5 (previewd) / -q 3 (LAME's default, mpd's)",
        fmt_ms(lame[5]), fmt_ms(lame[3]), f"{lame[5] / lame[3]:.2f}", "")
    print()
    for name, samples in firsts.items():
        print(f"play -> first byte, {name}, by preview: "
              + ", ".join(f"{PREVIEWS[i % len(PREVIEWS)][8:-4]} {x:.0f} ms" for i, x in enumerate(samples)))
    print(f"stalled listener: {s['a_bytes']} bytes read in all, its stream ended {s['a_ending']} "
          f"{s['a_end_after']:.1f} s after the stall began" if s["a_end_after"] is not None else "stalled listener: no end seen")
    for line in s["log"]:
        print(f"previewd log: {line}")
    for (label, name), r in runs.items():
        if "decoded" in r:
            print(f"{label}, {name}: the first listener's stream decodes to {r['decoded']:.2f} s "
                  f"(played {r['audio']} s), {len(r['decode_errors'])} decoder messages"
                  + (f": {r['decode_errors'][:3]}" if r["decode_errors"] else ""))
    print(f"\nthe bench took {time.time() - started:.0f} s")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
