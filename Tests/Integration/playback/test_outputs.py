"""Several outputs at once (issue 43): a WAV file and a FIFO side by side,
each switched with mpc, each receiving the same PCM bit-exact while it is
on; a pipe nobody reads delays nothing; playback goes on with every
output off. Multi-room through Snapcast is in test_multiroom.py."""
import os
import select
import socket
import subprocess
import threading
import time

from catalog import preview_file_for
from helpers import FRAME, RATE, free_port, reference_pcm, run_mpc, wait_for, wav_pcm

SONGS = (3135556, 3135555)


class PipeReader:
    """Reads a FIFO into memory on a thread of its own, as snapserver does."""

    def __init__(self, path):
        if not os.path.exists(path):
            os.mkfifo(path, 0o600)
        self.data = bytearray()
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            if not select.select([self.fd], [], [], 0.1)[0]:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            if chunk:
                self.data += chunk
            else:
                time.sleep(0.02)  # no writer now: the end of file repeats

    def close(self):
        self.running = False
        self.thread.join(10)
        assert not self.thread.is_alive(), "the FIFO reader did not stop"
        os.close(self.fd)


def listen_flac(port):
    """A listener on the FLAC stream, once previewd has answered its
    request (it joins the stream then: a `play` sent before that may
    start without it on a loaded machine); the socket and what came after
    the response head's first bytes."""
    listener = socket.create_connection(("127.0.0.1", port), timeout=30)
    listener.sendall(f"GET /stream.flac HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    first = b""
    while b"\r\n\r\n" not in first:
        chunk = listener.recv(65536)
        assert chunk, f"the stream closed before its head: {first!r}"
        first += chunk
    return listener, first


def first_seconds(track, seconds):
    return reference_pcm(preview_file_for(track))[:int(seconds * RATE) * FRAME]


def queue_ranges(c, seconds):
    for n, track in enumerate(SONGS, start=1):
        assert c.cmd(f"addid deezer:track:{track}") == [f"Id: {n}", "OK"]
        assert c.cmd(f"rangeid {n} 0:{seconds}") == ["OK"]


def test_mpc_lists_and_switches_the_outputs(daemon_factory, tmp_path):
    d = daemon_factory(extra=("--output", f"fifo:{tmp_path}/pipe"))
    assert run_mpc(d, "outputs").stdout == "Output 1 (wav) is enabled\nOutput 2 (fifo) is enabled\n"
    idle = d.client()
    idle.send("idle output\n")
    assert run_mpc(d, "disable", "2").returncode == 0
    assert idle.reply() == ["changed: output", "OK"]
    assert run_mpc(d, "outputs").stdout == "Output 1 (wav) is enabled\nOutput 2 (fifo) is disabled\n"
    assert run_mpc(d, "toggleoutput", "1").returncode == 0
    assert run_mpc(d, "enable", "2").returncode == 0
    assert run_mpc(d, "outputs").stdout == "Output 1 (wav) is disabled\nOutput 2 (fifo) is enabled\n"
    assert d.client().cmd("outputs") == ["outputid: 0", "outputname: wav", "plugin: wav", "outputenabled: 0",
                                         "outputid: 1", "outputname: fifo", "plugin: fifo", "outputenabled: 1", "OK"]


def test_a_fifo_beside_a_wav_file_gets_the_same_pcm_bit_exact(daemon_factory, tmp_path):
    reader = PipeReader(str(tmp_path / "pipe"))
    try:
        d = daemon_factory(pace="realtime", extra=("--output", f"fifo:{tmp_path}/pipe"))
        c = d.client()
        queue_ranges(c, 2)
        assert c.cmd("play 0") == ["OK"]
        expected = first_seconds(SONGS[0], 2) + first_seconds(SONGS[1], 2)
        wait_for(lambda: len(reader.data) >= len(expected), timeout=30, what="both songs in the pipe",
                 detail=lambda: len(reader.data))
        d.wait_state(c, "stop")
    finally:
        reader.close()
    assert bytes(reader.data) == expected
    assert wav_pcm(d.wav)[3] == expected


def test_outputs_switched_off_get_nothing_and_playback_goes_on(daemon_factory, tmp_path):
    reader = PipeReader(str(tmp_path / "pipe"))
    try:
        d = daemon_factory(pace="realtime", extra=("--output", f"fifo:{tmp_path}/pipe"))
        c = d.client()
        queue_ranges(c, 1)
        assert run_mpc(d, "disable", "2").returncode == 0
        assert c.cmd("play 0") == ["OK"]
        d.wait_state(c, "stop")
        assert reader.data == b"" and wav_pcm(d.wav)[3] == first_seconds(SONGS[0], 1) + first_seconds(SONGS[1], 1)
        # The FIFO alone: the WAV file gets no more, the pipe both songs.
        assert run_mpc(d, "enable", "2").returncode == 0
        assert run_mpc(d, "disable", "1").returncode == 0
        assert c.cmd("play 0") == ["OK"]
        d.wait_state(c, "stop")
        expected = first_seconds(SONGS[0], 1) + first_seconds(SONGS[1], 1)
        wait_for(lambda: len(reader.data) >= len(expected), what="the pipe's songs")
        assert bytes(reader.data) == expected
        assert wav_pcm(d.wav)[3] == expected  # unchanged since the first play
        # None at all: the songs play to no one, in real time.
        assert run_mpc(d, "disable", "2").returncode == 0
        assert c.cmd("play 0") == ["OK"]
        wait_for(lambda: float(c.fields("status").get("elapsed", "0")) >= 0.5, what="elapsed to move")
        assert c.fields("status")["state"] == "play"
        d.wait_state(c, "stop")
    finally:
        reader.close()
    assert bytes(reader.data) == expected


def test_a_fifo_nobody_reads_delays_no_other_output(daemon_factory, tmp_path, http):
    # As fast as decoding allows: a pipe that waited for its reader would
    # hold the WAV file up.
    d = daemon_factory(extra=("--output", f"fifo:{tmp_path}/pipe"))
    c = d.client()
    for track in SONGS:
        assert c.cmd(f"add deezer:track:{track}") == ["OK"]
    assert c.cmd("play 0") == ["OK"]
    d.wait_state(c, "stop", timeout=30)
    whole = reference_pcm(preview_file_for(SONGS[0])) + reference_pcm(preview_file_for(SONGS[1]))
    assert wav_pcm(d.wav)[3] == whole
    assert os.path.exists(tmp_path / "pipe") and "error" not in c.fields("status")


def test_a_fifo_path_that_is_no_fifo_is_an_error_while_the_wav_file_plays_on(daemon_factory, tmp_path):
    (tmp_path / "not-a-pipe").write_text("mine\n")
    d = daemon_factory(pace="realtime", extra=("--output", f"fifo:{tmp_path}/not-a-pipe"))
    c = d.client()
    queue_ranges(c, 1)
    assert c.cmd("play 0") == ["OK"]
    d.wait_state(c, "stop")
    assert c.fields("status")["error"] == f"output fifo: output error: fifo {tmp_path}/not-a-pipe: there is something else than a FIFO there"
    assert wav_pcm(d.wav)[3] == first_seconds(SONGS[0], 1) + first_seconds(SONGS[1], 1)
    assert (tmp_path / "not-a-pipe").read_text() == "mine\n"
    assert "output fifo failed: output error: fifo" in d.log()


def test_outputs_are_kept_off_across_a_restart(daemon_factory, tmp_path, http):
    from helpers import restart
    d = daemon_factory(extra=("--output", f"fifo:{tmp_path}/pipe"))
    assert run_mpc(d, "disable", "2").returncode == 0
    d2 = restart(d, http, extra=("--output", f"fifo:{tmp_path}/pipe"))
    try:
        assert run_mpc(d2, "outputs").stdout == "Output 1 (wav) is enabled\nOutput 2 (fifo) is disabled\n"
    finally:
        d2.close()


def test_output_options_are_checked(daemon_factory, tmp_path):
    from helpers import PREVIEWD
    for value, why in [
        ("http:0.0.0.0:8000", "--output http:0.0.0.0:8000: beyond loopback (127.x.x.x) a stream needs a password: "
                              "--stream-password-file FILE"),
        ("http:localhost", '--output http: takes HOST:PORT, an IPv4 address and a port, as http:127.0.0.1:8000, '
                           'not "http:localhost"'),
        ("fifo:", '--output must be pulse, pulse:SINK, null, wav:PATH, fifo:PATH or http:HOST:PORT, not "fifo:"'),
    ]:
        p = subprocess.run([PREVIEWD, "--output", value], capture_output=True, text=True, timeout=10)
        assert (p.returncode, p.stderr) == (64, f"previewd: {why}\n")
    p = subprocess.run([PREVIEWD, "--output", "http:0.0.0.0:0", "--stream-password-file", str(tmp_path / "none")],
                       capture_output=True, text=True, timeout=10)
    assert (p.returncode, p.stderr) == (66, f"previewd: --stream-password-file {tmp_path}/none: no such file\n")
    many = [a for i in range(17) for a in ("--output", f"fifo:{tmp_path}/p{i}")]
    p = subprocess.run([PREVIEWD, *many], capture_output=True, text=True, timeout=10)
    assert (p.returncode, p.stderr) == (64, "previewd: --output: at most 16 outputs, not 17\n")


def test_a_flac_listener_gets_two_songs_bit_exact_and_gapless(daemon_factory, tmp_path):
    """The HTTP stream output beside a paced null output: a listener that
    connects before `play` receives both songs, lossless, back to back;
    the stream ends with the queue."""
    port = free_port()
    d = daemon_factory(output="null", pace="realtime", extra=("--output", f"http:127.0.0.1:{port}"))
    assert run_mpc(d, "outputs").stdout == ("Output 1 (null) is enabled\nOutput 2 (httpd) is enabled\n"
                                            f'\tstream="http://127.0.0.1:{port}/"\n')
    assert d.client().cmd("outputs")[4:] == ["outputid: 1", "outputname: httpd", "plugin: httpd", "outputenabled: 1",
                                             f"attribute: stream=http://127.0.0.1:{port}/", "OK"]
    assert f"HTTP stream on http://127.0.0.1:{port}/stream.mp3 and /stream.flac" in d.log()
    listener, body = listen_flac(port)
    c = d.client()
    queue_ranges(c, 2)
    assert c.cmd("play 0") == ["OK"]
    while chunk := listener.recv(65536):
        body += chunk
    listener.close()
    head, _, chunked = body.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 200 OK" and b"Content-Type: audio/flac" in head
    flac = dechunk(chunked)
    (tmp_path / "got.flac").write_bytes(flac)
    subprocess.run(["flac", "-s", "-d", "-f", "-o", str(tmp_path / "got.wav"), str(tmp_path / "got.flac")], check=True)
    assert wav_pcm(str(tmp_path / "got.wav"))[3] == first_seconds(SONGS[0], 2) + first_seconds(SONGS[1], 2)


def test_a_paused_stream_sends_silence_between_the_song_s_two_parts(daemon_factory, tmp_path):
    """As MPD's httpd output: while paused the listener gets silence, so
    its player waits instead of giving up; around the silence the song is
    still bit-exact."""
    port = free_port()
    d = daemon_factory(output="null", pace="realtime", extra=("--output", f"http:127.0.0.1:{port}"))
    wait_for(lambda: "HTTP stream on" in d.log(), what="the stream listening")
    listener, first = listen_flac(port)
    # The listener reads all along, as a player does: one that stops reading
    # for seconds has its frames dropped, by design, once its queue is full.
    chunks = [first]
    reader = threading.Thread(target=lambda: [chunks.append(b) for b in iter(lambda: listener.recv(65536), b"")], daemon=True)
    reader.start()
    c = d.client()
    assert c.cmd(f"addid deezer:track:{SONGS[0]}") == ["Id: 1", "OK"]
    assert c.cmd("rangeid 1 0:3") == ["OK"]
    assert c.cmd("play 0") == ["OK"]
    wait_for(lambda: float(c.fields("status").get("elapsed", 0)) >= 1, what="a second played")
    assert c.cmd("pause 1") == ["OK"]
    time.sleep(2.5)  # fixed: the pause's length is the scenario (over a second of silence)
    assert c.cmd("pause 0") == ["OK"]
    reader.join(timeout=60)
    assert not reader.is_alive(), "the stream did not end with the queue"
    body = b"".join(chunks)
    listener.close()
    (tmp_path / "got.flac").write_bytes(dechunk(body.partition(b"\r\n\r\n")[2]))
    subprocess.run(["flac", "-s", "-d", "-f", "-o", str(tmp_path / "got.wav"), str(tmp_path / "got.flac")], check=True)
    got, song = wav_pcm(str(tmp_path / "got.wav"))[3], first_seconds(SONGS[0], 3)
    head = next(i for i in range(0, len(song), FRAME) if got[i:i + FRAME] != song[i:i + FRAME])
    tail = len(song) - head
    assert got[len(got) - tail:] == song[head:], "the song goes on after the silence where it paused"
    silence = got[head:len(got) - tail]
    assert len(silence) >= RATE * FRAME and silence == bytes(len(silence)), \
        f"{len(silence) // FRAME} frames between the parts, all zero"


def test_a_stream_beyond_loopback_asks_for_the_password(daemon_factory, tmp_path):
    """`--stream-password-file` guards an HTTP stream on all addresses, as
    previewweb's `--password-file` guards the page: HTTP digest, user
    "previewd"; HEAD answers what the stream is."""
    port = free_port()
    secret = tmp_path / "stream-password"
    secret.write_text("correct horse\n")
    secret.chmod(0o600)
    d = daemon_factory(output="null", pace="realtime",
                       extra=("--output", f"http:0.0.0.0:{port}", "--stream-password-file", str(secret)))
    url = f"http://127.0.0.1:{port}/stream.mp3"
    wait_for(lambda: "HTTP stream on" in d.log(), what="the stream listening")

    def curl(*args):
        p = subprocess.run(["curl", "-s", "-o", str(tmp_path / "body"), "-D", "-", *args, url],
                           capture_output=True, text=True, timeout=30)
        # The last response's head (a digest first meets a 401).
        return p.returncode, p.stdout.strip().split("\n\n")[-1].split("\n")

    assert curl("-I")[1][0] == "HTTP/1.1 401 Unauthorized"
    assert curl("-I", "--digest", "-u", "previewd:wrong")[1][0] == "HTTP/1.1 401 Unauthorized"
    rc, head = curl("-I", "--digest", "-u", "previewd:correct horse")
    assert rc == 0 and "Content-Type: audio/mpeg" in head, head
    assert head[0] == "HTTP/1.1 200 OK" and not any(h.startswith("Content-Length") for h in head), head
    c = d.client()
    assert c.cmd(f"addid deezer:track:{SONGS[0]}") == ["Id: 1", "OK"]
    assert c.cmd("play 0") == ["OK"]
    rc, head = curl("--digest", "-u", "previewd:correct horse", "--max-time", "3")
    assert (rc, head[0]) == (28, "HTTP/1.1 200 OK")  # 28: still streaming when curl gave up
    mp3 = (tmp_path / "body").read_bytes()
    assert len(mp3) > 4096 and mp3[0] == 0xFF and mp3[1] & 0xE0 == 0xE0, mp3[:4]


def test_ffmpeg_plays_the_mp3_stream_and_shows_each_song_s_icy_title(daemon_factory, tmp_path):
    """ffmpeg as the player (its HTTP client asks for ICY metadata, as mpv,
    which is built on it, does): it joins during a pause (and decodes the
    silence), then decodes the stream to the end of the queue and reports
    each song's title as it changes."""
    port = free_port()
    d = daemon_factory(output="null", pace="realtime", extra=("--output", f"http:127.0.0.1:{port}"))
    wait_for(lambda: "HTTP stream on" in d.log(), what="the stream listening")
    c = d.client()
    queue_ranges(c, 2)
    titles = [f"{t['Artist']} - {t['Title']}" for t in (c.fields(f"playlistid {n}") for n in (1, 2))]
    assert c.cmd("play 0") == ["OK"] and c.cmd("pause 1") == ["OK"]
    pcm = tmp_path / "got.pcm"
    player = subprocess.Popen(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "verbose", "-icy", "1",
                               "-i", f"http://127.0.0.1:{port}/stream.mp3", "-f", "s16le", str(pcm)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for(lambda: pcm.exists() and pcm.stat().st_size > RATE * FRAME // 2, what="ffmpeg decoding the pause's silence")
    assert c.cmd("pause 0") == ["OK"]
    _, log = player.communicate(timeout=60)
    assert player.returncode == 0, log
    shown = [l.split("StreamTitle", 1)[1] for l in log.splitlines() if "StreamTitle" in l]
    assert [t for t in titles if any(t in s for s in shown)] == titles, shown
    assert pcm.stat().st_size >= 4 * RATE * FRAME, f"{pcm.stat().st_size / FRAME / RATE:.2f} s decoded"


def dechunk(data):
    """The body of an HTTP/1.1 chunked transfer."""
    out = b""
    while data:
        size, _, rest = data.partition(b"\r\n")
        n = int(size.split(b";")[0], 16)
        if n == 0:
            break
        out += rest[:n]
        data = rest[n + 2:]
    return out


def outputs_enabled(c):
    """Each output's name and whether it is on, from the `outputs` reply."""
    reply = c.cmd("outputs")
    names = [l.split(": ", 1)[1] for l in reply if l.startswith("outputname: ")]
    return dict(zip(names, [l.endswith(": 1") for l in reply if l.startswith("outputenabled: ")]))


def test_ncmpc_s_outputs_screen_lists_and_switches_the_outputs(daemon_factory, tmp_path):
    from helpers import Ncmpc
    d = daemon_factory(output="null", pace="realtime", extra=("--output", f"fifo:{tmp_path}/pipe"))
    app = Ncmpc(d, tmp_path)
    try:
        app.shows("1:Help", "2:Queue")
        app.keys("8")
        app.shows("[X] null", "[X] fifo")
        app.keys("Down", "Enter")
        app.shows("[ ] fifo", "Output 'fifo' disabled")
        c = d.client()
        assert wait_for(lambda: outputs_enabled(c) == {"null": True, "fifo": False}), outputs_enabled(c)
    finally:
        app.close()


def test_ncmpcpp_s_outputs_screen_lists_and_switches_the_outputs(daemon_factory, tmp_path):
    from helpers import Tmux
    d = daemon_factory(output="null", pace="realtime", extra=("--output", f"fifo:{tmp_path}/pipe"))
    app = Tmux(dict(os.environ, HOME=str(tmp_path), MPD_HOST=d.socket, TERM="xterm"), ["ncmpcpp"], size=(140, 30))
    try:
        app.keys("7")
        app.shows("Outputs", "null", "fifo")
        app.keys("Down", "Enter")
        app.shows('Output "fifo" disabled')
        c = d.client()
        assert wait_for(lambda: outputs_enabled(c) == {"null": True, "fifo": False}), outputs_enabled(c)
    finally:
        app.close()
