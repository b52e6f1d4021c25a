"""Country and tag charts: Last.fm's lists (recorded bodies in
../shared/fixtures/lastfm) resolved to Deezer tracks."""
import json
import os
import subprocess

import pytest

import catalog
from helpers import PREVIEWCTL, control

LASTFM = os.path.join(os.path.dirname(catalog.FIXTURES), "lastfm")


@pytest.fixture
def lastfm_daemon(daemon_factory, http):
    return daemon_factory(extra=("--lastfm-key", "test-key", "--lastfm-base", http + "/lastfm/2.0/"))


def entries(name):
    with open(os.path.join(LASTFM, name), encoding="utf-8") as f:
        return [(t["artist"]["name"], t["name"]) for t in json.load(f)["tracks"]["track"]]


def test_country_chart_resolves_entries_and_drops_the_rest(lastfm_daemon):
    got = lastfm_daemon.client().cmd("catalogchart tracks country canada")
    titles = [l[len("Title: "):] for l in got if l.startswith("Title: ")]
    want = entries("geo-gettoptracks-canada-limit10.json")
    # The stand-in has no Deezer match for four of the ten (a fixed choice).
    assert titles == ["Mr. Brightside", "Can't Feel My Face", "The Less I Know the Better", "Karma Police",
                      "Creep", "Feel Good Inc."]
    assert set(titles) < {t for _, t in want}
    assert got[-2:] == ["unresolved: 4", "OK"]


def test_tag_chart_and_unknown_tag(lastfm_daemon):
    c = lastfm_daemon.client()
    got = c.cmd('catalogchart tracks tag "dream pop"')
    n = len(entries("tag-gettoptracks-dream-pop-limit20.json"))
    resolved = sum(1 for l in got if l.startswith("file: "))
    assert got[-2] == f"unresolved: {n - resolved}"
    assert 0 < resolved < n
    # Last.fm's recorded answer for a tag it does not know: no entries, total "0".
    assert c.cmd("catalogchart tracks tag wejlhg239gh23") == ["total: 0", "unresolved: 0", "OK"]


def test_lastfm_errors(lastfm_daemon, daemon_factory, http):
    c = lastfm_daemon.client()
    # A name ISO 3166-1 lacks is refused before Last.fm is asked; one Last.fm
    # lacks gets its (recorded) error 6.
    assert c.cmd("catalogchart tracks country texas") == [
        'ACK [50@0] {catalogchart} unknown country "texas" (ISO codes such as DE, English names such as Germany, '
        'and UK, USA work)']
    assert c.cmd("catalogchart tracks country antarctica") == [
        "ACK [50@0] {catalogchart} Last.fm: country param required (Last.fm error 6)"]
    assert c.cmd("catalogchart albums country canada") == [
        "ACK [2@0] {catalogchart} Last.fm has no album chart by country (no geo.getTopAlbums): give a tag"]
    assert c.cmd("catalogchart playlists tag rock") == [
        "ACK [2@0] {catalogchart} country and tag charts list tracks, artists and albums"]
    assert c.cmd("catalogchart tracks country canada tag rock") == [
        "ACK [2@0] {catalogchart} give a country or a tag"]
    bad = daemon_factory(extra=("--lastfm-key", "wrong", "--lastfm-base", http + "/lastfm/2.0/"))
    assert bad.client().cmd("catalogchart tracks tag rock") == [
        "ACK [52@0] {catalogchart} Last.fm: Invalid API key - You must be granted a valid key by last.fm (Last.fm error 10)"]


def test_without_a_key_the_message_says_what_to_configure(daemon):
    # Deezer has its own chart of Canada's tracks (test_country_charts.py), not of its artists or of Norway.
    for line in ["catalogchart artists country canada", "catalogchart tracks country norway", "catalogchart tracks tag rock"]:
        reply = daemon.client().cmd(line)
        assert len(reply) == 1
        assert reply[0].startswith("ACK [52@0] {catalogchart} Last.fm charts need an API key: start previewd with "
                                   "--lastfm-key KEY"), (line, reply)


def test_previewctl_country_chart_json_and_add(lastfm_daemon):
    p = lastfm_daemon.ctl("chart", "--country", "canada", "--json", "--add")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert [r["title"] for r in doc["results"]][:2] == ["Mr. Brightside", "Can't Feel My Face"]
    c = lastfm_daemon.client()
    assert c.fields("status")["playlistlength"] == "6"
    assert c.cmd("play") == ["OK"]
    assert c.fields("currentsong")["Title"] == "Mr. Brightside"


def recorded(name):
    """(artist, title or None) of each entry of a recorded Last.fm top list."""
    with open(os.path.join(LASTFM, name), encoding="utf-8") as f:
        body = json.load(f)
    root = next(iter(body.values()))
    items = next(v for k, v in root.items() if k != "@attr")
    return [(i["artist"]["name"], i["name"]) if "artist" in i else (i["name"], None) for i in items]


def name(entry):
    return entry[0] if entry[1] is None else f"{entry[0]} - {entry[1]}"


def split_reply(got, opener, key):
    """(the `key` value of each `opener` record, total, unresolved, unresolved names) of a chart reply."""
    assert got[-1] == "OK", got
    found = [l.split(": ", 1)[1] for l in got if l.startswith(key + ": ")]
    assert len(found) == sum(1 for l in got if l.startswith(opener + ": "))
    total = [int(l.split(": ")[1]) for l in got if l.startswith("total: ")]
    unresolved = [int(l.split(": ")[1]) for l in got if l.startswith("unresolved: ")]
    names = [l.split(": ", 1)[1] for l in got if l.startswith("unresolved_name: ")]
    return found, (total or [None])[0], unresolved[0], names


def test_artist_charts_by_country_and_tag(lastfm_daemon):
    c = lastfm_daemon.client()
    entries = recorded("geo-gettopartists-canada-limit10.json")
    found, total, unresolved, names = split_reply(c.cmd("catalogchart artists country canada limit 10"), "artist", "Name")
    # The stand-in's Deezer makes up an artist for three quarters of the names
    # (a stable choice), its first hit another ("NAME Tribute"): the one named so
    # without regard to case is kept, in Last.fm's order.
    # (Daft Punk's search was recorded: Deezer's own answer, named as Last.fm names it.)
    assert [f.lower() for f in found] == [a.lower() for a, _ in entries if a not in names]
    assert names == [a for a, _ in entries if a.upper() not in map(str.upper, found)] and 0 < len(names) < len(entries)
    assert (total, unresolved) == (1474249, len(names))
    page2 = recorded("tag-gettopartists-dream-pop-limit5-page2.json")
    found, total, unresolved, names = split_reply(c.cmd('catalogchart artists tag "dream pop" limit 5 page 2'), "artist", "Name")
    assert len(found) + unresolved == len(page2) == 5 and total == 8498
    assert [a for a, _ in page2 if a.upper() not in found] == names


def test_album_chart_by_tag_with_pages(lastfm_daemon):
    c = lastfm_daemon.client()
    entries = recorded("tag-gettopalbums-dream-pop-limit20.json")
    got = c.cmd('catalogchart albums tag "dream pop"')
    found, total, unresolved, names = split_reply(got, "album", "Title")
    # No Deezer album search for these was recorded: the stand-in makes albums
    # up for artist:"A" album:"T", missing for a quarter of them (a stable choice).
    assert found == [t for a, t in entries if f"{a} - {t}" not in names]
    assert names == [f"{a} - {t}" for a, t in entries if f"{a} - {t}" in names] and 0 < len(names) < 20
    assert (total, unresolved) == (4213, len(names))
    found, total, _, names = split_reply(c.cmd("catalogchart albums tag pop limit 5 page 2"), "album", "Title")
    assert len(found) + len(names) == 5 and total == 31957
    # Page 3 of dream pop albums was not recorded: the stand-in answers the
    # recorded body for a tag Last.fm does not know (an empty list, total 0).
    assert c.cmd('catalogchart albums tag "dream pop" page 3') == ["total: 0", "unresolved: 0", "OK"]


def test_track_chart_pages_and_totals(lastfm_daemon):
    c = lastfm_daemon.client()
    got = c.cmd('catalogchart tracks country "united states" limit 5 page 2')
    found, total, unresolved, names = split_reply(got, "file", "Title")
    us = recorded("geo-gettoptracks-united-states-limit5-page2.json")
    assert len(found) + unresolved == 5 and total == 10000
    assert names == [f"{a} - {t}" for a, t in us if f"{a} - {t}" in names]
    assert found == [t for a, t in us if f"{a} - {t}" not in names]
    # The 2016 rock recording holds 50 entries: a limit of 3 keeps three (three Deezer searches).
    found, total, unresolved, _ = split_reply(c.cmd("catalogchart tracks tag rock limit 3"), "file", "Title")
    assert len(found) + unresolved == 3 and total == 1862940
    assert c.cmd("catalogchart tracks tag rock page 0") == ["ACK [2@0] {catalogchart} pages count from 1"]
    assert c.cmd("catalogchart tracks tag rock limit 101") == ["ACK [2@0] {catalogchart} limit is 1 to 100"]


def test_previewctl_names_what_deezer_lacks(lastfm_daemon):
    entries = recorded("geo-gettopartists-canada-limit10.json")
    args = ("chart", "artists", "--country", "canada", "--limit", "10")
    p = lastfm_daemon.ctl(*args)
    assert p.returncode == 0, p.stderr
    rows = [l.split("\t") for l in p.stdout.splitlines()]
    missing = [l[len("previewctl: not found on Deezer: "):] for l in p.stderr.splitlines()]
    assert [r[1].lower() for r in rows] == [a.lower() for a, _ in entries if a not in missing]
    assert missing and all(l.startswith("previewctl: not found on Deezer: ") for l in p.stderr.splitlines())
    assert [r[5].split(":")[1] for r in rows] == ["artist"] * len(rows)
    doc = json.loads(lastfm_daemon.ctl(*args, "--json").stdout)
    assert doc["total"] == 1474249 and doc["unresolved"] == len(missing) and doc["unresolved_names"] == missing
    assert [r["name"] for r in doc["results"]] == [r[1] for r in rows]


def test_previewctl_range_line_and_refusals(lastfm_daemon):
    env = dict(os.environ, COLUMNS="100", PREVIEWD_SOCKET=lastfm_daemon.socket)
    p = subprocess.run(["script", "-qec", f"{PREVIEWCTL} chart albums --tag pop --limit 5 --page 2", "/dev/null"],
                       env=env, capture_output=True, text=True, timeout=30)
    lines = [l.rstrip("\r") for l in p.stdout.splitlines()]
    # The range counts Last.fm's five entries, those Deezer lacks too; the
    # terminal shows stderr's lines (the entries not found) after it.
    end = lines.index("6–10 of 31957")
    assert len(lines[1:end]) + len(lines[end + 1:]) == 5
    assert all(l.startswith("previewctl: not found on Deezer: ") for l in lines[end + 1:]), lines
    p = lastfm_daemon.ctl("chart", "albums", "--country", "canada")
    assert p.returncode == 64 and p.stderr == "previewctl: Last.fm has no album chart by country: use --tag. See previewctl chart --help\n"
    p = lastfm_daemon.ctl("chart", "playlists", "--tag", "rock")
    assert p.returncode == 64 and p.stderr == "previewctl: country and tag charts list tracks, artists and albums. See previewctl chart --help\n"


def test_request_counts_cold_and_warm(lastfm_daemon, http):
    """One Last.fm request per chart page, every time (Last.fm's answers are
    not cached); one Deezer search per entry cold, none warm."""
    def counts():
        log = control(http, "log")
        return sum(1 for p in log if p.startswith("/lastfm/")), control(http, "count")["api_requests"]
    args = ("chart", "artists", "--country", "canada", "--limit", "10")
    before = counts()
    assert lastfm_daemon.ctl(*args).returncode == 0
    middle = counts()
    assert lastfm_daemon.ctl(*args).returncode == 0
    after = counts()
    assert (middle[0] - before[0], middle[1] - before[1]) == (1, 10)
    assert (after[0] - middle[0], after[1] - middle[1]) == (1, 0)
    # Albums by country are refused before any request.
    assert lastfm_daemon.ctl("chart", "albums", "--country", "canada").returncode == 64
    assert lastfm_daemon.client().cmd("catalogchart albums country canada")[0].startswith("ACK [2@0]")
    assert counts() == after
