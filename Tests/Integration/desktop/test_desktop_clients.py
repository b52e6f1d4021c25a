"""Real desktop clients against previewd: ncmpcpp in tmux, and mpDris2 on a
private D-Bus session bus driven by playerctl (how media keys reach it)."""
import os
import shutil
import subprocess

import pytest

from helpers import SessionBus, Tmux, fixture, wait_for


@pytest.fixture
def playing_album(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("play") == ["OK"]
    return d, c


def test_ncmpcpp_shows_queue_and_current_song(playing_album, tmp_path):
    d, c = playing_album
    app = Tmux(dict(os.environ, HOME=str(tmp_path), MPD_HOST=d.socket, TERM="xterm"), ["ncmpcpp"], size=(140, 30))
    try:
        # ncmpcpp writes the item count into the header a redraw after
        # the songs (CI once caught the screen between the two).
        text = app.shows("Too Long", "Playing", "Playlist (14 items", timeout=15)
        for title in ("One More Time", "Aerodynamic", "Harder, Better, Faster, Stronger", "Too Long"):
            assert title in text
        status_line = [line for line in text.splitlines() if "Playing" in line]
        assert status_line, text
        # ncmpcpp's status line: "Playing: Daft Punk - "Discovery" - One More Time  [m:ss/0:30]"
        assert "Daft Punk" in status_line[-1] and "One More Time" in status_line[-1], status_line
    finally:
        app.close()


def test_ncmpcpp_browses_the_charts_by_name_in_rank_order(daemon_factory, tmp_path):
    d = daemon_factory(output="null", pace="realtime")
    app = Tmux(dict(os.environ, HOME=str(tmp_path), MPD_HOST=d.socket, TERM="xterm"), ["ncmpcpp"], size=(140, 30))
    try:
        app.shows("Playlist", timeout=15)
        app.keys("2")
        app.shows("Browse: /", "[Library]", "[Listen Now]", "[Charts]", "[Top Picks]")
        app.keys("Down", "Down", "Down", "Enter")
        app.shows("Browse: Charts", "[Top Albums]", "playlist Top Tracks")
        app.keys("Down", "Enter")
        screen = app.shows("Browse: Charts/Top Albums", "playlist 10 ")
        shown = [line.strip()[len("playlist "):] for line in screen.splitlines() if line.startswith("playlist ")]
        albums = fixture("chart-0.json")["albums"]["data"]
        assert shown == [f"{i:02d} {a['title']} - {a['artist']['name']}" for i, a in enumerate(albums, 1)]
        # Back to Charts; Enter on the Top Tracks entry loads and plays it.
        app.keys("Enter")
        app.shows("Browse: Charts")
        app.keys("Down", "Down", "Down", "Down", "Enter")  # past Top Artists, Top Playlists, By Country
        app.shows('Playlist "Charts/Top Tracks" loaded')
        chart = [f"file: deezer:track:{t['id']}" for t in fixture("chart-0-tracks.json")["data"]]
        c = d.client()
        assert wait_for(lambda: [l for l in c.cmd("playlistinfo") if l.startswith("file: ")] == chart)
    finally:
        app.close()


@pytest.fixture
def session_bus(tmp_path):
    """A private D-Bus session bus (HOME is tmp_path in its `env`)."""
    bus = SessionBus(tmp_path)
    yield bus
    bus.close()


def test_mpdris2_exposes_previewd_over_mpris(playing_album, session_bus, tmp_path):
    d, c = playing_album
    env = dict(session_bus.env, MPD_HOST=d.socket)
    bridge = subprocess.Popen([shutil.which("mpDris2")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def ctl(*args):
            return subprocess.run(["playerctl", "--player=mpd", *args], env=env, capture_output=True, text=True)

        def current_title():
            r = ctl("metadata", "title")
            return r.stdout.strip() if r.returncode == 0 else None
        title = wait_for(current_title)
        assert title == "One More Time"
        assert ctl("metadata", "artist").stdout.strip() == "Daft Punk"
        assert ctl("status").stdout.strip() == "Playing"

        assert ctl("next").returncode == 0
        assert wait_for(lambda: c.fields("currentsong").get("Title") == "Aerodynamic")
        assert wait_for(lambda: ctl("metadata", "title").stdout.strip() == "Aerodynamic")

        assert ctl("play-pause").returncode == 0
        assert wait_for(lambda: c.fields("status")["state"] == "pause")
        assert wait_for(lambda: ctl("status").stdout.strip() == "Paused")

        assert ctl("play-pause").returncode == 0
        assert wait_for(lambda: c.fields("status")["state"] == "play")

        assert ctl("previous").returncode == 0
        assert wait_for(lambda: c.fields("currentsong").get("Title") == "One More Time")
    finally:
        bridge.terminate()
        bridge.wait(10)
