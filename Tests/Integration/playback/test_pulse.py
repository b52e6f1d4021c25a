"""PulseAudio output: a private headless server with a norewinds null sink,
recorded from its monitor, must carry the reference PCM byte for byte."""
import array
import os
import shutil
import subprocess
import time

import pytest

from helpers import (FRAME, RATE, assert_whole, audible_start, elapsed_of, reference_pcm, stop_process, stop_recording, wait_for,
                     wait_recording, wait_status)


class PulseServer:
    """A private headless PulseAudio server (docs/sound.md, "Outputs") on a fixed
    socket, which a test may kill and start again."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        runtime = tmp_path / "pulse-runtime"
        runtime.mkdir(mode=0o700)
        self.sock = runtime / "pulse-native"
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), PULSE_SERVER=f"unix:{self.sock}",
                        HOME=str(tmp_path))
        self.proc = None
        self.runs = 0

    def start(self):
        self.runs += 1
        self.log = open(self.tmp / f"pulseaudio-{self.runs}.log", "wb")
        self.proc = subprocess.Popen(
            [shutil.which("pulseaudio"), "--daemonize=no", "-n", "--exit-idle-time=-1", "--disallow-exit",
             "--load=module-null-sink sink_name=test_sink norewinds=1 rate=44100 channels=2",
             "--load=module-null-sink sink_name=other_sink norewinds=1 rate=44100 channels=2",
             f"--load=module-native-protocol-unix socket={self.sock} auth-anonymous=1"],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

        def answers():
            if subprocess.run(["pactl", "info"], env=self.env, capture_output=True).returncode == 0:
                return True
            assert self.proc.poll() is None, (self.tmp / f"pulseaudio-{self.runs}.log").read_text()
            return False
        wait_for(answers, what="PulseAudio to start")
        subprocess.run(["pactl", "set-default-sink", "test_sink"], env=self.env, check=True)

    def kill(self):
        """SIGKILL: the server vanishes as in a crash."""
        self.proc.kill()
        self.proc.wait()
        self.log.close()

    def stop(self):
        stop_process(self.proc)
        self.log.close()


@pytest.fixture
def pulse_server(tmp_path, monkeypatch):
    server = PulseServer(tmp_path)
    server.start()
    for k in ("XDG_RUNTIME_DIR", "PULSE_SERVER", "HOME"):
        monkeypatch.setenv(k, server.env[k])
    yield server
    server.stop()


@pytest.fixture
def pulse(pulse_server):
    """The private server's environment."""
    return pulse_server.env


def record(env, path, sink="test_sink"):
    return subprocess.Popen(
        ["parecord", f"--device={sink}.monitor", "--file-format=wav", "--format=s16le",
         "--rate=44100", "--channels=2", str(path)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def corked(env):
    """Whether a stream on the server is corked (paused there)."""
    return "Corked: yes" in subprocess.run(["pactl", "list", "sink-inputs"], env=env, capture_output=True, text=True).stdout


def test_pulse_output_is_bit_exact(pulse, daemon_factory, http, tmp_path):
    rec_path = tmp_path / "monitor.wav"
    recorder = record(pulse, rec_path)
    wait_recording(recorder, rec_path)  # attached before the stream starts
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-05.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = wait_status(c, "audio")
    assert st["audio"] == "44100:16:2"
    assert st["duration"] == "30.000"
    d.wait_state(c, "stop", timeout=60)
    assert_whole(stop_recording(recorder, rec_path), reference_pcm("preview-05.mp3"))


def test_a_fifo_nobody_reads_leaves_pulseaudio_bit_exact(pulse, daemon_factory, http, tmp_path):
    """Issue 43: beside PulseAudio, a FIFO output with no reader: the pipe
    fills (64 KiB: 0.37 s) and is emptied by previewd on its own thread
    after each second unread, and the sink gets every sample of the song's
    last 8 s (several fills and drains), as without it."""
    rec_path = tmp_path / "monitor.wav"
    recorder = record(pulse, rec_path)
    wait_recording(recorder, rec_path)
    d = daemon_factory(output="pulse", extra=("--output", f"fifo:{tmp_path}/pipe"))
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-05.mp3"') == ["OK"]
    assert c.cmd("rangeid 1 22:") == ["OK"]
    assert c.cmd("play") == ["OK"]
    d.wait_state(c, "stop", timeout=60)
    assert_whole(stop_recording(recorder, rec_path), reference_pcm("preview-05.mp3")[22 * RATE * FRAME:])
    assert "error" not in c.fields("status") and os.path.exists(tmp_path / "pipe")


def test_pause_corks_and_resume_continues(pulse, daemon_factory, http):
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-02.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    d.wait_state(c, "play", timeout=10)
    wait_for(lambda: elapsed_of(c) >= 0.5, timeout=10, what="half a second played")
    assert c.cmd("pause 1") == ["OK"]
    wait_for(lambda: corked(pulse), timeout=10, what="the stream corked")
    first = float(c.fields("status")["elapsed"])
    time.sleep(0.7)  # fixed: no progress while paused, over this window, is what is tested
    second = float(c.fields("status")["elapsed"])
    assert c.fields("status")["state"] == "pause"
    assert first == second
    assert c.cmd("pause 0") == ["OK"]
    assert wait_for(lambda: elapsed_of(c) > second, timeout=10), "playing on after the resume"
    assert c.cmd("setvol 40") == ["OK"]
    assert c.fields("getvol")["volume"] == "40"
    # The stream's volume ramps to 40 % over a fraction of a second.
    def sinks():
        return subprocess.run(["pactl", "list", "sink-inputs"], env=pulse, capture_output=True, text=True).stdout
    assert wait_for(lambda: "40%" in sinks(), timeout=10), sinks()


def test_elapsed_is_what_the_sink_has_played(pulse, daemon_factory, http, tmp_path):
    """The stream's buffer is a second: `elapsed` counts only what the
    sink took from it (the stream's latency subtracted), so at a pause it
    names the sample the recording stops at, not the last one written."""
    rec_path = tmp_path / "monitor.wav"
    recorder = record(pulse, rec_path)
    wait_recording(recorder, rec_path)
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-05.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert wait_for(lambda: elapsed_of(c) >= 3, timeout=10)
    assert c.cmd("pause 1") == ["OK"]
    wait_for(lambda: corked(pulse), timeout=10, what="the stream corked")
    elapsed = float(c.fields("status")["elapsed"])
    recording = stop_recording(recorder, rec_path)
    ref = reference_pcm("preview-05.mp3")
    start = audible_start(recording)
    assert recording[start:start + 4 * 4410] == ref[:4 * 4410], "the song's first 0.1 s"
    heard = recording[start:]
    same = next((i for i in range(0, min(len(heard), len(ref)), 4) if heard[i:i + 4] != ref[i:i + 4]), len(heard))
    played = same / (4 * 44100)
    # Within 2 ms here; without the correction it was 0.29 s ahead.
    assert abs(elapsed - played) < 0.03, (elapsed, played)
    assert c.cmd("pause 0") == ["OK"]
    assert float(c.fields("status")["elapsed"]) >= elapsed


def playing_the_last_seconds(pulse, daemon_factory, http, tmp_path):
    """preview-05 from 27 s on, the only song, recorded: (client, stop the
    recording and return its PCM)."""
    rec_path = tmp_path / "monitor.wav"
    recorder = record(pulse, rec_path)
    wait_recording(recorder, rec_path)
    c = daemon_factory(output="pulse").client()
    assert c.cmd(f'add "{http}/corpus/preview-05.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert c.cmd("seekcur 27") == ["OK"]
    return c, lambda: stop_recording(recorder, rec_path)


def test_the_queue_stops_as_its_last_samples_are_heard(pulse, daemon_factory, http, tmp_path):
    """The last song is written to the server a second before it is heard:
    `status` says `play` until then, and the recording holds its end."""
    c, stop_recorder = playing_the_last_seconds(pulse, daemon_factory, http, tmp_path)
    last_playing = 0.0
    deadline = time.time() + 15
    while (st := c.fields("status"))["state"] == "play" and time.time() < deadline:
        last_playing = float(st.get("elapsed", "0"))
        time.sleep(0.01)
    assert st["state"] == "stop"
    # Written whole at 29.0 s; stopped as heard, 0.1 s before its end (a
    # slow poll may see less: 0.35 s of room).
    assert last_playing >= 29.5, last_playing
    recording = stop_recorder()
    ref = reference_pcm("preview-05.mp3")
    assert ref[27 * 44100 * 4:] in recording, "the song from the seek to its last sample"


def test_a_stop_before_the_queues_end_is_heard_drops_that_end(pulse, daemon_factory, http, tmp_path):
    """`stop` while the server still holds the last song's end (written
    whole, not yet heard) drops it at once, as a `stop` mid-song does."""
    c, stop_recorder = playing_the_last_seconds(pulse, daemon_factory, http, tmp_path)
    assert wait_for(lambda: elapsed_of(c) >= 29.1, timeout=10)
    assert c.cmd("stop") == ["OK"]
    assert c.fields("status")["state"] == "stop"
    time.sleep(1.5)  # fixed: longer than the end would take to play out, which must not be heard
    recording = stop_recorder()
    ref = reference_pcm("preview-05.mp3")
    assert ref[28 * 44100 * 4:int(29.1 * 44100) * 4] in recording, "played up to the stop"
    assert ref[-int(0.3 * 44100) * 4:] not in recording, "the song's last 0.3 s were dropped"


def test_a_resume_in_the_last_half_second_plays_on_at_once(pulse, daemon_factory, http, tmp_path):
    """An uncorked stream waits for a full prebuffer again; at a song's end
    nothing more comes to fill it, so it must be started by hand."""
    c, stop_recorder = playing_the_last_seconds(pulse, daemon_factory, http, tmp_path)
    assert wait_for(lambda: elapsed_of(c) >= 29.6, timeout=10)
    assert c.cmd("pause 1") == ["OK"]
    wait_for(lambda: corked(pulse), timeout=10, what="the stream corked")
    paused = float(c.fields("status")["elapsed"])
    assert c.cmd("pause 0") == ["OK"]
    last_playing = paused
    deadline = time.time() + 5
    while (st := c.fields("status"))["state"] == "play" and time.time() < deadline:
        last_playing = float(st["elapsed"])
        time.sleep(0.01)
    assert st["state"] == "stop"
    # Silent until the stop, it stayed at the pause's `elapsed`.
    assert last_playing > paused + 0.1, (paused, last_playing)
    recording = stop_recorder()
    assert reference_pcm("preview-05.mp3")[-int(0.3 * 44100) * 4:] in recording, "the end was heard"


def test_disabling_the_output_in_the_last_second_silences_it(pulse, daemon_factory, http, tmp_path):
    c, stop_recorder = playing_the_last_seconds(pulse, daemon_factory, http, tmp_path)
    assert wait_for(lambda: elapsed_of(c) >= 29.1, timeout=10)
    assert c.cmd("disableoutput 0") == ["OK"]
    assert wait_for(lambda: c.fields("status")["state"] == "stop", timeout=1.5), "the null output played the rest"
    recording = stop_recorder()
    assert reference_pcm("preview-05.mp3")[-int(0.3 * 44100) * 4:] not in recording, "the last 0.3 s were dropped"


def test_playback_continues_by_itself_after_pulseaudio_restarts(pulse_server, daemon_factory, http, tmp_path):
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-05.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert c.cmd("seekcur 20") == ["OK"]  # a shorter test; the cut is the same
    # `elapsed` counts the chunk being written as time passes: 0.2 s more
    # makes sure 21 s were handed over before the cut.
    wait_for(lambda: elapsed_of(c) >= 21.2, timeout=10)
    pulse_server.kill()
    st = wait_status(c, "error")
    assert st["error"].startswith("output: "), st
    assert st["error"].endswith("; reconnecting"), st
    assert st["state"] == "play"
    held = float(st["elapsed"])
    time.sleep(1)  # fixed: no progress over this window is what is tested
    assert float(c.fields("status")["elapsed"]) - held < 0.5, "no output, so no progress"

    pulse_server.start()
    restarted = time.time()
    rec_path = tmp_path / "after-restart.wav"
    recorder = record(pulse_server.env, rec_path)
    # No command is sent: the daemon reconnects by itself.
    wait_for(lambda: float(c.fields("status")["elapsed"]) >= held + 0.5, timeout=10)
    print(f"playing again {time.time() - restarted:.2f} s after the server came back")
    st = c.fields("status")
    assert float(st["elapsed"]) >= held + 0.5, st
    assert "error" not in st, st
    d.wait_state(c, "stop", timeout=60)
    recording = stop_recording(recorder, rec_path)
    ref = reference_pcm("preview-05.mp3")
    start = audible_start(recording)
    at = ref.find(recording[start:start + 4 * 4410])
    assert at > 21 * 44100 * 4, "resumed where it was cut"
    assert at % 4 == 0
    rest = ref[at:]
    assert recording[start:start + len(rest)] == rest, "the reference PCM from the resume point to the end"
    tail = recording[start + len(rest):]
    assert tail.count(0) == len(tail)


def test_a_named_sink_is_used_and_a_missing_one_is_reported(pulse_server, daemon_factory, http, tmp_path):
    rec_path = tmp_path / "other.wav"
    recorder = record(pulse_server.env, rec_path, sink="other_sink")
    wait_recording(recorder, rec_path)
    d = daemon_factory(output="pulse:other_sink")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-08-mono22k.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    wait_for(lambda: elapsed_of(c) >= 2, timeout=10, what="2 s played")
    assert c.cmd("stop") == ["OK"]
    recording = stop_recording(recorder, rec_path)
    assert recording.count(0) < len(recording) // 2, "the other sink carried the preview"

    missing = daemon_factory(output="pulse:no_such_sink")
    c = missing.client()
    assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = wait_status(c, "error")
    assert st["error"].startswith("output: cannot play to PulseAudio sink no_such_sink: "), st


def test_daemon_starts_without_a_sound_server_and_says_why(daemon_factory, tmp_path, monkeypatch, http):
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/nobody-here")
    d = daemon_factory(output="pulse")
    c = d.client()
    st = c.fields("status")
    assert st["error"].startswith("output: cannot connect to PulseAudio: "), st
    assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = c.fields("status")
    assert st["state"] == "play"
    assert st["error"].startswith("output: cannot connect to PulseAudio: "), "play does not hide why there is no sound"


def sink_inputs(env):
    out = subprocess.run(["pactl", "list", "short", "sink-inputs"], env=env, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line.strip()]


def test_outputs_switch_between_pulse_and_null_at_runtime(pulse_server, daemon_factory, http):
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd("outputs") == ["outputid: 0", "outputname: pulse", "plugin: pulse", "outputenabled: 1",
                                "outputid: 1", "outputname: null", "plugin: null", "outputenabled: 0", "OK"]
    assert c.cmd(f'add "{http}/corpus/preview-02.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert wait_for(lambda: len(sink_inputs(pulse_server.env)) == 1, timeout=10)
    assert c.cmd("disableoutput 0") == ["OK"]
    assert wait_for(lambda: sink_inputs(pulse_server.env) == [], timeout=10), "the sound server was let go"
    before = float(c.fields("status")["elapsed"])
    assert wait_for(lambda: float(c.fields("status")["elapsed"]) > before + 0.5, timeout=10), \
        "the null output keeps time"
    assert c.cmd("outputs")[3] == "outputenabled: 0"
    assert c.cmd("enableoutput 0") == ["OK"]
    assert wait_for(lambda: len(sink_inputs(pulse_server.env)) == 1, timeout=10), "back on PulseAudio"
    assert c.fields("status")["state"] == "play"
    assert c.cmd("enableoutput 2") == ["ACK [50@0] {enableoutput} No such audio output"]


def test_the_default_sink_is_followed_when_it_changes(pulse_server, daemon_factory, http):
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-03.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    env = pulse_server.env
    sinks = dict(reversed(line.split("\t")[:2]) for line in
                 subprocess.run(["pactl", "list", "short", "sinks"], env=env, capture_output=True, text=True).stdout.splitlines())
    assert wait_for(lambda: sink_inputs(env), timeout=10)
    assert sink_inputs(env)[0].split("\t")[1] == sinks["test_sink"]
    subprocess.run(["pactl", "set-default-sink", "other_sink"], env=env, check=True)
    assert wait_for(lambda: sink_inputs(env)[0].split("\t")[1] == sinks["other_sink"], timeout=10)


def test_volume_changes_ramp_instead_of_jumping(pulse_server, daemon_factory, http, tmp_path):
    rec_path = tmp_path / "ramp.wav"
    recorder = record(pulse_server.env, rec_path)
    wait_recording(recorder, rec_path)
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-02.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert wait_for(lambda: elapsed_of(c) >= 3, timeout=10)
    assert c.cmd("setvol 50") == ["OK"]
    at = elapsed_of(c)
    wait_for(lambda: elapsed_of(c) >= at + 1, timeout=10, what="a second played after setvol")
    assert c.cmd("stop") == ["OK"]
    recording = stop_recording(recorder, rec_path)
    ref = reference_pcm("preview-02.mp3")
    start = audible_start(recording)
    at = ref.find(recording[start:start + 4 * 4410])
    assert at >= 0 and at % 4 == 0
    rec = array.array("h", recording[start:])
    src = array.array("h", ref[at:at + len(rec) * 2])
    # Gain per 5 ms window (220 frames): 1 before, 0.125 after (50 % on
    # PulseAudio's cubic scale); a ramp passes through levels in between.
    window = 220 * 2
    gains = []
    for i in range(0, min(len(rec), len(src)) - window, window):
        s = sum(abs(x) for x in src[i:i + window])
        if s > window * 200:  # skip near-silence, where the ratio is noise
            gains.append(sum(abs(x) for x in rec[i:i + window]) / s)
    assert any(g > 0.97 for g in gains[:20]), "full volume first"
    assert any(0.12 < g < 0.13 for g in gains), "0.125 at the end"
    between = [g for g in gains if 0.2 < g < 0.9]
    assert len(between) >= 4, f"a ramp, not a step: {len(between)} windows between the levels"
