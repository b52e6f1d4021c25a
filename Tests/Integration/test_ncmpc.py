"""ncmpc 0.47 (Debian's) in tmux against previewd, driven by its keys as a
user would: browse the chart and add a song, search by Artist and by
Filename, play from the queue. Each step is checked on ncmpc's screen and
through the protocol."""
import pytest

from helpers import Ncmpc, wait_for

TRACK = 3135556  # Harder, Better, Faster, Stronger (recorded /track/3135556)


@pytest.fixture
def ncmpc(daemon_factory, tmp_path):
    d = daemon_factory(output="null", pace="realtime")
    app = Ncmpc(d, tmp_path)
    app.shows("1:Help", "2:Queue")
    yield d, app
    app.close()


def queued_files(client):
    return [l.split(": ", 1)[1] for l in client.cmd("playlistinfo") if l.startswith("file: ")]


def test_browse_the_chart_and_add_a_song(ncmpc):
    d, app = ncmpc
    app.keys("3")
    app.shows("[deezer:chart]", "[deezer:wantlist]", "[deezer:library]", "[deezer:genres]", "[deezer:radios]")
    app.keys("Enter")
    app.shows("Browse: deezer:chart", "Vilma Palma e Vampiros - Bye Bye", "Claudio Baglioni - E Tu...")
    app.keys("Down", "Enter")
    app.shows("Adding 'Vilma Palma e Vampiros - Bye Bye' to queue")
    c = d.client()
    assert wait_for(lambda: queued_files(c) == ["deezer:track:1785698"]), queued_files(c)


def test_search_by_artist_shows_the_catalog_results(ncmpc):
    d, app = ncmpc
    app.search(1, "eminem")
    text = app.shows("Search 'eminem' [Artist]", "Eminem - ")
    # Every result the filter kept is by Eminem (Deezer's matching is looser).
    results = [l for l in text.splitlines() if " - " in l and "0:" in l]
    assert results and all(l.startswith("Eminem") for l in results), text


def test_search_by_filename_finds_a_catalog_uri_and_keeps_the_connection(ncmpc):
    d, app = ncmpc
    app.search(3, f"deezer:track:{TRACK}")
    app.shows(f"Search 'deezer:track:{TRACK}' [Filename]", "Daft Punk - Harder, Better, Faster, Stronger")
    # A word no URI holds: an empty result, not the ACK that made ncmpc reconnect.
    assert d.client().cmd('search file "eminem"') == ["OK"]


def test_play_from_the_queue_screen(ncmpc):
    d, app = ncmpc
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    app.keys("2")
    app.shows("Daft Punk - One More Time", "Daft Punk - Too Long")
    app.keys("Down", "Enter")
    st = d.wait_state(c, "play")
    assert st["song"] == "1", st
    app.shows("Aerodynamic")
    assert wait_for(lambda: "Playing" in app.screen() or "playing" in app.screen().lower()), app.screen()
