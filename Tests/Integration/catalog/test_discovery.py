"""Discovery (issue 16, items 2 to 5) against the loopback Deezer stand-in:
genres and genre charts, editorial picks and new releases, radios, "more
like this" from an artist, album or track, the album page, and the
discovery directories MPD clients see in `lsinfo`. Every answer is a
recorded body (catalog.py names which); where Deezer's answer for a list
was not recorded, the stand-in answers Deezer's recorded "no data"."""
import json
import os
import subprocess

import pytest

from helpers import PREVIEWCTL, ROOT_DIRECTORIES, control, fixture as load


def ids(name, prefix, section=None):
    body = load(name)
    data = (body[section] if section else body)["data"]
    return [f"deezer:{prefix}:{x['id']}" for x in data]


def ctl_json(daemon, *args):
    p = daemon.ctl(*args, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def on_terminal(daemon, *args):
    """previewctl's output on a 100-column terminal (`script` gives it one)."""
    env = dict(os.environ, COLUMNS="100", PREVIEWD_SOCKET=daemon.socket)
    command = " ".join([PREVIEWCTL, *(f"'{a}'" for a in args)])
    p = subprocess.run(["script", "-qec", command, "/dev/null"], env=env, capture_output=True, text=True, timeout=30)
    return [l.rstrip("\r") for l in p.stdout.splitlines()]


def test_genres_lists_deezers_genres(daemon):
    doc = ctl_json(daemon, "genres")
    genres = load("genre.json")["data"]
    assert doc["results"] == [{"kind": "genre", "uri": f"deezer:genre:{g['id']}", "name": g["name"]} for g in genres]
    p = daemon.ctl("genres")
    assert p.stdout.splitlines()[1] == "2\tPop\t\t\t\tdeezer:genre:132"


def test_genres_take_limit_and_page(daemon):
    genres = load("genre.json")["data"]  # 23, sent whole: previewd cuts the page
    doc = ctl_json(daemon, "genres", "--limit", "5", "--page", "2")
    assert [r["uri"] for r in doc["results"]] == [f"deezer:genre:{g['id']}" for g in genres[5:10]]
    assert doc["total"] == len(genres) == 23
    assert on_terminal(daemon, "genres", "--limit", "20", "--page", "2")[-1] == "21–23 of 23"
    assert daemon.client().cmd("cataloggenres genre 2")[-1] == "ACK [2@0] {cataloggenres} cataloggenres takes limit and index"


def test_a_genre_chart_by_name_or_id(daemon):
    # /chart/2 was recorded (African Music); its tracks section answers /chart/2/tracks.
    doc = ctl_json(daemon, "chart", "--genre", "african MUSIC")
    assert [r["uri"] for r in doc["results"]] == ids("chart-2.json", "track", "tracks")
    assert doc["total"] == load("chart-2.json")["tracks"]["total"]
    assert all(isinstance(r["duration"], int) for r in doc["results"])
    doc = ctl_json(daemon, "chart", "artists", "--genre", "2", "--limit", "3", "--page", "2")
    assert [r["uri"] for r in doc["results"]] == ids("chart-2.json", "artist", "artists")[3:6]
    # The recorded chart of genre 2 has no albums: an empty page, not an error.
    assert ctl_json(daemon, "chart", "albums", "--genre", "2") == {"results": [], "total": 0}


def test_an_unknown_genre_lists_close_names_and_an_unrecorded_chart_is_no_data(daemon):
    p = daemon.ctl("chart", "--genre", "musik")
    assert (p.returncode, p.stderr) == (
        1, 'previewctl: catalogchart: unknown genre "musik"; close matches: African Music, Asian Music, '
           "Brazilian Music, Indian Music, Latin Music\n")
    # No chart of genre 152 (Rock) was recorded: Deezer's "no data", naming the list.
    p = daemon.ctl("chart", "--genre", "rock")
    assert (p.returncode, p.stderr) == (
        1, 'previewctl: catalogchart: /chart/152/tracks (genre "rock"): not found (Deezer: no data, error 800)\n')
    for args, message in [
        (["radios", "--top", "--genre", "pop"], "radios takes --genre or --top, not both"),
        (["picks", "--top"], "picks does not take --top"),
        (["chart", "--genre", "pop", "--tag", "rock"], "chart takes --genre or --country/--tag, not both"),
        (["releases", "--limit", "0"], '--limit takes a number from 1 to 100, not "0"'),
        (["related", "deezer:playlist:1"],
         'related takes an artist id or deezer:artist:ID, deezer:album:ID, deezer:track:ID, not "deezer:playlist:1"'),
    ]:
        p = daemon.ctl(*args)
        assert p.returncode == 64, args
        assert p.stderr == f"previewctl: {message}. See previewctl {args[0]} --help\n", (args, p.stderr)


def test_picks_and_releases_page_with_a_range(daemon):
    doc = ctl_json(daemon, "picks")
    assert [r["uri"] for r in doc["results"]] == ids("editorial-0-selection.json", "album")
    assert doc["total"] == 10  # an unpaged {data}: its length
    doc = ctl_json(daemon, "releases", "--limit", "5", "--page", "2")
    assert [r["uri"] for r in doc["results"]] == ids("editorial-0-releases.json", "album")[5:10]
    assert doc["total"] == 58
    lines = on_terminal(daemon, "releases", "--limit", "5", "--page", "2")
    # An album's columns, those some release fills (the releases carry a date, no type or track count).
    assert lines[0].split() == ["#", "TITLE", "ARTIST", "YEAR", "URI"]
    assert len(lines) == 7 and lines[-1] == "6–10 of 58"
    # Past the 20 recorded releases the stand-in's page is empty, as Deezer's past the end.
    assert ctl_json(daemon, "releases", "--limit", "20", "--page", "2") == {"results": [], "total": 58}


def test_radios_all_top_and_by_genre(daemon):
    doc = ctl_json(daemon, "radios", "--top")
    top = load("radio-top.json")["data"]
    assert [(r["uri"], r["title"]) for r in doc["results"]] == [(f"deezer:radio:{x['id']}", x["title"].strip()) for x in top]
    assert doc["total"] == 9
    doc = ctl_json(daemon, "radios", "--genre", "electro", "--limit", "10", "--page", "4")
    assert [r["uri"] for r in doc["results"]] == ids("genre-106-radios.json", "radio")[30:]
    assert doc["total"] == 32
    lines = on_terminal(daemon, "radios")
    assert lines[-1] == f"1–25 of {len(load('radio.json')['data'])}"


def test_an_artists_mix_and_more_like_a_track_or_album(daemon):
    mix = ids("artist-27-radio.json", "track")
    assert [r["uri"] for r in ctl_json(daemon, "artist", "27", "--radio")["results"]] == mix
    assert [r["uri"] for r in ctl_json(daemon, "radio", "deezer:artist:27")["results"]] == mix
    assert [r["uri"] for r in ctl_json(daemon, "related", "deezer:track:3135556")["results"]] == mix
    assert [r["uri"] for r in ctl_json(daemon, "related", "27")["results"]] == ids("artist-27-related.json", "artist")
    # No album list of Daft Punk's related artists was recorded (only
    # /artist/27/albums?limit=1): each is "no data", counted as unresolved.
    c = daemon.client()
    assert c.cmd("catalogrelated deezer:album:302127") == ["unresolved: 5", "OK"]
    assert daemon.ctl("related", "deezer:album:302127").stdout == ""
    assert ctl_json(daemon, "related", "deezer:album:302127") == {"results": [], "unresolved": 5}


def test_radio_queues_a_radio_as_itself(daemon):
    p = daemon.ctl("radio", "deezer:radio:31061", "--add")
    assert p.returncode == 0, p.stderr
    queued = [l.split(": ", 1)[1] for l in daemon.client().cmd("playlistinfo") if l.startswith("file: ")]
    assert queued == ids("radio-31061-tracks.json", "track")


def test_album_page_header_then_tracks(daemon):
    lines = on_terminal(daemon, "album", "302127")
    a = load("album-302127.json")
    assert lines[:6] == [a["title"], a["artist"]["name"], f"{a['genres']['data'][0]['name']} · 2001", a["label"],
                         f"{a['nb_tracks']} tracks", ""]
    assert lines[6].split() == ["#", "TITLE", "ARTIST", "ALBUM", "TIME", "URI"]
    assert len(lines) == 7 + a["nb_tracks"]
    doc = ctl_json(daemon, "album", "302127")
    assert doc["results"][0]["genres"] == [g["name"] for g in a["genres"]["data"]]
    assert doc["results"][0]["tracks"] == 14 and doc["results"][0]["fans"] == a["fans"]


def test_album_shuffle_shuffles_only_what_it_queued_and_plays_its_first(daemon_factory):
    daemon = daemon_factory(pace="realtime")
    c = daemon.client()
    assert c.cmd(f'add "{daemon.api}/corpus/preview-01.mp3"') == ["OK"]
    p = daemon.ctl("album", "302127", "--shuffle")
    assert p.returncode == 0, p.stderr
    queued = [l.split(": ", 1)[1] for l in c.cmd("playlistinfo") if l.startswith("file: ")]
    album = ids("album-302127-tracks.json", "track")
    assert queued[0] == f"{daemon.api}/corpus/preview-01.mp3"
    assert sorted(queued[1:]) == sorted(album)
    st = c.fields("status")
    assert st["song"] == "1" and st["state"] == "play"


def test_discovery_directories_in_lsinfo(daemon):
    c = daemon.client()
    assert [l for l in c.cmd("lsinfo") if l.startswith("directory: ")] == [f"directory: {d}" for d in ROOT_DIRECTORIES]
    assert c.cmd("lsinfo deezer:genres") == [f"directory: deezer:genre:{g['id']}" for g in load("genre.json")["data"]] + ["OK"]
    files = [l for l in c.cmd("lsinfo deezer:genre:2") if l.startswith("file: ")]
    assert files == [f"file: {u}" for u in ids("chart-2.json", "track", "tracks")]
    assert c.cmd("lsinfo deezer:genre:152") == [
        "ACK [50@0] {lsinfo} deezer:genre:152: not found (Deezer: no data, error 800)"]
    assert c.cmd("lsinfo deezer:picks") == [f"directory: {u}" for u in ids("editorial-0-selection.json", "album")] + ["OK"]
    assert c.cmd("lsinfo deezer:releases") == [f"directory: {u}" for u in ids("editorial-0-releases.json", "album")] + ["OK"]
    assert c.cmd("lsinfo deezer:radios") == [f"directory: {u}" for u in ids("radio.json", "radio")] + ["OK"]
    radio = [l for l in c.cmd("lsinfo deezer:radio:31061") if l.startswith("file: ")]
    assert radio == [f"file: {u}" for u in ids("radio-31061-tracks.json", "track")]


# What each command asks Deezer for with a cold cache, then again at once
# (warm: within the cache TTL). The related album's five artist album
# lists are "no data" in the stand-in, and errors are not cached.
COSTS = [
    (["genres"], 1, 0),
    (["chart", "--genre", "African Music"], 2, 0),  # /genre, /chart/2/tracks
    (["chart", "albums", "--limit", "5"], 1, 0),
    (["picks"], 1, 0),
    (["releases", "--page", "2", "--limit", "10"], 1, 0),
    (["radios"], 1, 0),
    (["radios", "--top"], 1, 0),
    (["radios", "--genre", "electro"], 2, 0),  # /genre, /genre/106/radios
    (["artist", "27", "--radio"], 1, 0),
    (["related", "deezer:track:3135556"], 2, 0),  # /track, /artist/27/radio
    # /album, /artist/27/related, 5 x /artist/ID/albums?limit=1 (recorded for
    # none of them: Deezer's "no data", which is kept as answers are).
    (["related", "deezer:album:302127"], 7, 0),
    (["album", "302127"], 2, 0),  # /album, /album/ID/tracks
]


@pytest.mark.parametrize("args,cold,warm", COSTS, ids=[" ".join(a) for a, _, _ in COSTS])
def test_request_counts_cold_and_warm(daemon, args, cold, warm):
    def count():
        return control(daemon.api, "count")["api_requests"]
    before = count()
    daemon.ctl(*args)
    middle = count()
    daemon.ctl(*args)
    assert (middle - before, count() - middle) == (cold, warm)
