"""Listen Now (`previewctl now`, `catalognow`, `lsinfo deezer:now`) on the
recorded bodies: Top Picks (/editorial/0/selection), New releases
(/editorial/0/releases), More like the newest saved album (its genre's
album chart; Dance, 113, has no recorded chart, so the stand-in answers
"no data" and the chart of all genres, chart-0-albums.json, is used), and
Want to Listen; at most 10 API requests cold, none warm. With a country
of one's own, "Top songs in COUNTRY" comes first (the stand-in's "Top
COUNTRY" playlists are not recordings: catalog.country_chart_tracks)."""
import json
from urllib.parse import unquote

import catalog
from helpers import control, fixture, restart, wait_for, without_locale


def api_requests(daemon):
    return [p for p in control(daemon.api, "log") if p.startswith("/api/")]


def albums(name, n=5, skip=()):
    return [a for a in fixture(name)["data"] if a["id"] not in skip][:n]


# A new user's More like (nothing saved, nothing played): the top album of
# the chart (/chart/0/albums, Deezer's for the caller's country). It has
# no recorded /album body, so its genre is unknown: the chart of all
# genres, without it.
TOP_ALBUM = fixture("chart-0-albums.json")["data"][0]
MORE_LIKE_TOP = f'More like "{TOP_ALBUM["title"]}"'


def lines(records, start=1):
    return [(start + i, f"{a['artist']['name']} - {a['title']}", f"deezer:album:{a['id']}") for i, a in enumerate(records)]


def test_sections_entries_and_request_counts(daemon):
    assert daemon.ctl("want", "add", "deezer:album:302127").returncode == 0
    assert daemon.ctl("want", "add", "deezer:track:3135556").returncode == 0
    before = len(api_requests(daemon))
    p = daemon.ctl("now")
    assert p.returncode == 0, p.stderr
    cold = api_requests(daemon)[before:]
    assert len(cold) <= 10, cold
    picks = albums("editorial-0-selection.json")
    releases = albums("editorial-0-releases.json")
    more = albums("chart-0-albums.json", skip={302127})
    def entries(records, start):
        # Numbers right-aligned to the widest (17: two digits) and two spaces.
        return [f"{n:>4}. {name}  {uri}" for n, name, uri in lines(records, start)]
    expected = ["Top Picks", *entries(picks, 1), "", "New releases", *entries(releases, 6),
                "", 'More like "Discovery"', *entries(more, 11),
                "", "Want to Listen", "  16. Daft Punk - Harder, Better, Faster, Stronger  deezer:track:3135556",
                "  17. Daft Punk - Discovery  deezer:album:302127"]
    assert p.stdout.splitlines() == expected, p.stdout
    # Warm: every answer is cached.
    before = len(api_requests(daemon))
    assert daemon.ctl("now").stdout == p.stdout
    assert api_requests(daemon)[before:] == []


def test_entries_are_queued_by_number_and_json_keeps_numbers(daemon):
    c = daemon.client()
    p = daemon.ctl("now", "--json")
    doc = json.loads(p.stdout)
    # Nothing saved or played: More like starts from the chart's top album.
    assert [s["title"] for s in doc["sections"]] == ["Top Picks", "New releases", f'More like "{TOP_ALBUM["title"]}"']
    first = doc["sections"][0]["results"][0]
    pick = fixture("editorial-0-selection.json")["data"][0]
    # The selection's albums carry a title, an artist and a record type.
    assert first == {"kind": "album", "uri": f"deezer:album:{pick['id']}", "title": pick["title"],
                     "artist": pick["artist"]["name"], "type": pick["record_type"]}
    p = daemon.ctl("now", "--add", "99")
    assert (p.returncode, p.stderr) == (1, "previewctl: now lists 15 entries, not 99\n")
    p = daemon.ctl("now", "--play", "0")
    assert (p.returncode, p.stderr) == (64, "previewctl: --play takes an entry number from 1. See previewctl now --help\n")
    # The picks' albums have no recorded bodies: queuing one is refused, and said so.
    p = daemon.ctl("now", "--add", "1")
    assert p.returncode == 1 and f"deezer:album:{pick['id']}: not found" in p.stderr, p.stderr
    assert c.fields("status")["playlistlength"] == "0"


def test_mpd_clients_see_the_sections_as_directories(daemon):
    c = daemon.client()
    assert c.cmd("lsinfo deezer:now") == ["directory: deezer:picks", "directory: deezer:releases",
                                          "directory: deezer:morelike", "directory: deezer:wantlist", "OK"]
    fresh = albums("chart-0-albums.json", skip={TOP_ALBUM["id"]})
    assert c.cmd("lsinfo deezer:morelike") == [f"directory: deezer:album:{a['id']}" for a in fresh] + ["OK"]
    assert c.cmd("libraryadd deezer:album:302127") == ["OK"]
    assert c.cmd("lsinfo deezer:now") == ["directory: deezer:picks", "directory: deezer:releases",
                                          "directory: deezer:morelike", "directory: deezer:wantlist", "OK"]
    more = albums("chart-0-albums.json", skip={302127})
    assert c.cmd("lsinfo deezer:morelike") == [f"directory: deezer:album:{a['id']}" for a in more] + ["OK"]
    reply = c.cmd("catalognow")
    assert [l for l in reply if l.startswith("section: ")] == [
        "section: Top Picks", "section: New releases", 'section: More like "Discovery"']
    # Each section says its kind, for a client that lays them out by kind, not by title.
    assert [l for l in reply if l.startswith("section")] == [
        "section: Top Picks", "sectionkind: picks", "section: New releases", "sectionkind: releases",
        'section: More like "Discovery"', "sectionkind: morelike", "sectiongenre: 0"]


def country_chart(code):
    body = catalog.country_chart_tracks(catalog.COUNTRY_CHARTS[code], {"limit": ["100"], "index": ["0"]})
    return [f"deezer:track:{t['id']}" for t in body["data"]]


def test_your_countrys_top_songs_come_first_in_every_client(daemon_factory):
    d = daemon_factory(env=dict(without_locale(), LANG="de_DE.UTF-8"))
    germany = country_chart("DE")
    before = len(api_requests(d))
    p = d.ctl("now", "--json")
    assert p.returncode == 0, p.stderr
    cold = api_requests(d)[before:]
    assert len(cold) <= 11 and "/api/playlist/1111143121/tracks?index=0&limit=100" in cold, cold
    doc = json.loads(p.stdout)
    assert [s["title"] for s in doc["sections"]] == ["Top songs in Germany", "Top Picks", "New releases", MORE_LIKE_TOP]
    assert [r["uri"] for r in doc["sections"][0]["results"]] == germany[:5]
    assert doc["sections"][0]["results"][0]["kind"] == "track"
    # On a terminal the songs are numbered first: `now --play 1` plays the chart's first song.
    text = d.ctl("now").stdout.splitlines()
    assert text[0] == "Top songs in Germany" and text[1].endswith("  " + germany[0]) and text[1].startswith("   1. "), text
    p = d.ctl("now", "--play", "1")
    assert p.returncode == 0, p.stderr
    c = d.client()
    assert c.fields("currentsong")["file"] == germany[0]
    # The chart's fifth song cannot be played here (its recorded track
    # object says so): marked, and refused by number before it is queued.
    body = catalog.country_chart_tracks(catalog.COUNTRY_CHARTS["DE"], {"limit": ["100"], "index": ["0"]})
    fifth = body["data"][4]
    assert fifth["readable"] is False, fifth
    assert text[5] == f"   5. {fifth['artist']['name']} - {fifth['title']}  {germany[4]}  (not playable)", text
    length = c.fields("status")["playlistlength"]
    for args, what in [(("now", "--play", "5"), "entry 5"), (("chart", "--country", "--play", "5"), "entry 5")]:
        p = d.ctl(*args)
        assert p.returncode == 1 and p.stderr.startswith(
            f"previewctl: {what}, {fifth['artist']['name']} - {fifth['title']}, is not playable: "), (args, p.stderr)
    assert c.fields("status")["playlistlength"] == length, "nothing was queued"
    # MPD clients see the whole chart as Listen Now's first entry, read from the same cached page.
    assert c.cmd('lsinfo "Listen Now"')[:2] == ["playlist: Listen Now/Top Songs in Germany", "directory: Listen Now/Top Picks"]
    before = len(api_requests(d))
    listed = c.cmd('listplaylistinfo "Listen Now/Top Songs in Germany"')
    assert [l[len("file: "):] for l in listed if l.startswith("file: ")] == germany
    assert api_requests(d)[before:] == []


def test_no_country_no_chart_section_and_a_lastfm_key_gives_lastfms(daemon_factory, http):
    # C.UTF-8 names no territory: Listen Now starts at Top Picks (as the tests above).
    d = daemon_factory()
    assert d.client().cmd('lsinfo "Listen Now"')[0] == "directory: Listen Now/Top Picks"
    # A country Deezer keeps no chart of, without a key: no section either.
    d = daemon_factory(env=dict(without_locale(), LANG="nl_NL.UTF-8"))
    p = d.ctl("now", "--json")
    assert [s["title"] for s in json.loads(p.stdout)["sections"]] == ["Top Picks", "New releases", MORE_LIKE_TOP]
    # With a key, Last.fm's chart of the country: one request for 5 entries, each found on Deezer.
    d = daemon_factory(env=dict(without_locale(), LANG="en_CA.UTF-8"),
                       extra=("--lastfm-key", "test-key", "--lastfm-base", http + "/lastfm/2.0/"))
    mark = len(control(http, "log"))
    doc = json.loads(d.ctl("now", "--json").stdout)
    sent = [unquote(x) for x in control(http, "log")[mark:] if "/lastfm/" in x]
    assert len(sent) == 1 and "country=Canada&" in sent[0] + "&" and "limit=5&" in sent[0] + "&", sent
    first = doc["sections"][0]
    assert first["title"] == "Top songs in Canada", doc["sections"]
    whole = [r["uri"] for r in json.loads(d.ctl("chart", "--country", "Canada", "--json").stdout)["results"]]
    # The stand-in sends its recorded 10 entries whatever the limit; the
    # section resolves the first 5, of which the recorded search bodies find 3.
    assert [r["uri"] for r in first["results"]] == whole[:3], (first, whole)


def test_a_slow_section_is_left_out_not_waited_for(daemon_factory, http):
    """Germany's chart answers only after 8 s: `now` answers without it
    (each section waits at most ListenNow.sectionWait, 3 s, within
    previewctl's 5 s timeout), and the next
    look, with the chart cached by then, has it."""
    d = daemon_factory(env=dict(without_locale(), LANG="de_DE.UTF-8"))
    control(http, "fault?path=/playlist/1111143121/tracks&kind=slow&seconds=8")
    try:
        p = d.ctl("now", "--json")
        assert p.returncode == 0, p.stderr
        assert [s["title"] for s in json.loads(p.stdout)["sections"]] == ["Top Picks", "New releases", MORE_LIKE_TOP]
        c = d.client()
        assert wait_for(lambda: [l for l in c.cmd("catalognow") if l.startswith("section")][:3] == [
            "section: Top songs in Germany", "sectionkind: country", "sectioncountry: Germany"], timeout=15)
    finally:
        control(http, "reset")


def test_json_play_answers_with_the_status_as_json(daemon):
    assert daemon.ctl("want", "add", "deezer:track:3135556").returncode == 0
    p = daemon.ctl("now", "--json", "--play", "16")  # 5 picks, 5 releases, 5 more like the chart's top, then the wanted track
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert (doc["state"], doc["song"]["uri"]) == ("play", "deezer:track:3135556"), doc


def test_a_new_user_s_more_like_follows_what_was_played_last(daemon, http):
    """With nothing saved, the album of the catalog song played last seeds
    More like, also after a restart (the plays autoplay remembers are kept
    with the state)."""
    c = daemon.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"] and c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    expected = [f"deezer:album:{a['id']}" for a in albums("chart-0-albums.json", skip={302127})]
    for d in (daemon, restart(daemon, http)):
        doc = json.loads(d.ctl("now", "--json").stdout)
        more = [s for s in doc["sections"] if s["title"].startswith("More like")]
        assert [s["title"] for s in more] == ['More like "Discovery"']
        assert [r["uri"] for r in more[0]["results"]] == expected
    d.close()
