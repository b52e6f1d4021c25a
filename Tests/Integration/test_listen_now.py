"""Listen Now (`previewctl now`, `catalognow`, `lsinfo deezer:now`) on the
recorded bodies: Top Picks (/editorial/0/selection), New releases
(/editorial/0/releases), More like the newest saved album (its genre's
album chart; Dance, 113, has no recorded chart, so the stand-in answers
"no data" and the chart of all genres, chart-0-albums.json, is used), and
Want to Listen; at most 10 API requests cold, none warm."""
import json

from helpers import control, fixture


def api_requests(daemon):
    return [p for p in control(daemon.api, "log") if p.startswith("/api/")]


def albums(name, n=5, skip=()):
    return [a for a in fixture(name)["data"] if a["id"] not in skip][:n]


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
    assert [s["title"] for s in doc["sections"]] == ["Top Picks", "New releases"], "no saved album, no want list"
    first = doc["sections"][0]["results"][0]
    pick = fixture("editorial-0-selection.json")["data"][0]
    # The selection's albums carry a title, an artist and a record type.
    assert first == {"kind": "album", "uri": f"deezer:album:{pick['id']}", "title": pick["title"],
                     "artist": pick["artist"]["name"], "type": pick["record_type"]}
    p = daemon.ctl("now", "--add", "99")
    assert (p.returncode, p.stderr) == (1, "previewctl: now lists 10 entries, not 99\n")
    p = daemon.ctl("now", "--play", "0")
    assert (p.returncode, p.stderr) == (64, "previewctl: --play takes an entry number from 1. See previewctl now --help\n")
    # The picks' albums have no recorded bodies: queuing one is refused, and said so.
    p = daemon.ctl("now", "--add", "1")
    assert p.returncode == 1 and f"deezer:album:{pick['id']}: not found" in p.stderr, p.stderr
    assert c.fields("status")["playlistlength"] == "0"


def test_mpd_clients_see_the_sections_as_directories(daemon):
    c = daemon.client()
    assert c.cmd("lsinfo deezer:now") == ["directory: deezer:picks", "directory: deezer:releases",
                                          "directory: deezer:wantlist", "OK"]
    assert c.cmd("libraryadd deezer:album:302127") == ["OK"]
    assert c.cmd("lsinfo deezer:now") == ["directory: deezer:picks", "directory: deezer:releases",
                                          "directory: deezer:morelike", "directory: deezer:wantlist", "OK"]
    more = albums("chart-0-albums.json", skip={302127})
    assert c.cmd("lsinfo deezer:morelike") == [f"directory: deezer:album:{a['id']}" for a in more] + ["OK"]
    reply = c.cmd("catalognow")
    assert [l for l in reply if l.startswith("section: ")] == [
        "section: Top Picks", "section: New releases", 'section: More like "Discovery"']
