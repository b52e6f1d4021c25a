"""previewctl's catalog subcommands against the loopback Deezer stand-in."""
import json
import os
import subprocess

from helpers import PREVIEWCTL, control, fixture as load


def test_album_plain_lines_when_piped(daemon):
    p = daemon.ctl("album", "302127")
    assert p.returncode == 0, p.stderr
    tracks = load("album-302127-tracks.json")["data"]
    assert p.stdout == "".join(
        f"{i + 1}\t{t['title']}\tDaft Punk\tDiscovery\t0:30\tdeezer:track:{t['id']}\n" for i, t in enumerate(tracks))


def test_search_json_has_stable_fields(daemon):
    p = daemon.ctl("search", "eminem", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    data = load("search-eminem.json")
    assert doc["total"] == data["total"]
    assert [r["uri"] for r in doc["results"]] == [f"deezer:track:{t['id']}" for t in data["data"]]
    first = doc["results"][0]
    assert first == {"kind": "track", "uri": f"deezer:track:{data['data'][0]['id']}",
                     "artist": data["data"][0]["artist"]["name"], "title": data["data"][0]["title"],
                     "album": data["data"][0]["album"]["title"], "duration": 30}


def test_search_playlists_and_radios(daemon):
    p = daemon.ctl("search", "playlists", "daft punk", "--json")
    assert p.returncode == 0, p.stderr
    doc, data = json.loads(p.stdout), load("search-playlist-daft-punk.json")
    assert doc["total"] == data["total"] == 303
    assert [r["uri"] for r in doc["results"]] == [f"deezer:playlist:{x['id']}" for x in data["data"]]
    assert doc["results"][0]["kind"] == "playlist" and doc["results"][0]["title"] == "100% Daft Punk"
    p = daemon.ctl("search", "radio", "electro", "--json")
    doc, data = json.loads(p.stdout), load("search-radio-electro.json")
    assert [(r["kind"], r["uri"], r["title"]) for r in doc["results"]] == [
        ("radio", f"deezer:radio:{x['id']}", x["title"]) for x in data["data"]]
    assert daemon.ctl("search", "radios", "daft punk").stdout == ""
    p = daemon.ctl("search", "radios", "x", "--bpm-min", "100")
    assert (p.returncode, p.stderr) == (
        64, "previewctl: radios are searched by name only, without --bpm-min. See previewctl search --help\n")


def test_every_search_field_is_an_option(daemon):
    mark = len(control(daemon.api, "log"))
    p = daemon.ctl("search", "not afraid", "--artist", "eminem", "--track", "not afraid", "--label", "aftermath",
                   "--dur-min", "200", "--dur-max", "300", "--bpm-min", "80", "--bpm-max", "120", "--limit", "15", "--page", "2")
    assert p.returncode == 0, p.stderr
    from urllib.parse import unquote
    sent = [unquote(x[x.index("/search"):]) for x in control(daemon.api, "log")[mark:] if "/search" in x]
    assert sent == ['/search/track?q=not afraid artist:"eminem" track:"not afraid" label:"aftermath" '
                    'dur_min:200 dur_max:300 bpm_min:80 bpm_max:120&index=15&limit=15'], sent
    for args, message in [(["search", "x", "--dur-min", "abc"], '--dur-min takes a number from 0 to 100000, not "abc"'),
                          (["search", "x", "--label"], "--label needs a value")]:
        p = daemon.ctl(*args)
        assert (p.returncode, p.stderr) == (64, f"previewctl: {message}. See previewctl search --help\n"), args


def test_a_search_on_a_terminal_says_where_the_page_stands(daemon):
    env = dict(os.environ, COLUMNS="120", PREVIEWD_SOCKET=daemon.socket)
    p = subprocess.run(["script", "-qec", f"{PREVIEWCTL} search playlists 'daft punk' --limit 25 --page 2", "/dev/null"],
                       env=env, capture_output=True, text=True, timeout=30)
    lines = [l.rstrip("\r") for l in p.stdout.splitlines()]
    # The stand-in answers the recorded first page whatever the index.
    assert lines[-1] == "26–50 of 303", lines[-3:]


def test_chart_kinds_as_json(daemon):
    for kind in ("tracks", "albums", "artists", "playlists"):
        p = daemon.ctl("chart", kind, "--json")
        assert p.returncode == 0, p.stderr
        uris = [r["uri"] for r in json.loads(p.stdout)["results"]]
        prefix = kind[:-1]
        assert uris == [f"deezer:{prefix}:{x['id']}" for x in load("chart.json")[kind]["data"]]


def test_artist_lists_top_tracks_then_albums_then_related_artists(daemon):
    p = daemon.ctl("artist", "deezer:artist:27", "--json")
    doc = json.loads(p.stdout)
    kinds = [r["kind"] for r in doc["results"]]
    top = load("artist-27-top.json")["data"]
    albums = load("artist-27-albums.json")["data"] + load("artist-27-albums-index25-last-page.json")["data"]
    related = load("artist-27-related.json")["data"]
    assert kinds == ["track"] * len(top) + ["album"] * len(albums) + ["artist"] * len(related)


def test_table_on_a_terminal_fits_its_width(daemon, tmp_path):
    # `script` gives previewctl a terminal; COLUMNS sets its width.
    env = dict(os.environ, COLUMNS="100", PREVIEWD_SOCKET=daemon.socket)
    p = subprocess.run(["script", "-qec", f"{PREVIEWCTL} chart tracks", "/dev/null"], env=env,
                       capture_output=True, text=True, timeout=30)
    lines = [l.rstrip("\r") for l in p.stdout.splitlines()]
    assert lines[0].split() == ["#", "TITLE", "ARTIST", "ALBUM", "TIME", "URI"]
    chart = load("chart-0-tracks.json")
    # A header, the tracks, then the range shown of the chart's total.
    assert len(lines) == 1 + len(chart["data"]) + 1
    assert lines[-1] == f"1–{len(chart['data'])} of {chart['total']}"
    assert all(len(l) <= 100 for l in lines), [len(l) for l in lines]
    assert "…" in p.stdout  # long titles are cut


def test_info_prints_fields(daemon):
    p = daemon.ctl("info", "deezer:album:302127")
    assert p.returncode == 0
    assert p.stdout.splitlines()[:3] == ["album: deezer:album:302127", "Title: Discovery", "Artist: Daft Punk"]


def test_add_and_play_results(daemon_factory):
    # Real-time pacing: unpaced, the first album track can end before status is read.
    daemon = daemon_factory(pace="realtime")
    c = daemon.client()
    assert c.cmd(f'add "{daemon.api}/corpus/preview-01.mp3"') == ["OK"]
    p = daemon.ctl("album", "302127", "--play")
    assert p.returncode == 0, p.stderr
    st = c.fields("status")
    assert st["playlistlength"] == "15"
    assert st["song"] == "1" and st["state"] == "play"
    assert c.fields("currentsong")["Album"] == "Discovery", "queued as the album, so songs carry its title"
    p = daemon.ctl("chart", "tracks", "--add")
    assert p.returncode == 0, p.stderr
    assert c.fields("status")["playlistlength"] == str(15 + len(load("chart-0-tracks.json")["data"]))


def test_many_results_queue_what_resolves_and_name_the_rest(daemon_factory):
    daemon = daemon_factory(pace="realtime")
    c = daemon.client()
    albums = load("search-album-daft-punk.json")["data"]
    # Of the 25 albums found, only Discovery (302127) has recorded bodies.
    p = daemon.ctl("search", "albums", "daft punk", "--play")
    assert p.returncode == 0, p.stderr
    refused = p.stderr.splitlines()
    assert refused == [f"previewctl: not queued: deezer:album:{a['id']}: not found (Deezer: no data, error 800)"
                       for a in albums if a["id"] != 302127]
    st = c.fields("status")
    assert (st["playlistlength"], st["song"], st["state"]) == ("14", "0", "play")
    # Nothing resolves: exit 1, and said so.
    p = daemon.ctl("search", "albums", "king", "--artist", "eminem", "--add")
    assert p.returncode == 1 and p.stderr.endswith("previewctl: nothing could be queued\n"), p.stderr
    assert c.fields("status")["playlistlength"] == "14"


def test_errors_and_usage(daemon):
    p = daemon.ctl("info", "deezer:track:-1")
    assert (p.returncode, p.stderr) == (1, "previewctl: cataloginfo: deezer:track:-1: not found (Deezer: no data, error 800)\n")
    for args, message in [
        (["search"], "search needs a query"),
        (["search", "x", "--limit", "500"], '--limit takes a number from 1 to 100, not "500"'),
        (["chart", "podcasts"], 'chart kinds are tracks, albums, artists and playlists, not "podcasts"'),
        (["album", "abc"], 'album takes a album id or deezer:album:ID, not "abc"'),
        (["search", "x", "--color"], 'unknown option "--color" for search'),
    ]:
        p = daemon.ctl(*args)
        assert p.returncode == 64, args
        assert p.stderr == f"previewctl: {message}. See previewctl {args[0]} --help\n", (args, p.stderr)
