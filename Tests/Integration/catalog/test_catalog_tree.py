"""Issue 33: the catalog as MPD clients browse it. Sections with human names
at the root, catalog items as playlist entries named "NN Title - Artist"
(ranked where the catalog's order means something), names that work
wherever a URI does (lsinfo, add, load, listplaylistinfo, playlistadd,
findadd base, sticker find) and after a restart, and a whole-tree walk that
costs a handful of API requests and finds the Library's songs alone."""
import json
import os
import subprocess

import catalog
from helpers import COVER_PATH, ROOT_DIRECTORIES, Daemon, album_tracks, control, fixture, mpc_env, restart

ALBUM = "302127"


def names(lines, key):
    return [l[len(key) + 2:] for l in lines if l.startswith(key + ": ")]


def picks():
    """(title, artist, id) of the recorded editorial selection, in order."""
    return [(a["title"], a["artist"]["name"], a["id"]) for a in fixture("editorial-0-selection.json")["data"]]


def test_the_root_lists_sections_by_name_then_stored_playlists(daemon):
    c = daemon.client()
    assert c.cmd("save mix") == ["OK"]
    lines = c.cmd("lsinfo")
    assert names(lines, "directory") == ROOT_DIRECTORIES
    assert names(lines, "playlist") == ["mix"]


def test_top_picks_are_named_and_ranked_so_sorting_keeps_the_order(daemon):
    c = daemon.client()
    lines = c.cmd('lsinfo "Top Picks"')
    expected = [f"Top Picks/{i:02d} {t} - {a}" for i, (t, a, _) in enumerate(picks(), 1)]
    assert names(lines, "playlist") == expected and lines[-1] == "OK", lines
    assert sorted(expected) == expected
    # Listen Now's copy is the same list under its own path.
    assert names(c.cmd('lsinfo "Listen Now/Top Picks"'), "playlist")[0] == "Listen Now/" + expected[0]


def test_charts_and_listen_now(daemon):
    c = daemon.client()
    assert c.cmd('lsinfo "Charts"') == ["playlist: Charts/Top Tracks", "directory: Charts/Top Albums",
                                        "directory: Charts/Top Artists", "directory: Charts/Top Playlists",
                                        "directory: Charts/By Country", "OK"]
    # Without a Last.fm key, the countries Deezer keeps a chart of itself,
    # each its "Top COUNTRY" playlist (not recorded: catalog.country_chart_tracks).
    assert names(c.cmd('lsinfo "Charts/By Country"'), "playlist") == [f"Charts/By Country/{n}" for n in [
        "Australia", "Brazil", "Canada", "Colombia", "France", "Germany", "Italy", "Japan", "Mexico", "South Korea",
        "Spain", "United Kingdom", "United States"]]
    germany = catalog.country_chart_tracks(catalog.COUNTRY_CHARTS["DE"], {"limit": ["100"], "index": ["0"]})["data"]
    assert names(c.cmd('listplaylist "Charts/By Country/Germany"'), "file") == [
        f"deezer:track:{t['id']}" for t in germany]
    chart = [f"deezer:track:{t['id']}" for t in fixture("chart-0-tracks.json")["data"]]
    assert names(c.cmd('lsinfo "Charts/Top Tracks"'), "file") == chart
    assert names(c.cmd('lsinfo "Charts/Top Albums"'), "playlist")[:2] == [
        "Charts/Top Albums/01 Multitude - Stromae", "Charts/Top Albums/02 Caméléon - ZKR"]
    assert names(c.cmd('lsinfo "Charts/Top Artists"'), "playlist")[0].startswith("Charts/Top Artists/01 ")
    assert names(c.cmd('lsinfo "Charts/Top Playlists"'), "playlist")[0] == (
        "Charts/Top Playlists/01 Les titres du moment")
    # Nothing saved or played: More like starts from the chart's top album.
    top = fixture("chart-0-albums.json")["data"][0]["title"]
    assert names(c.cmd('lsinfo "Listen Now"'), "directory") == [
        "Listen Now/Top Picks", "Listen Now/New Releases", f'Listen Now/More like "{top}"', "Listen Now/Want to Listen"]
    assert c.cmd(f"libraryadd deezer:album:{ALBUM}") == ["OK"]
    more = 'Listen Now/More like "Discovery"'
    assert names(c.cmd('lsinfo "Listen Now"'), "directory") == [
        "Listen Now/Top Picks", "Listen Now/New Releases", more, "Listen Now/Want to Listen"]
    entries = names(c.cmd('lsinfo "Listen Now/More like \\"Discovery\\""'), "playlist")
    assert entries and all(e.startswith(more + "/0") for e in entries), entries


def test_names_work_wherever_a_uri_does(daemon):
    c = daemon.client()
    assert c.cmd(f"wantadd deezer:album:{ALBUM}") == ["OK"]
    assert c.cmd("wantadd deezer:track:3135556") == ["OK"]
    lines = c.cmd('lsinfo "Want to Listen"')
    assert names(lines, "playlist") == ["Want to Listen/Discovery - Daft Punk", "Want to Listen/Tracks"]
    entry = "Want to Listen/Discovery - Daft Punk"
    tracks = [f"deezer:track:{t['id']}" for t in album_tracks()]
    assert names(c.cmd(f'lsinfo "{entry}"'), "file") == tracks
    assert names(c.cmd(f'listplaylist "{entry}"'), "file") == tracks
    assert names(c.cmd(f'listplaylistinfo "{entry}" 0:2'), "file") == tracks[:2]
    assert names(c.cmd(f'listfiles "{entry}"'), "file") == tracks
    assert c.cmd(f'add "{entry}"') == ["OK"]
    assert c.cmd(f'load "{entry}" 0:1') == ["OK"]
    ids = c.cmd('addid "Want to Listen/Tracks"')
    assert ids[-1] == "OK" and len(ids) == 2, ids
    assert names(c.cmd("playlistinfo"), "file") == tracks + tracks[:1] + ["deezer:track:3135556"]
    assert c.cmd(f'playlistadd keep "{entry}"') == ["OK"]
    assert names(c.cmd("listplaylist keep"), "file") == tracks
    assert c.cmd("clear") == ["OK"]
    assert c.cmd(f"findadd \"((base '{entry}') AND (title == 'One More Time'))\"") == ["OK"]
    assert names(c.cmd("playlistinfo"), "file") == tracks[:1]
    assert c.cmd(f"sticker set song {tracks[1]} rating 4") == ["OK"]
    assert c.cmd(f'sticker find song "{entry}" rating') == [f"file: {tracks[1]}", "sticker: rating=4", "OK"]


def test_a_name_resolves_after_a_restart(tmp_path, http):
    d = Daemon(tmp_path / "d", http)
    c = d.client()
    assert c.cmd(f"wantadd deezer:album:{ALBUM}") == ["OK"]
    entry = "Want to Listen/Discovery - Daft Punk"
    assert names(c.cmd('lsinfo "Want to Listen"'), "playlist") == [entry]
    d = restart(d, http)
    try:
        c = d.client()
        # Never listed by this daemon: found again by listing its directory.
        tracks = [f"deezer:track:{t['id']}" for t in album_tracks()]
        assert names(c.cmd(f'lsinfo "{entry}"'), "file") == tracks
        assert c.cmd('lsinfo "Top Picks/99 Nothing - Nobody"') == ["ACK [50@0] {lsinfo} No such directory"]
        assert c.cmd('add "Want to Listen/Nothing"') == ["ACK [50@0] {add} No such directory"]
    finally:
        d.close()


def test_catalog_text_becomes_one_clean_unique_name(daemon):
    c = daemon.client()
    genres = names(c.cmd('lsinfo "Genres"'), "playlist")
    assert "Genres/Rap\u2215Hip Hop" in genres and "Genres/Films\u2215Games" in genres
    radios = names(c.cmd('lsinfo "Radios"'), "playlist")
    assert len(radios) == len(set(radios)) == 139
    assert "Radios/80's" in radios and "Radios/Hits" in radios and "Radios/Hits (2)" in radios
    assert all("/" not in r[len("Radios/"):] for r in radios)


def test_a_section_of_albums_is_not_queued_whole(daemon):
    c = daemon.client()
    assert c.cmd('add "Top Picks"') == [
        "ACK [2@0] {add} Top Picks is a directory of albums or lists: add one of its entries"]
    assert c.cmd('add "Library"') == ["OK"]
    assert c.cmd('lsinfo "Top Picks/00 Nothing"') == ["ACK [50@0] {lsinfo} No such directory"]


def quoted(text):
    """An argument as libmpdclient quotes it."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def walk(c, path=""):
    """Cantata's library walk: lsinfo from the root, into every directory
    listed; returns the songs found."""
    songs = []
    for line in c.cmd(f"lsinfo {quoted(path)}" if path else "lsinfo"):
        assert not line.startswith("ACK"), (path, line)
        if line.startswith("directory: "):
            songs += walk(c, line[len("directory: "):])
        elif line.startswith("file: "):
            songs.append(line[len("file: "):])
    return songs


def test_a_whole_tree_walk_costs_few_requests_and_finds_the_library_alone(daemon, http):
    c = daemon.client()
    assert c.cmd(f"libraryadd deezer:album:{ALBUM}") == ["OK"]
    assert c.cmd("wantadd deezer:track:3135556") == ["OK"]
    api = lambda: [p for p in control(http, "log") if p.startswith("/api/")]  # noqa: E731
    before = len(api())
    found = walk(c)
    walked = api()[before:]
    assert found == [f"deezer:track:{t['id']}" for t in album_tracks()]
    # Each section once: Top Picks, New Releases, the chart (one answer for
    # its albums, artists and playlists), genres, radios, and More like's
    # genre chart (Discovery's genre has none recorded, so the chart of all).
    assert sorted(walked) == sorted(["/api/editorial/0/selection", "/api/editorial/0/releases?index=0&limit=100",
                                     "/api/chart/0", "/api/genre", "/api/radio",
                                     "/api/chart/113/albums?index=0&limit=25", "/api/chart/0/albums?index=0&limit=25"])
    # A second walk is answered from the cache.
    before = len(api())
    assert walk(c) == found
    assert api()[before:] == []


def test_mpc_lists_and_loads_by_name(daemon):
    env = mpc_env(daemon)

    def mpc(*args):
        p = subprocess.run(["mpc", *args], env=env, capture_output=True, text=True, timeout=20)
        return p.returncode, p.stdout, p.stderr
    assert mpc("ls") == (0, "".join(d + "\n" for d in ROOT_DIRECTORIES), "")
    assert mpc("ls", "Charts") == (0, "Charts/Top Tracks\nCharts/Top Albums\nCharts/Top Artists\nCharts/Top Playlists\n"
                                      "Charts/By Country\n", "")
    assert mpc("load", "Charts/Top Tracks") == (0, "loading: Charts/Top Tracks\n", "")
    tracks = fixture("chart-0-tracks.json")["data"]
    code, out, _ = mpc("playlist")
    assert (code, out.splitlines()) == (0, [f"{t['artist']['name']} - {t['title']}" for t in tracks])


def test_albumart_of_an_entry_is_its_albums_cover(daemon):
    c = daemon.client()
    assert c.cmd(f"wantadd deezer:album:{ALBUM}") == ["OK"]
    entry = "Want to Listen/Discovery - Daft Punk"
    cover = catalog.cover_bytes(COVER_PATH)
    for uri in (entry, entry + "/"):  # Cantata adds the slash of a "directory"
        lines = c.cmd(f'albumart "{uri}" {len(cover)}')
        assert lines == [f"size: {len(cover)}", "binary: 0", "", "OK"], lines
    assert c.cmd('albumart "Want to Listen/Nothing" 0') == ["ACK [50@0] {albumart} No such directory"]
    assert c.cmd('readpicture "Genres/Pop" 0') == ["OK"]


def test_country_charts_with_a_lastfm_key(daemon_factory, http):
    d = daemon_factory(extra=("--lastfm-key", "test-key", "--lastfm-base", http + "/lastfm/2.0/"))
    c = d.client()
    assert names(c.cmd('lsinfo "Charts"'), "directory")[-1] == "Charts/By Country"
    countries = names(c.cmd('lsinfo "Charts/By Country"'), "playlist")
    assert "Charts/By Country/Canada" in countries and "Charts/By Country/United States" in countries
    assert countries == sorted(countries)
    # The same songs as `catalogchart tracks country canada` (Last.fm's
    # recorded chart, each entry found on Deezer), in its order.
    chart = names(c.cmd("catalogchart tracks country canada"), "file")
    assert chart and names(c.cmd('listplaylist "Charts/By Country/Canada"'), "file") == chart
    assert c.cmd('load "Charts/By Country/Canada"') == ["OK"]
    assert names(c.cmd("playlistinfo"), "file") == chart


def test_want_to_listen_keeps_the_names_it_was_given(tmp_path, http):
    d = Daemon(tmp_path / "d", http)
    c = d.client()
    assert c.cmd(f"wantadd deezer:album:{ALBUM}") == ["OK"]
    assert names(c.cmd('lsinfo "Want to Listen"'), "playlist") == ["Want to Listen/Discovery - Daft Punk"]
    with open(os.path.join(d.tmp, "state", "want.json")) as f:
        kept = json.load(f)
    assert [(e["uri"], e["name"], e["artist"]) for e in kept] == [(f"deezer:album:{ALBUM}", "Discovery", "Daft Punk")]
    d = restart(d, http)
    try:
        api = lambda: [p for p in control(http, "log") if p.startswith("/api/")]  # noqa: E731
        before = len(api())
        # A fresh daemon lists the list by the kept names, asking nothing.
        assert names(d.client().cmd('lsinfo "Want to Listen"'), "playlist") == ["Want to Listen/Discovery - Daft Punk"]
        assert api()[before:] == []
    finally:
        d.close()
