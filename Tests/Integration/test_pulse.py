"""PulseAudio output: a private headless server with a norewinds null sink,
recorded from its monitor, must carry the reference PCM byte for byte."""
import os
import shutil
import signal
import subprocess
import time
import wave

import pytest

from conftest import reference_pcm


@pytest.fixture
def pulse(tmp_path, monkeypatch):
    """A private PulseAudio server (DESIGN section 4); yields its environment."""
    runtime = tmp_path / "pulse-runtime"
    runtime.mkdir(mode=0o700)
    sock = runtime / "pulse-native"
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), PULSE_SERVER=f"unix:{sock}",
               HOME=str(tmp_path))
    log = open(tmp_path / "pulseaudio.log", "wb")
    proc = subprocess.Popen(
        [shutil.which("pulseaudio"), "--daemonize=no", "-n", "--exit-idle-time=-1", "--disallow-exit",
         "--load=module-null-sink sink_name=test_sink norewinds=1 rate=44100 channels=2",
         f"--load=module-native-protocol-unix socket={sock} auth-anonymous=1"],
        env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.time() + 15
    while subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode != 0:
        assert proc.poll() is None, (tmp_path / "pulseaudio.log").read_text()
        assert time.time() < deadline, "PulseAudio did not start"
        time.sleep(0.05)
    for k in ("XDG_RUNTIME_DIR", "PULSE_SERVER", "HOME"):
        monkeypatch.setenv(k, env[k])
    yield env
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


def record(env, path):
    return subprocess.Popen(
        ["parecord", "--device=test_sink.monitor", "--file-format=wav", "--format=s16le",
         "--rate=44100", "--channels=2", str(path)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_pulse_output_is_bit_exact(pulse, daemon_factory, http, tmp_path):
    rec_path = tmp_path / "monitor.wav"
    recorder = record(pulse, rec_path)
    time.sleep(0.3)  # let the recorder attach before the stream starts
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-05.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    deadline = time.time() + 10
    while "audio" not in (st := c.fields("status")) and time.time() < deadline:
        time.sleep(0.01)
    assert st["audio"] == "44100:16:2"
    assert st["duration"] == "30.000"
    d.wait_state(c, "stop", timeout=60)
    time.sleep(0.5)  # the monitor trails the sink slightly
    recorder.send_signal(signal.SIGINT)
    recorder.wait(10)
    with wave.open(str(rec_path), "rb") as w:
        recording = w.readframes(w.getnframes())
    ref = reference_pcm("preview-05.mp3")
    at = recording.find(ref)
    assert at >= 0, "reference PCM not found contiguously in the recording"
    assert at % 4 == 0
    assert recording[:at].count(0) == at, "non-silence before the preview"
    tail = recording[at + len(ref):]
    assert tail.count(0) == len(tail), "non-silence after the preview"


def test_pause_corks_and_resume_continues(pulse, daemon_factory, http):
    d = daemon_factory(output="pulse")
    c = d.client()
    assert c.cmd(f'add "{http}/corpus/preview-02.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    d.wait_state(c, "play", timeout=10)
    time.sleep(0.5)
    assert c.cmd("pause 1") == ["OK"]
    time.sleep(0.3)
    first = float(c.fields("status")["elapsed"])
    time.sleep(0.7)
    second = float(c.fields("status")["elapsed"])
    assert c.fields("status")["state"] == "pause"
    assert first == second
    assert c.cmd("pause 0") == ["OK"]
    time.sleep(0.7)
    assert float(c.fields("status")["elapsed"]) > second
    assert c.cmd("setvol 40") == ["OK"]
    assert c.fields("getvol")["volume"] == "40"
    sinks = subprocess.run(["pactl", "list", "sink-inputs"], env=pulse, capture_output=True, text=True).stdout
    assert "40%" in sinks, sinks
