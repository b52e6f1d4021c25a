#!/usr/bin/python3
"""Side-by-side figures: previewd against mpd, mpg123 and mpc on this machine.
Builds nothing: run `swift build -c release` first (or pass a bin dir).
Starts everything on loopback (a corpus/catalog HTTP server, previewd, and
Debian's mpd with a null output), alternates the two sides for each
measurement, and prints medians and ratios; writes them to
.build/bench-results.json. Never fails on timing: these are figures, not tests.

  contrib/bench/compare.py [BIN_DIR] [--runs N]
"""
import json
import re
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from urllib.request import urlopen

import benchlib  # noqa: E402  (also puts the stand-in on the path)
import catalog  # noqa: E402
import loudness  # noqa: E402  (its runs give the replay-gain rows)

BIN, ARGS = benchlib.arguments(runs=5)
RUNS = ARGS["runs"]
STATUS_PAIRS = 200
ROOT = benchlib.ROOT
PREVIEWS = sorted(f for f in os.listdir(catalog.CORPUS) if f.startswith("preview-"))




class Conn:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(path)
        self.f = self.s.makefile("rwb")
        self.f.readline()

    def bulk(self, text):
        """Sends `text`, reads the raw reply up to its final OK (or an ACK)
        without parsing lines: for big replies, so that the figure is the
        server's time, not this client's."""
        self.f.write(text.encode() + b"\n")
        self.f.flush()
        chunks, tail = [], b"\n"
        while not (tail.endswith(b"\nOK\n") or b"\nACK " in tail):
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise EOFError("connection closed")
            chunks.append(chunk)
            tail = (tail + chunk)[-200:]
        return b"".join(chunks)

    def cmd(self, line):
        self.f.write(line.encode() + b"\n")
        self.f.flush()
        out = []
        while True:
            l = self.f.readline().decode().rstrip("\n")
            out.append(l)
            if l == "OK" or l.startswith("ACK"):
                return out


def start_previewd(tmp, http, output="null", pace="realtime", env=None):
    sock = os.path.join(tmp, "previewd.sock")
    out = f"wav:{tmp}/out.wav" if output == "wav" else output
    shutil.rmtree(os.path.join(tmp, "pstate"), ignore_errors=True)  # no restored queue
    p = subprocess.Popen([os.path.join(BIN, "previewd"), "--socket", sock, "--output", out, "--pace", pace,
                          "--api-base", http + "/api", "--state-dir", os.path.join(tmp, "pstate"),
                          "--max-command-list", "65536", "--max-clients", "300"],
                         stderr=subprocess.DEVNULL, env=env)
    benchlib.wait_socket(sock, p)
    return p, sock


def start_mpd(tmp, fifo=None, pulse=None, music=None):
    """Debian's mpd on a Unix socket with a null output (or a fifo output
    at `fifo`), lists and queues large enough for the 100,000-song figures;
    its music directory is empty unless `music` names one (with a database
    of its own, built before this returns)."""
    root = os.path.join(tmp, "mpd")
    os.makedirs(os.path.join(root, "music"), exist_ok=True)
    sock = os.path.join(root, "socket")
    db = os.path.join(root, "db-music" if music else "db")
    output = (f'audio_output {{\n type "fifo"\n name "fifo"\n path "{fifo}"\n format "44100:16:2"\n}}\n' if fifo
              else f'audio_output {{\n type "pulse"\n name "pulse"\n server "{pulse}"\n}}\n' if pulse
              else 'audio_output {\n type "null"\n name "null"\n mixer_type "software"\n}\n')
    with open(os.path.join(root, "mpd.conf"), "w") as f:
        f.write(f'music_directory "{music or root + "/music"}"\ndb_file "{db}"\nlog_file "{root}/log"\n'
                f'bind_to_address "{sock}"\nmax_command_list_size "65536"\nmax_playlist_length "200000"\n'
                f'max_connections "300"\n'
                f'max_output_buffer_size "262144"\n{output}')
    p = subprocess.Popen(["mpd", "--no-daemon", os.path.join(root, "mpd.conf")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    benchlib.wait_socket(sock, p)
    if music:
        c = Conn(sock)
        c.cmd("update")
        while any(line.startswith("updating_db") for line in c.cmd("status")):
            time.sleep(0.05)
    return p, sock


def tagged_album(tmp):
    """A music directory for mpd holding album 302127's 14 tracks as the
    fixtures describe them (the tags previewd lists for those catalog
    songs), each a copy of a corpus preview with ID3v2.4 tags written by
    ffmpeg. Returns (directory, the songs' paths inside it)."""
    music = os.path.join(tmp, "tagged")
    album = json.load(open(os.path.join(catalog.FIXTURES, "album-302127.json")))
    tracks = json.load(open(os.path.join(catalog.FIXTURES, "album-302127-tracks.json")))["data"]
    os.makedirs(music, exist_ok=True)
    songs = []
    for i, t in enumerate(tracks):
        name = f"{t['disk_number']}-{t['track_position']:02d}.mp3"
        tags = {"artist": t["artist"]["name"], "title": t["title"], "album": album["title"],
                "album_artist": album["artist"]["name"], "track": str(t["track_position"]),
                "disc": str(t["disk_number"]), "date": album["release_date"],
                "genre": album["genres"]["data"][0]["name"], "publisher": album["label"]}
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", os.path.join(catalog.CORPUS, PREVIEWS[i % len(PREVIEWS)]),
                        "-c", "copy", "-map_metadata", "-1"] + [a for k, v in tags.items() for a in ("-metadata", f"{k}={v}")]
                       + [os.path.join(music, name)], check=True)
        songs.append(name)
    return music, songs


def start_pulse(tmp):
    """A private headless PulseAudio server with a null sink (as the tests
    run it); returns (process, environment for its clients)."""
    runtime = os.path.join(tmp, "pulse")
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    sock = os.path.join(runtime, "native")
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, PULSE_SERVER=f"unix:{sock}", HOME=tmp)
    p = subprocess.Popen(["pulseaudio", "--daemonize=no", "-n", "--exit-idle-time=-1", "--disallow-exit",
                          "--load=module-null-sink sink_name=bench norewinds=1 rate=44100 channels=2",
                          f"--load=module-native-protocol-unix socket={sock} auth-anonymous=1"],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
            break
        time.sleep(0.05)
    return p, env


def stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()


def context_switches(pid):
    """Voluntary and involuntary context switches of each of the process's
    threads, by thread id."""
    counts = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                counts[task] = sum(int(line.split()[1]) for line in f if "ctxt_switches" in line)
        except OSError:
            pass
    return counts


def wakeups(before, after):
    """Context switches between two `context_switches` readings: a thread
    that ended meanwhile is left out, one that started counts from 0."""
    return sum(n - before.get(task, 0) for task, n in after.items())


def pipelined_status(sock, n=100_000):
    """`status` replies per second over one connection, requests pipelined.
    Replies are counted in place (recv_into, no copies) so that this client
    keeps up with either server."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    s.recv(100)
    sender = threading.Thread(target=lambda: s.sendall(b"status\n" * n))
    buf = bytearray(1 << 20)
    view = memoryview(buf)
    t = time.perf_counter()
    sender.start()
    got, tail = 0, b""
    while got < n:
        k = s.recv_into(buf)
        got += buf.count(b"\nOK\n", 0, k)
        # A terminator split between two reads.
        got += (tail + bytes(view[:min(k, 3)])).count(b"\nOK\n")
        tail = bytes(view[max(0, k - 3):k])
    elapsed = time.perf_counter() - t
    sender.join()
    s.close()
    return n / elapsed


def read_first_byte(path):
    """Opens a fifo for reading; the time its first byte arrives."""
    with open(path, "rb", buffering=0) as f:
        f.read(1)
        return time.perf_counter()


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def installed_copies(tmp):
    """previewd and previewctl copied into `tmp/bin`, as contrib/install
    writes them (and as dpkg wrote mpd and mpc): the same bytes, but on
    this machine (ext4) a file the linker just wrote runs slower than a
    copy of it, while its pages fault in: 0.2 ms more for each previewctl
    run, and the first decode runs 10-25 % slower. Returns the directory."""
    copies = os.path.join(tmp, "bin")
    os.makedirs(copies, exist_ok=True)
    for name in ("previewd", "previewctl"):
        shutil.copyfile(os.path.join(BIN, name), os.path.join(copies, name))
        os.chmod(os.path.join(copies, name), 0o755)
    return copies


def main():
    global BIN
    server = catalog.serve()
    http = f"http://127.0.0.1:{server.server_port}"
    tmp = tempfile.mkdtemp()
    BIN = installed_copies(tmp)
    results = {}

    # 1. Decode throughput: the nine previews to WAV as fast as possible vs mpg123 -s.
    audio_seconds = sum(int(catalog_rate[0]) / int(catalog_rate[1]) for catalog_rate in
                        [(line.split("\t")[8], line.split("\t")[4]) for line in open(os.path.join(catalog.CORPUS, "manifest.tsv"))
                         if line.startswith("preview-")])
    # previewd's time runs from `play` to the end of the last song (the
    # daemon already started, as it is in use); mpg123's includes starting
    # each of its nine processes. Both fetch the previews over HTTP.
    ours, theirs = [], []
    for _ in range(RUNS):
        d, sock = start_previewd(tmp, http, output="wav", pace="none")
        c = Conn(sock)
        c.cmd("command_list_begin\n" + "\n".join(f'add "{http}/corpus/{n}"' for n in PREVIEWS) + "\ncommand_list_end")

        def run_previewd():
            c.cmd("play")
            while "state: stop" not in c.cmd("status"):
                time.sleep(0.0005)
        ours.append(timed(run_previewd))
        stop(d)
        # mpg123 fetches the same URLs from the same server (it speaks HTTP)
        # and, like previewd's WAV output, writes WAV files into the same
        # directory: writing 47 MB is a third of the work, so /dev/null
        # would compare decoding with decoding plus writing.
        theirs.append(timed(lambda: [subprocess.run(["mpg123", "-q", "-w", os.path.join(tmp, f"mpg123-{i}.wav"),
                                                     f"{http}/corpus/{n}"], stdout=subprocess.DEVNULL)
                                     for i, n in enumerate(PREVIEWS)]))
    results["decode_throughput_x_realtime"] = {"previewd": audio_seconds / statistics.median(ours),
                                               "mpg123": audio_seconds / statistics.median(theirs)}

    # 2. Playing in real time for 10 s: CPU and peak RSS, previewd vs mpd,
    # same http URL; with the null output, then through a PulseAudio null
    # sink (a private server).
    def playing(suffix, sides):
        for name, start in sides:
            p, sock = start()
            c = Conn(sock)
            c.cmd(f'add "{http}/corpus/preview-01.mp3"')
            c.cmd("play")
            time.sleep(1)
            cpu0 = benchlib.thread_cpu_seconds(p.pid)
            time.sleep(10)
            results.setdefault("cpu_seconds_per_audio_second" + suffix, {})[name] = (benchlib.thread_cpu_seconds(p.pid) - cpu0) / 10
            results.setdefault("peak_rss_kib_playing" + suffix, {})[name] = benchlib.rss_kb(p.pid)
            stop(p)
    playing("", [("previewd", lambda: start_previewd(tmp, http)), ("mpd", lambda: start_mpd(tmp))])
    pulse, env = start_pulse(tmp)
    playing("_pulse", [("previewd", lambda: start_previewd(tmp, http, output="pulse", env=env)),
                       ("mpd", lambda: start_mpd(tmp, pulse=env["PULSE_SERVER"]))])
    stop(pulse)

    # 2b. Wake-ups while paused: context switches of all threads over 10 s,
    # a song paused 2 s into it (the same URL on both sides). previewd
    # writes its state at most once a second: a pause within a second of
    # the last write (here that of `play`, itself right after `add`) is
    # written up to a second later, one wake-up that belongs to the pause.
    for name, start in [("previewd", lambda: start_previewd(tmp, http)), ("mpd", lambda: start_mpd(tmp))]:
        p, sock = start()
        c = Conn(sock)
        c.cmd(f'add "{http}/corpus/preview-01.mp3"')
        c.cmd("play")
        time.sleep(2)
        c.cmd("pause")
        time.sleep(1)
        before = context_switches(p.pid)
        time.sleep(10)
        results.setdefault("wakeups_per_second_paused", {})[name] = wakeups(before, context_switches(p.pid)) / 10
        stop(p)

    # 2c. `play` until `status` first shows `elapsed` > 0 (the song already
    # queued, the same URL on both sides; previewd answers `play` once the
    # first samples are out).
    for name, start in [("previewd", lambda: start_previewd(tmp, http)), ("mpd", lambda: start_mpd(tmp))]:
        samples = []
        for _ in range(RUNS):
            p, sock = start()
            c = Conn(sock)
            c.cmd(f'add "{http}/corpus/preview-01.mp3"')
            t = time.perf_counter()
            c.cmd("play")
            while not re.search(r"elapsed: (?!0\.000)", "\n".join(c.cmd("status"))):
                pass
            samples.append(time.perf_counter() - t)
            stop(p)
        results.setdefault("play_to_elapsed_ms", {})[name] = statistics.median(samples) * 1000

    # 3. Client wall time and pipelined status round trips against each server.
    pd, psock = start_previewd(tmp, http)
    md, msock = start_mpd(tmp)
    ctl = os.path.join(BIN, "previewctl")
    walls = {"previewctl status": [], "mpc status (previewd)": [], "mpc status (mpd)": []}
    # 200 alternating pairs (each previewctl run next to an mpc run against
    # the same daemon), the medians compared: a hotkey's figure.
    for _ in range(STATUS_PAIRS):
        walls["previewctl status"].append(timed(lambda: subprocess.run(
            [ctl, "--socket", psock, "status"], stdout=subprocess.DEVNULL)))
        walls["mpc status (previewd)"].append(timed(lambda: subprocess.run(
            ["mpc", "status"], env=dict(os.environ, MPD_HOST=psock), stdout=subprocess.DEVNULL)))
        walls["mpc status (mpd)"].append(timed(lambda: subprocess.run(
            ["mpc", "status"], env=dict(os.environ, MPD_HOST=msock), stdout=subprocess.DEVNULL)))
    results["client_wall_ms"] = {k: statistics.median(v) * 1000 for k, v in walls.items()}
    # Replies are counted in bulk (not parsed line by line), so the client
    # is not what is measured.
    # The server's CPU time per reply too: at these rates the Python client
    # is what waits, so the rate says less of the server than its CPU does.
    for name, proc, sock in [("previewd", pd, psock), ("mpd", md, msock)]:
        rates, cpu = [], []
        for _ in range(RUNS):
            before = benchlib.thread_cpu_seconds(proc.pid)
            rates.append(pipelined_status(sock))
            cpu.append((benchlib.thread_cpu_seconds(proc.pid) - before) / 100_000 * 1e9)
        results.setdefault("status_round_trips_per_second", {})[name] = statistics.median(rates)
        results.setdefault("status_server_cpu_ns_per_reply", {})[name] = statistics.median(cpu)
    stop(pd)
    stop(md)

    # 4. play -> first sample at the output, cold: previewd resolves
    # deezer:track:ID, fetches and decodes (the WAV file is created with its
    # first sample); mpd plays the same preview's URL into a fifo output.
    track = 3135556
    url = f"{http}/preview/{track}.mp3"
    ours, theirs = [], []
    for _ in range(RUNS):
        d, sock = start_previewd(tmp, http, output="wav", pace="realtime")
        wav = os.path.join(tmp, "out.wav")
        if os.path.exists(wav):
            os.unlink(wav)
        c = Conn(sock)
        c.cmd(f"add deezer:track:{track}")
        urlopen(http + "/_control/reset").read()  # cold: nothing cached at the stand-in side either
        c.f.write(b"play\n")
        c.f.flush()
        t = time.perf_counter()
        # Polled every 0.2 ms, not in a busy loop: on 2 cores a spinning
        # poller takes the CPU the daemon's threads need (mpd's side blocks
        # in read on its fifo).
        while not (os.path.exists(wav) and os.path.getsize(wav) > 44):
            time.sleep(0.0002)
        ours.append(time.perf_counter() - t)
        stop(d)
        fifo = os.path.join(tmp, "mpd.fifo")
        m, msock = start_mpd(tmp, fifo=fifo)
        c = Conn(msock)
        c.cmd(f'add "{url}"')
        first = {}
        reader = threading.Thread(target=lambda: first.setdefault("t", read_first_byte(fifo)))
        reader.start()
        time.sleep(0.2)
        c.f.write(b"play\n")
        c.f.flush()
        t = time.perf_counter()
        reader.join(10)
        theirs.append(first.get("t", float("inf")) - t)
        stop(m)
    results["play_to_first_sample_ms"] = {"previewd": statistics.median(ours) * 1000,
                                          "mpd": statistics.median(theirs) * 1000}

    # 5. next -> first sample with the next song prefetched (previewd answers
    # `next` once the song's first samples went to the output).
    d, sock = start_previewd(tmp, http)
    c = Conn(sock)
    c.cmd("add deezer:album:302127")
    c.cmd("play")
    samples = []
    for _ in range(RUNS):
        time.sleep(1.5)  # the next song is downloaded meanwhile
        samples.append(timed(lambda: c.cmd("next")))
    results["next_prefetched_ms"] = {"previewd": statistics.median(samples) * 1000}
    stop(d)

    # 6. 100,000 songs: one command list of addid (previewd: catalog tracks
    # whose metadata the album made known, and the http URLs mpd gets;
    # mpd: http URLs), playlistinfo of the whole queue, and resident memory
    # per queued song once the daemon has settled (previewd saves its state
    # a second after a change).
    ids = [t["id"] for t in json.load(open(os.path.join(catalog.FIXTURES, "album-302127-tracks.json")))["data"]]
    n = 100_000
    url = lambda i: f"{http}/corpus/{PREVIEWS[i % len(PREVIEWS)]}"
    sides = [("previewd", "", lambda: start_previewd(tmp, http), lambda i: f"deezer:track:{ids[i % len(ids)]}"),
             ("previewd", "_same_urls", lambda: start_previewd(tmp, http), url),
             ("mpd", "", lambda: start_mpd(tmp), url)]
    # Each run starts a fresh daemon, so no run inherits another's heap.
    for name, suffix, start, item in sides:
        body = "command_list_begin\n" + "".join(f'addid "{item(i)}"\n' for i in range(n)) + "command_list_end"
        adds, listings, per_song, sizes, bare = [], [], [], [], []
        for _ in range(RUNS):
            p, sock = start()
            c = Conn(sock)
            if name == "previewd":
                c.cmd("add deezer:album:302127")
                c.cmd("clear")
            before = benchlib.rss_kb(p.pid, "VmRSS")
            adds.append(timed(lambda: c.bulk(body)))
            time.sleep(2)
            listings.append(timed(lambda: c.bulk("playlistinfo")))
            sizes.append(len(c.bulk("playlistinfo")) / n)
            if name == "previewd" and not suffix:
                # mpd knows no tags of http songs it has not played, so its
                # reply has no Artist/Title/Album/Time lines; the same
                # listing from previewd without tags compares like with like.
                c.cmd("tagtypes clear")
                bare.append(timed(lambda: c.bulk("playlistinfo")))
                c.cmd("tagtypes all")
            after = benchlib.rss_kb(p.pid, "VmRSS")
            length = c.cmd("status")
            assert f"playlistlength: {n}" in length, (name, length[:12])
            per_song.append((after - before) * 1024 / n)
            stop(p)
        keys = [("playlistinfo_100k_seconds", listings), ("bytes_per_queued_song", per_song),
                ("playlistinfo_reply_bytes_per_song", sizes)]
        if not suffix:
            keys.append(("addid_100k_seconds", adds))
            # (mpd's listing has no tags in any case.)
            keys.append(("playlistinfo_100k_seconds_no_tags", bare or listings))
        for key, values in keys:
            results.setdefault(key + suffix, {})[name] = statistics.median(values)
        if name == "mpd":  # mpd's figures are those of the same URLs
            for key, _ in keys[:3]:
                results.setdefault(key + "_same_urls", {})[name] = results[key][name]

    # 6b. The same listing with tags on both sides: mpd's queue holds songs
    # of its database, tagged as previewd knows the album's tracks (artist,
    # title, album, album artist, track, disc, date, genre, label), against
    # previewd's catalog songs of that album (the first side above).
    music, songs = tagged_album(tmp)
    body = "command_list_begin\n" + "".join(f'addid "{songs[i % len(songs)]}"\n' for i in range(n)) + "command_list_end"
    listings, sizes = [], []
    for _ in range(RUNS):
        p, sock = start_mpd(tmp, music=music)
        c = Conn(sock)
        c.bulk(body)
        assert f"playlistlength: {n}" in c.cmd("status")
        time.sleep(2)
        listings.append(timed(lambda: c.bulk("playlistinfo")))
        sizes.append(len(c.bulk("playlistinfo")) / n)
        stop(p)
    results["playlistinfo_100k_seconds_tags_both_sides"] = {"previewd": results["playlistinfo_100k_seconds"]["previewd"],
                                                            "mpd": statistics.median(listings)}
    results["playlistinfo_reply_bytes_per_song_tags_both_sides"] = {
        "previewd": results["playlistinfo_reply_bytes_per_song"]["previewd"], "mpd": statistics.median(sizes)}
    # The headline figure is the like-for-like one (tags on both sides); the
    # catalog songs against mpd's untagged http songs (a third of the
    # bytes) stays as `..._untagged_mpd`, docs/performance.md's footnote.
    for key in ["playlistinfo_100k_seconds", "playlistinfo_reply_bytes_per_song"]:
        results[key + "_untagged_mpd"] = results.pop(key)
        results[key] = results.pop(key + "_tags_both_sides")

    # 7. 200 clients idle; one change; time until every one has its `changed:`.
    for name, start in [("previewd", lambda: start_previewd(tmp, http)), ("mpd", lambda: start_mpd(tmp))]:
        p, sock = start()
        times = []
        for _ in range(RUNS):
            clients = []
            for _ in range(200):
                s = socket.socket(socket.AF_UNIX)
                s.connect(sock)
                s.recv(100)
                s.sendall(b"idle mixer\n")
                clients.append(s)
            time.sleep(0.3)
            c = Conn(sock)
            t = time.perf_counter()
            c.cmd(f"setvol {50 + len(times)}")
            for s in clients:
                buf = b""
                while not buf.endswith(b"OK\n"):
                    buf += s.recv(4096)
            times.append(time.perf_counter() - t)
            for s in clients:
                s.close()
        results.setdefault("idle_200_clients_notified_ms", {})[name] = statistics.median(times) * 1000
        stop(p)

    # 8. What replay gain costs (contrib/bench/loudness.py's runs): CPU per
    # second of audio decoding an album as fast as possible to the null
    # output, with `track` on songs measured before against `off`, and on
    # songs not measured yet (held and metered by the decode that plays
    # them) against `off`.
    with open(os.path.join(catalog.FIXTURES, "album-302127-tracks.json")) as fh:
        tracks = [t["id"] for t in json.load(fh)["data"]]
    runs = [loudness.one_run(http, tracks, tmp) for _ in range(RUNS)]
    cpu = {name: statistics.median(r[name] for r in runs) / (30.0 * len(tracks)) for name in runs[0]}
    results["replay_gain_track_cpu_per_audio_second"] = {"track": cpu["track, measured"], "off": cpu["off"]}
    results["loudness_analysis_cpu_per_audio_second"] = {"decode+analysis": cpu["track, not measured"],
                                                         "decode": cpu["off"]}
    server.shutdown()

    width = max(len(k) for k in results)
    for key, sides in results.items():
        cells = "   ".join(f"{side}: {value:,.3f}" for side, value in sides.items())
        values = list(sides.values())
        ratio = f"   ratio {values[0] / values[1]:.2f}" if len(values) == 2 and values[1] else ""
        if len(values) == 1:
            ratio = ""
        print(f"{key:<{width}}   {cells}{ratio}")
    with open(os.path.join(ROOT, ".build", "bench-results.json"), "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
