"""ncmpc 0.47 (Debian's) in tmux against previewd, driven by its keys as a
user would: browse the charts by name in rank order and load the top tracks, search by Artist and by
Filename, play from the queue. Each step is checked on ncmpc's screen and
through the protocol."""
import re

import pytest

from helpers import Ncmpc, fixture, wait_for

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


def test_browse_the_charts_by_name_in_rank_order_and_load_the_top_tracks(ncmpc):
    d, app = ncmpc
    app.keys("3")
    app.shows("[Charts]", "[Genres]", "[Library]", "[Listen Now]", "[New Releases]", "[Radios]", "[Top Picks]",
              "[Want to Listen]")
    app.keys("Enter")
    app.shows("Browse: Charts", "[By Country]", "[Top Albums]", "[Top Artists]", "[Top Playlists]", "Top Tracks")
    app.keys("Down", "Down", "Enter")  # past [By Country], first by name
    screen = app.shows("Browse: Charts/Top Albums", "01 Multitude - Stromae", "10 Dans ma tête - Mehdi YZ")
    # ncmpc sorts by name; the ranks keep the chart's order.
    ranked = [line.strip() for line in screen.splitlines() if re.match(r"\d\d ", line)]
    albums = fixture("chart-0.json")["albums"]["data"]
    assert ranked == [f"{i:02d} {a['title']} - {a['artist']['name']}" for i, a in enumerate(albums, 1)]
    app.keys("Enter")  # [..]: back to Charts, on Top Albums
    app.shows("Browse: Charts", "[Top Albums]")
    app.keys("Down", "Down", "Down", "Enter")  # Top Tracks, a playlist entry: Enter loads it
    app.shows("Loading playlist 'Top Tracks'")
    c = d.client()
    chart = [f"deezer:track:{t['id']}" for t in fixture("chart-0-tracks.json")["data"]]
    assert wait_for(lambda: queued_files(c) == chart), queued_files(c)


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
