"""previewctl current and watch, for status bars."""
import json
import subprocess
import time

from conftest import PREVIEWCTL


def test_current_formats(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    assert d.ctl("current").stdout == "stopped\n"
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert c.cmd("pause") == ["OK"]
    assert d.ctl("current").stdout == "paused: Daft Punk - One More Time 0:00/0:30\n"
    out = d.ctl("current", "--format", "%title% (%position%/%length%)[ on %bogus%]").stdout
    assert out == "One More Time (1/14)\n"
    doc = json.loads(d.ctl("current", "--json").stdout)
    assert doc["title"] == "One More Time" and doc["state"] == "paused" and doc["length"] == "14"


def test_watch_prints_a_line_per_change(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    p = subprocess.Popen([PREVIEWCTL, "--socket", d.socket, "watch", "--format", "%state%[ %title%]"],
                         stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline() == "stopped\n"
        assert c.cmd("play") == ["OK"]
        assert p.stdout.readline() == "playing One More Time\n"
        assert c.cmd("next") == ["OK"]
        assert p.stdout.readline() == "playing Aerodynamic\n"
        assert c.cmd("pause") == ["OK"]
        assert p.stdout.readline() == "paused Aerodynamic\n"
        assert c.cmd("stop") == ["OK"]
        assert p.stdout.readline() == "stopped\n"
    finally:
        p.kill()
        p.wait()


def test_watch_interval_ticks(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("play") == ["OK"]
    p = subprocess.Popen([PREVIEWCTL, "--socket", d.socket, "watch", "--interval", "0.3", "--format", "%elapsed%"],
                         stdout=subprocess.PIPE, text=True)
    try:
        t0 = time.time()
        lines = [p.stdout.readline() for _ in range(4)]
        assert time.time() - t0 < 5
        assert all(l.strip().startswith("0:0") for l in lines), lines
    finally:
        p.kill()
        p.wait()
