"""previewctl for everyday use (issue 35): stored playlists filled from
listings, searches of several kinds, --play N, per-kind columns, bare ids,
an artist's headed page, `open N`, and the want list's check."""
import json
import os
import subprocess

from helpers import PREVIEWCTL, fixture as load

FILTERS = ["--artist", "--album", "--track", "--label", "--dur-min", "--dur-max", "--bpm-min", "--bpm-max"]


def on_terminal(daemon, *args, columns=120):
    """previewctl's output and exit code on a terminal (`script` gives it one)."""
    env = dict(os.environ, COLUMNS=str(columns), PREVIEWD_SOCKET=daemon.socket)
    command = " ".join([PREVIEWCTL, *(f"'{a}'" for a in args)])
    p = subprocess.run(["script", "-qec", command, "/dev/null"], env=env, capture_output=True, text=True, timeout=30)
    return [l.rstrip("\r") for l in p.stdout.splitlines()], p.returncode


def ok(daemon, *args):
    p = daemon.ctl(*args)
    assert (p.returncode, p.stderr) == (0, ""), (args, p.stdout, p.stderr)
    return p.stdout


def usage(daemon, args, message, code=64):
    """The exact stderr line and exit code of a refused command."""
    p = daemon.ctl(*args)
    assert (p.returncode, p.stderr, p.stdout) == (code, f"previewctl: {message}\n", ""), args


def current(daemon):
    return daemon.client().fields("currentsong")


def queued(daemon):
    return [l.split(": ", 1)[1] for l in daemon.client().cmd("playlistinfo") if l.startswith("file: ")]


def stored(daemon, name):
    return [l.split(": ", 1)[1] for l in daemon.client().cmd(f'listplaylist "{name}"') if l.startswith("file: ")]


def test_playlist_add_takes_uris_and_numbers_of_the_last_listing(daemon):
    usage(daemon, ["playlist", "mix", "add", "2"],
          "no listing to take numbers from yet: list something first (search, chart, album, artist, now, ...). "
          "See previewctl playlist --help")
    ok(daemon, "playlist", "mix", "add", "deezer:track:3135556", "https://www.deezer.com/track/3135556")
    assert stored(daemon, "mix") == ["deezer:track:3135556"] * 2
    tracks = [f"deezer:track:{t['id']}" for t in load("album-302127-tracks.json")["data"]]
    ok(daemon, "album", "302127")
    ok(daemon, "playlist", "mix", "add", "3", "1", "deezer:track:3135556")
    assert stored(daemon, "mix") == ["deezer:track:3135556"] * 2 + [tracks[2], tracks[0], "deezer:track:3135556"]
    usage(daemon, ["playlist", "mix", "add", "15"], "the last listing has 14 entries, not 15. See previewctl playlist --help")
    usage(daemon, ["playlist", "mix", "add", "0"], 'entry numbers run from 1 to 1000, not "0". See previewctl playlist --help')
    usage(daemon, ["playlist", "mix", "add"],
          "playlist NAME add takes URIs or entry numbers of the last listing. See previewctl playlist --help")
    p = daemon.ctl("playlist", "mix", "add", "deezer:nothing:1")
    assert p.returncode == 1 and p.stderr.startswith("previewctl: playlistadd: "), p
    assert len(stored(daemon, "mix")) == 5, "a refusal adds nothing"


def test_load_play_plays_the_playlists_first_song(daemon):
    ok(daemon, "add", "deezer:track:3135556")
    ok(daemon, "playlist", "two", "add", "deezer:album:302127")
    out = ok(daemon, "load", "two", "--play")
    first = load("album-302127-tracks.json")["data"][0]
    assert out.startswith(f"Daft Punk - {first['title']}\n[playing] #2/15 "), out
    assert current(daemon)["file"] == f"deezer:track:{first['id']}"
    usage(daemon, ["load", "nope", "--play"], "load: No such playlist", code=1)
    usage(daemon, ["load", "a", "b"], "load takes one playlist name (and --play). See previewctl load --help")


def test_search_kinds_combine_or_are_refused(daemon):
    doc = json.loads(ok(daemon, "search", "albums,artists", "daft punk", "--json"))
    albums, artists = load("search-album-daft-punk.json")["data"], load("search-artist-daft-punk.json")["data"]
    assert [r["uri"] for r in doc["results"]] == ([f"deezer:album:{a['id']}" for a in albums]
                                                  + [f"deezer:artist:{a['id']}" for a in artists])
    lines, code = on_terminal(daemon, "search", "album,artists", "daft punk")
    assert code == 0
    assert lines[0] == "Albums" and lines[len(albums) + 2:len(albums) + 4][0] == ""
    assert lines[len(albums) + 3] == "Artists"
    # Numbered through both sections, as `open N` counts.
    assert lines[len(albums) + 5].split()[0] == str(len(albums) + 1)
    usage(daemon, ["search", "tracks,albmus", "eminem"],
          'search kinds are tracks, albums, artists, playlists, radios or several joined by commas, not "albmus" '
          '(did you mean "albums"?). See previewctl search --help')
    usage(daemon, ["search", "tracks,", "eminem"],
          'search kinds are tracks, albums, artists, playlists, radios or several joined by commas, not "". '
          'See previewctl search --help')
    # A comma in a query that names no kind is the query.
    assert daemon.ctl("search", "hello,goodbye").returncode == 0


def test_play_n_plays_entry_n_and_nothing_found_is_an_error(daemon):
    fourth = load("search-eminem.json")["data"][3]
    p = daemon.ctl("search", "eminem", "--play", "4")
    assert p.returncode == 0, p.stderr
    assert current(daemon)["file"] == f"deezer:track:{fourth['id']}"
    assert queued(daemon) == [f"deezer:track:{fourth['id']}"], "entry 4 alone"
    # The listing (25 piped lines), then the status of what plays.
    lines = p.stdout.splitlines()
    assert lines[25] == f"Eminem - {fourth['title']}" and lines[26].startswith("[playing] #1/1 "), lines[24:]
    # An album page's --play N: the album, from its Nth track.
    tracks = load("album-302127-tracks.json")["data"]
    ok(daemon, "clear")
    assert daemon.ctl("album", "302127", "--play", "3").returncode == 0
    assert current(daemon)["file"] == f"deezer:track:{tracks[2]['id']}" and len(queued(daemon)) == len(tracks)
    p = daemon.ctl("search", "eminem", "--play", "26")  # the listing shows there are 25
    assert (p.returncode, p.stderr, len(p.stdout.splitlines())) == (64, "previewctl: the listing has 25 entries, not 26\n", 25)
    usage(daemon, ["search", "eminem", "--play", "0"],
          '--play takes an entry number from 1 to 1000, not "0". See previewctl search --help')
    p = daemon.ctl("search", "radios", "daft punk", "--play")
    assert (p.returncode, p.stderr) == (1, "previewctl: nothing to play: no results\n")
    p = daemon.ctl("search", "radios", "daft punk", "--add")
    assert (p.returncode, p.stderr) == (1, "previewctl: nothing to queue: no results\n")


def test_help_lists_every_filter_and_kind(daemon):
    text = ok(daemon, "search", "--help")
    assert all(f in text for f in FILTERS), text
    assert all(k in text for k in ["tracks", "albums", "artists", "playlists", "radios", "tracks,albums", "--play N"])


def test_each_kind_has_its_own_columns_each_filled(daemon):
    for args, header, row in [
        (["search", "artists", "daft punk"], "# NAME ALBUMS FANS URI", "1 Daft Punk 32 4117751 deezer:artist:27"),
        (["genres", "--limit", "2"], "# NAME URI", "1 All deezer:genre:0"),
        (["search", "albums", "daft punk"], "# TITLE ARTIST TYPE TRACKS URI",
         "1 Discovery Daft Punk album 14 deezer:album:302127"),
        (["search", "playlists", "daft punk"], "# TITLE CREATOR TRACKS URI",
         "1 100% Daft Punk Deezer Artist Editor 30 deezer:playlist:3133294742"),
        (["search", "radios", "electro"], "# TITLE URI", "1 Electro Swing deezer:radio:37635"),
        (["search", "eminem"], "# TITLE ARTIST ALBUM TIME URI", "1 Not Afraid Eminem Recovery 0:30 deezer:track:6461432"),
    ]:
        lines, code = on_terminal(daemon, *args)
        assert code == 0 and " ".join(lines[0].split()) == header, (args, lines[:2])
        assert " ".join(lines[1].split()) == row, (args, lines[:2])


def test_a_bare_id_is_tried_as_each_kind(daemon):
    assert ok(daemon, "info", "302127") == ok(daemon, "info", "deezer:album:302127")
    assert ok(daemon, "info", "27").startswith("artist: deezer:artist:27\nName: Daft Punk\n")
    usage(daemon, ["info", "987654321012"], "info: no album, track, artist or playlist has id 987654321012", code=1)
    usage(daemon, ["info", "a", "b"], "info takes one URI or id. See previewctl info --help")


def test_an_artists_page_has_headed_sections(daemon):
    top, related = load("artist-27-top.json")["data"], load("artist-27-related.json")["data"]
    albums = load("artist-27-albums.json")["data"] + load("artist-27-albums-index25-last-page.json")["data"]
    lines, code = on_terminal(daemon, "artist", "27")
    assert code == 0
    a, r = len(top) + 3, len(top) + len(albums) + 6
    assert [lines[0], lines[a], lines[r]] == ["Top tracks", "Albums", "Related artists"], lines
    assert lines[a - 1] == lines[r - 1] == ""
    assert lines[a + 2].split()[0] == str(len(top) + 1) and lines[r + 2].split()[0] == str(len(top) + len(albums) + 1)
    assert len(lines) == r + 2 + len(related)
    # --play: the top tracks, not every album too.
    assert daemon.ctl("artist", "27", "--add").returncode == 0
    assert queued(daemon) == [f"deezer:track:{t['id']}" for t in top]


def test_open_n_acts_on_entry_n_of_the_last_listing(daemon_factory):
    # In real time: as fast as decoding allows, the first song had ended
    # by the time the test read which one plays.
    daemon = daemon_factory(output="null", pace="realtime")
    usage(daemon, ["open", "1"], "no listing to take numbers from yet: list something first (search, chart, album, "
                                 "artist, now, ...). See previewctl open --help")
    ok(daemon, "search", "albums", "daft punk")
    lines, code = on_terminal(daemon, "open", "1")
    assert code == 0 and lines[0] == "Discovery" and lines[1] == "Daft Punk", lines[:3]
    # The album page is now the last listing: entry 2 is its second track.
    tracks = load("album-302127-tracks.json")["data"]
    assert ok(daemon, "open", "2").startswith(f"file: deezer:track:{tracks[1]['id']}\n")
    # `info ID` keeps what it found as a listing too; a playlist opens to its songs.
    ok(daemon, "info", "908622995")
    assert daemon.ctl("open", "1", "--play").returncode == 0
    songs = [l.split(": ", 1)[1] for l in daemon.client().cmd("lsinfo deezer:playlist:908622995") if l.startswith("file: ")]
    assert queued(daemon) == songs and current(daemon)["file"] == songs[0]
    ok(daemon, "search", "artists", "daft punk")
    doc = json.loads(ok(daemon, "open", "1", "--json"))
    assert doc["results"][0]["kind"] == "track", "an artist's page opens with its top tracks"
    p = daemon.ctl("open", "999")
    assert p.returncode == 64 and p.stderr.startswith("previewctl: the last listing has ") and "not 999" in p.stderr
    usage(daemon, ["open", "x"], "open takes the number of an entry of the last listing. See previewctl open --help")


def test_want_add_checks_the_album_as_library_add_does(daemon):
    p, q = daemon.ctl("want", "add", "deezer:album:12345678"), daemon.ctl("library", "add", "deezer:album:12345678")
    assert (p.returncode, q.returncode) == (1, 1)
    assert p.stderr.replace("wantadd", "libraryadd") == q.stderr, (p.stderr, q.stderr)
    assert ok(daemon, "want") == "the want list is empty\n"
    assert ok(daemon, "want", "add", "deezer:album:302127") == ""
    assert ok(daemon, "want").startswith("Daft Punk - Discovery  (album, added ")
