"""What the benchmark scripts share: the checkout's root, the integration
tests' helpers on the import path (the loopback catalog stand-in), and the
command line `[BIN_DIR] [--NAME N ...]`."""
import os
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))


def arguments(**defaults):
    """(BIN_DIR, {name: int}) from sys.argv: `--runs 5` sets defaults["runs"],
    `--delay-ms 0` sets defaults["delay_ms"]; BIN_DIR defaults to the
    release build."""
    argv = sys.argv[1:]
    values = dict(defaults)
    for name in defaults:
        flag = "--" + name.replace("_", "-")
        if flag in argv:
            i = argv.index(flag)
            values[name] = int(argv[i + 1])
            del argv[i:i + 2]
    return (argv[0] if argv else os.path.join(ROOT, ".build", "release")), values


def two_builds(doc, runs):
    """(BEFORE_BIN_DIR, AFTER_BIN_DIR, runs) from `BEFORE AFTER [--runs N]`
    on the command line; exits with `doc` (the script's usage) otherwise."""
    argv = sys.argv[1:]
    if "--runs" in argv:
        i = argv.index("--runs")
        runs = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 2:
        sys.exit(doc)
    return argv[0], argv[1], runs


def wait_socket(path, proc):
    """Waits until a server accepts connections on Unix socket `path`
    (at most 5 s); raises if its process `proc` exits first."""
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
    raise RuntimeError(f"nothing listens on {path}")


def idle_previewd(bin_dir, work):
    """previewd from BIN_DIR on a fresh socket in WORK, null output, no
    catalog (an address nothing answers): (process, socket path). It may
    not be listening yet: `wait_socket` for that."""
    sock = os.path.join(work, f"socket{time.monotonic_ns()}")
    proc = subprocess.Popen([os.path.join(bin_dir, "previewd"), "--socket", sock, "--output", "null",
                             "--state-dir", os.path.join(work, "state"), "--api-base", "http://127.0.0.1:9/api"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc, sock


def rss_kb(pid, key="VmHWM"):
    """A memory figure of /proc/PID/status in KiB: VmHWM (peak) or VmRSS."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def run_usage(argv, env=None, runs=20):
    """(minor page faults, peak RSS in KiB) of a command: medians of RUNS
    runs under time(1), whose small parent leaves the command's own figures."""
    faults, rss = [], []
    for _ in range(runs):
        p = subprocess.run(["/usr/bin/time", "-f", "%R %M", *argv], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, check=True)
        f, m = p.stderr.split()[-2:]
        faults.append(int(f))
        rss.append(int(m))
    return statistics.median(faults), statistics.median(rss)


def command(sock, line):
    """Sends one protocol line on `sock` and returns the reply up to its
    `OK` or `ACK` line, as text."""
    sock.sendall(line.encode() + b"\n")
    buf = b""
    while not (buf.endswith(b"OK\n") or b"ACK " in buf):
        buf += sock.recv(65536)
    return buf.decode()


def thread_cpu_seconds(pid):
    """CPU time of the process's threads alive now, in seconds, to the
    nanosecond (schedstat), not in 10 ms clock ticks; a thread that ended
    is gone from the sum."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # a thread that just ended
    return total / 1e9
