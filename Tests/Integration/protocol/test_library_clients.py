"""The Library as real MPD clients show a database: ncmpcpp's media
library, ncmpc's library screen (both in tmux, driven by their keys) and
the commands Cantata's library view sends. The Library holds album 302127
(Discovery, recorded bodies), saved through the protocol."""
import os

import pytest

from helpers import Ncmpc, Tmux, album_tracks, wait_for


@pytest.fixture
def saved(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd("libraryadd deezer:album:302127") == ["OK"]
    return d, c


def test_ncmpcpp_media_library_shows_the_library(saved, tmp_path):
    d, c = saved
    app = Tmux(dict(os.environ, HOME=str(tmp_path), MPD_HOST=d.socket, TERM="xterm", LANG="C.UTF-8"), ["ncmpcpp"], size=(160, 40))
    try:
        app.shows("Playlist")
        app.keys("4")
        # Artists from `list albumartist`, albums with their Date, songs with
        # their Track numbers: the tags the Library's songs carry.
        screen = app.shows("Artists", "Albums", "Songs", "(2001-03-07) Discovery", "01 - One More Time", "14 - Too Long")
        assert "Daft Punk" in screen.split("Artists", 1)[1]
        app.keys("Right", "Right", "Down", "Down", "Down", "Enter")  # the fourth song
        assert wait_for(lambda: any(l == "file: deezer:track:3135556" for l in c.cmd("playlistinfo"))), c.cmd("playlistinfo")
    finally:
        app.close()


def test_ncmpc_library_screen_browses_artist_album_song(saved, tmp_path):
    d, c = saved
    app = Ncmpc(d, tmp_path)
    try:
        app.shows("1:Help", "2:Queue")
        app.keys("4")
        app.shows("Daft Punk")  # the artists `list albumartist` gives
        app.keys("Enter")
        # One album: ncmpc goes straight to the artist's songs.
        screen = app.shows("4:Songs: Daft Punk", "Daft Punk - One More Time", "Daft Punk - Too Long")
        assert sum("Daft Punk - " in l for l in screen.splitlines()) == len(album_tracks()) == 14
        app.keys("Down", "Enter")
        assert wait_for(lambda: "file: deezer:track:3135553" in c.cmd("playlistinfo")), c.cmd("playlistinfo")
    finally:
        app.close()
