"""previewctl current and watch, for status bars."""
import json
import subprocess
import time

from helpers import PREVIEWCTL, Daemon


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
    assert doc["title"] == "One More Time" and doc["state"] == "paused" and doc["length"] == 14 and doc["volume"] == 100
    assert (doc["position"], doc["elapsed"], doc["duration_seconds"]) == (1, "0:00", 30)
    assert isinstance(doc["percent"], int) and 0 <= doc["percent"] < 5


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


def test_watch_waits_for_the_daemon_and_follows_its_restarts(tmp_path, http):
    sock = tmp_path / "d" / "run" / "socket"
    p = subprocess.Popen([PREVIEWCTL, "--socket", str(sock), "watch", "--format", "%state%"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline() == "previewd not running\n"
        d = Daemon(tmp_path / "d", http, output="null")
        assert p.stdout.readline() == "stopped\n"
        assert d.client().cmd("add deezer:track:3135553") == ["OK"] and d.client().cmd("play") == ["OK"]
        assert p.stdout.readline() == "playing\n"
        d.close()
        assert p.stdout.readline() == "previewd not running\n"
        d = Daemon(tmp_path / "d", http, output="null")
        assert p.stdout.readline() == "paused\n", "the restored session comes back paused"
        d.close()
        assert p.poll() is None, "watch outlives the daemon"
    finally:
        p.kill()
        p.wait()
    assert p.stderr.read() == ""


def test_watch_json_says_not_running(tmp_path):
    p = subprocess.Popen([PREVIEWCTL, "--socket", str(tmp_path / "none"), "watch", "--json"],
                         stdout=subprocess.PIPE, text=True)
    try:
        assert json.loads(p.stdout.readline()) == {"state": "not running"}
    finally:
        p.kill()
        p.wait()
