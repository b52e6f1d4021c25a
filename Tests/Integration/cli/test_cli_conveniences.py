"""previewctl conveniences users of mpc and cmus-remote expect."""
import subprocess

from helpers import PREVIEWCTL


def queue(daemon, n):
    c = daemon.client()
    for i in range(1, n + 1):
        assert c.cmd(f'add "{daemon.api}/corpus/preview-0{i}.mp3"') == ["OK"]
    return c


def test_version_needs_no_daemon():
    p = subprocess.run([PREVIEWCTL, "--socket", "/nonexistent/s", "version"], capture_output=True, text=True)
    assert (p.returncode, p.stdout) == (0, "previewctl 0.1.0\n")


def test_pause_if_playing(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = queue(d, 2)
    assert d.ctl("pause-if-playing").returncode == 1  # stopped: nothing to pause
    assert d.ctl("play", "--wait").returncode == 0
    assert d.ctl("pause-if-playing").returncode == 0
    assert c.fields("status")["state"] == "pause"
    assert d.ctl("pause-if-playing").returncode == 1


def test_seek_forms(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = queue(d, 1)
    assert d.ctl("play").returncode == 0
    assert d.ctl("pause").returncode == 0
    for arg, want in [("10", 10.0), ("+5", 15.0), ("-3", 12.0), ("50%", 15.0)]:
        p = d.ctl("seek", arg)
        assert p.returncode == 0, p.stderr
        assert abs(float(c.fields("status")["elapsed"]) - want) < 0.05, arg
    assert d.ctl("seek", "abc").returncode == 64
    assert d.ctl("seek", "150%").returncode == 64


def test_insert_crop_move(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = queue(d, 3)
    assert d.ctl("play", "2").returncode == 0
    assert d.ctl("insert", f"{d.api}/corpus/preview-09-vbr.mp3").returncode == 0
    files = [l.split("/")[-1] for l in c.cmd("playlist")[:-1]]
    assert files == ["preview-01.mp3", "preview-02.mp3", "preview-09-vbr.mp3", "preview-03.mp3"]
    assert d.ctl("move", "4", "1").returncode == 0
    files = [l.split("/")[-1] for l in c.cmd("playlist")[:-1]]
    assert files == ["preview-03.mp3", "preview-01.mp3", "preview-02.mp3", "preview-09-vbr.mp3"]
    assert d.ctl("crop").returncode == 0
    assert [l.split("/")[-1] for l in c.cmd("playlist")[:-1]] == ["preview-02.mp3"]
    assert c.fields("status")["state"] == "play"
    assert d.ctl("move", "0", "1").returncode == 64


def test_next_wait(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = queue(d, 2)
    assert d.ctl("play").returncode == 0
    p = d.ctl("next", "--wait")
    assert p.returncode == 0
    assert c.fields("status")["audio"] == "44100:16:2"  # audio of the new song had started
