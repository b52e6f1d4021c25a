"""Native MPRIS: previewd on a private D-Bus session bus as
org.mpris.MediaPlayer2.previewd, driven by Debian's playerctl, busctl,
dbus-send and dbus-monitor as a desktop's media keys and widgets would."""
import os
import signal
import time

import pytest

from helpers import Daemon, SessionBus, wait_for, wait_status

NAME = "org.mpris.MediaPlayer2.previewd"
PATH = "/org/mpris/MediaPlayer2"


class Bus(SessionBus):
    """A private session bus with playerctl and dbus-send aimed at previewd."""

    def ctl(self, *args):
        """playerctl -p previewd ARGS; stdout stripped (None on failure)."""
        r = self.run("playerctl", "-p", "previewd", *args)
        return r.stdout.strip() if r.returncode == 0 else None

    def name_owned(self):
        r = self.run("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                     "org.freedesktop.DBus.NameHasOwner", f"string:{NAME}")
        assert r.returncode == 0, r.stderr
        return "boolean true" in r.stdout


@pytest.fixture
def bus(tmp_path):
    b = Bus(tmp_path)
    yield b
    b.close()


@pytest.fixture
def start(bus, http, tmp_path):
    """Starts previewd (null output, real time) on the bus; all stopped
    before the bus is."""
    made = []

    def make(extra=(), env=None):
        d = Daemon(tmp_path / f"d{len(made)}", http, output="null", pace="realtime", extra=extra,
                   env=bus.env if env is None else env)
        made.append(d)
        # The socket answers before the name is taken: wait for the line
        # that says how MPRIS went.
        if "--no-mpris" not in extra:
            assert wait_for(lambda: "MPRIS: " in d.log()), d.log()
        return d
    yield make
    for d in made:
        d.close()


@pytest.fixture
def playing(start, bus):
    d = start()
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert wait_for(lambda: bus.ctl("status") == "Playing")
    return d, c


def test_introspection_lists_both_interfaces_and_the_root_properties(start, bus):
    start()
    r = bus.run("dbus-send", "--session", "--print-reply", f"--dest={NAME}", PATH,
                "org.freedesktop.DBus.Introspectable.Introspect")
    assert r.returncode == 0, r.stderr
    assert '<interface name="org.mpris.MediaPlayer2">' in r.stdout
    assert '<interface name="org.mpris.MediaPlayer2.Player">' in r.stdout
    r = bus.run("busctl", "--user", "introspect", NAME, PATH)
    assert r.returncode == 0, r.stderr
    assert "org.mpris.MediaPlayer2.Player" in r.stdout and ".OpenUri" in r.stdout

    def prop(name):
        r = bus.run("busctl", "--user", "get-property", NAME, PATH, "org.mpris.MediaPlayer2", name)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()
    assert prop("Identity") == 's "previewd"'
    assert prop("DesktopEntry") == 's "previewd"'
    assert prop("CanQuit") == "b false" and prop("CanRaise") == "b false" and prop("HasTrackList") == "b false"
    assert prop("SupportedUriSchemes") == 'as 2 "deezer" "https"'
    assert prop("SupportedMimeTypes") == 'as 1 "audio/mpeg"'
    assert bus.ctl("status") == "Stopped"


def test_metadata_of_the_playing_song(playing, bus, http):
    d, c = playing
    assert bus.ctl("metadata", "title") == "One More Time"
    assert bus.ctl("metadata", "artist") == "Daft Punk"
    assert bus.ctl("metadata", "album") == "Discovery"
    assert bus.ctl("metadata", "xesam:url") == "deezer:track:3135553"
    assert bus.ctl("metadata", "xesam:trackNumber") == "1"
    # Deezer's /album/ID/image redirects to the album's cover.
    assert bus.ctl("metadata", "mpris:artUrl") == http + "/api/album/302127/image"
    song = c.fields("currentsong")
    # playerctl quotes object paths.
    assert bus.ctl("metadata", "mpris:trackid") == f"'/org/mpris/MediaPlayer2/previewd/song/{song['Id']}'"
    # The decoder's exact length once known, else the catalog's 30 s.
    length = int(bus.ctl("metadata", "mpris:length"))
    assert abs(length - float(c.fields("currentsong")["duration"]) * 1e6) < 1000, length


def test_status_follows_play_pause_and_stop(playing, bus):
    d, c = playing
    assert bus.ctl("pause") == ""
    assert wait_for(lambda: c.fields("status")["state"] == "pause")
    assert bus.ctl("status") == "Paused"
    assert bus.ctl("play-pause") == ""
    assert wait_for(lambda: c.fields("status")["state"] == "play")
    assert bus.ctl("status") == "Playing"
    assert bus.ctl("stop") == ""
    assert wait_for(lambda: c.fields("status")["state"] == "stop")
    assert bus.ctl("status") == "Stopped"
    assert bus.ctl("play") == ""
    assert wait_for(lambda: c.fields("status")["state"] == "play")
    # A media-key binding's dbus-send asks for no reply.
    r = bus.run("dbus-send", "--session", "--type=method_call", f"--dest={NAME}", PATH,
                "org.mpris.MediaPlayer2.Player.PlayPause")
    assert r.returncode == 0, r.stderr
    assert wait_for(lambda: c.fields("status")["state"] == "pause")
    assert bus.ctl("play") == ""
    assert wait_for(lambda: c.fields("status")["state"] == "play")
    # The protocol's own commands show on the bus as well.
    assert c.cmd("pause 1") == ["OK"]
    assert wait_for(lambda: bus.ctl("status") == "Paused")


def test_next_and_previous_change_the_song_and_signal_it(playing, bus):
    d, c = playing
    follower = bus.follow("playerctl", "-p", "previewd", "--follow", "metadata", "title")
    assert wait_for(lambda: "One More Time" in follower.lines), follower.lines
    monitor = bus.monitor(f"type='signal',path='{PATH}'")
    assert c.cmd("next") == ["OK"]
    assert wait_for(lambda: "Aerodynamic" in follower.lines), follower.lines
    assert wait_for(lambda: any("member=PropertiesChanged" in l for l in monitor.lines)), monitor.lines
    assert wait_for(lambda: any('string "Aerodynamic"' in l for l in monitor.lines)), monitor.lines
    assert bus.ctl("next") == ""
    assert wait_for(lambda: c.fields("currentsong").get("Title") == "Digital Love")
    assert wait_for(lambda: "Digital Love" in follower.lines), follower.lines
    assert bus.ctl("previous") == ""
    assert wait_for(lambda: c.fields("currentsong").get("Title") == "Aerodynamic")


def test_position_seeks_and_reads_back(playing, bus):
    d, c = playing
    wait_status(c, "audio", timeout=15)
    monitor = bus.monitor("type='signal',member='Seeked'")
    assert bus.ctl("position", "10") == ""
    assert wait_for(lambda: abs(float(c.fields("status")["elapsed"]) - 10) < 0.5)
    assert abs(float(bus.ctl("position")) - 10) < 0.5
    assert bus.ctl("position", "5-") == ""  # relative: Seek(-5 s)
    assert wait_for(lambda: abs(float(c.fields("status")["elapsed"]) - 5) < 0.5)
    assert abs(float(bus.ctl("position")) - 5) < 0.5
    # A protocol seek is a Seeked signal too.
    assert c.cmd("seekcur 20") == ["OK"]
    assert wait_for(lambda: any("int64 20000000" in l for l in monitor.lines)), monitor.lines
    assert abs(float(bus.ctl("position")) - 20) < 0.5
    assert sum("member=Seeked" in l for l in monitor.lines) == 3, monitor.lines


def test_volume_loop_and_shuffle_both_ways(playing, bus):
    d, c = playing
    assert bus.ctl("volume", "0.5") == ""
    assert wait_for(lambda: c.fields("status")["volume"] == "50")
    assert c.cmd("setvol 30") == ["OK"]
    assert wait_for(lambda: bus.ctl("volume") == "0.300000")
    for loop, repeat, single in (("Playlist", "1", "0"), ("Track", "1", "1"), ("None", "0", "0")):
        assert bus.ctl("loop", loop) == ""
        assert wait_for(lambda: (c.fields("status")["repeat"], c.fields("status")["single"]) == (repeat, single))
        assert bus.ctl("loop") == loop
    assert c.cmd("repeat 1") == ["OK"]
    assert wait_for(lambda: bus.ctl("loop") == "Playlist")
    assert bus.ctl("shuffle", "On") == ""
    assert wait_for(lambda: c.fields("status")["random"] == "1")
    assert c.cmd("random 0") == ["OK"]
    assert wait_for(lambda: bus.ctl("shuffle") == "Off")


def test_open_uri_queues_and_plays_it(start, bus):
    d = start()
    c = d.client()
    assert bus.ctl("open", "deezer:track:3135556") == ""
    assert wait_for(lambda: c.fields("currentsong").get("file") == "deezer:track:3135556")
    assert wait_for(lambda: c.fields("status")["state"] == "play")
    assert wait_for(lambda: bus.ctl("metadata", "title") == "Harder, Better, Faster, Stronger")
    # A web link, as `add` takes it.
    assert bus.ctl("open", "https://www.deezer.com/en/track/3135556") == ""
    assert wait_for(lambda: c.fields("status")["playlistlength"] == "2")
    assert wait_for(lambda: c.fields("status")["song"] == "1")
    r = bus.run("playerctl", "-p", "previewd", "open", "ftp://example.com/x.mp3")
    assert c.fields("status")["playlistlength"] == "2", r


def test_no_mpris_leaves_the_name_unowned(start, bus):
    d = start(extra=("--no-mpris",))
    assert d.client().fields("status")["state"] == "stop"
    assert not bus.name_owned()
    assert "MPRIS" not in d.log()


def test_without_a_session_bus_previewd_runs_and_says_so_once(http, tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    env["XDG_RUNTIME_DIR"] = str(runtime)
    d = Daemon(tmp_path / "d", http, output="null", env=env)
    try:
        c = d.client()
        assert c.cmd("add deezer:track:3135556") == ["OK"]
        assert c.cmd("play") == ["OK"]
        assert c.fields("status")["state"] == "play"
    finally:
        d.close()
    lines = [l for l in d.log().splitlines() if "MPRIS" in l]
    assert len(lines) == 1, lines
    assert "info: MPRIS: no session bus (sd_bus_open_user: " in lines[0] and lines[0].endswith("; media keys need mpDris2")


def test_a_second_previewd_on_the_bus_warns_and_runs_without(start, bus):
    first = start()
    second = start()
    assert second.client().fields("status")["state"] == "stop"
    assert f"warning: MPRIS: {NAME} is owned by another program on the session bus" in second.log()
    assert bus.name_owned()
    first.client().cmd("setvol 40")
    assert wait_for(lambda: bus.ctl("volume") == "0.400000")


def test_the_bus_going_away_leaves_previewd_running(playing, bus):
    d, c = playing
    bus.proc.terminate()
    bus.proc.wait(10)
    assert c.cmd("next") == ["OK"]
    assert wait_for(lambda: "MPRIS: the session bus connection failed" in d.log()), d.log()
    assert c.fields("currentsong")["Title"] == "Aerodynamic"
    assert d.log().count("MPRIS: the session bus connection failed") == 1


def test_a_bus_that_does_not_answer_holds_up_neither_start_nor_stop(bus, http, tmp_path):
    bus.proc.send_signal(signal.SIGSTOP)
    try:
        # Daemon() fails unless the socket answers within 10 s (sd-bus's
        # method call time-out is 25 s).
        d = Daemon(tmp_path / "d", http, output="null", env=bus.env)
        c = d.client()
        assert c.cmd("add deezer:track:3135556") == ["OK"]
        assert c.cmd("play") == ["OK"]
        t = time.time()
        d.close()
        assert time.time() - t < 5
    finally:
        bus.proc.send_signal(signal.SIGCONT)
    assert "MPRIS" not in d.log(), "the bus never answered"
