"""The tags of catalog songs and the Library as MPD's database, through the
real daemon and the loopback catalog: `list` of the new tags and its
groups, `count` groups, `find`/`search` on tags Deezer cannot search for,
`base` and `file`, the Library's matches before the catalog's, and a list
of many albums retagged after it is queued."""
from helpers import album_tracks, control, fixture, songs, wait_for

ALBUM = "deezer:album:302127"


def files(lines):
    return [l[len("file: "):] for l in lines if l.startswith("file: ")]


def test_list_and_count_over_the_library(daemon):
    c = daemon.client()
    assert c.cmd("list album") == ["OK"], "an empty Library lists nothing"
    assert c.cmd(f"libraryadd {ALBUM}") == ["OK"]
    assert c.cmd("list album") == ["Album: Discovery", "OK"]
    assert c.cmd("list albumartist") == ["AlbumArtist: Daft Punk", "OK"]
    assert c.cmd("list date") == ["Date: 2001-03-07", "OK"]
    assert c.cmd("list genre group albumartist") == ["AlbumArtist: Daft Punk", "Genre: Dance", "OK"]
    assert c.cmd("list label") == ["Label: Daft Life Ltd./ADA France", "OK"]
    assert c.cmd("list composer") == ["Composer: ", "OK"], "a tag no song has: one empty value, as mpd"
    # Bytewise order, as mpd's: "10" before "2".
    assert c.cmd("list track") == [f"Track: {n}" for n in sorted(str(i) for i in range(1, 15))] + ["OK"]
    assert c.cmd("list title \"(track == '4')\"") == ["Title: Harder, Better, Faster, Stronger", "OK"]
    assert c.cmd("list album group date group albumartist") == [
        "AlbumArtist: Daft Punk", "Date: 2001-03-07", "Album: Discovery", "OK"]
    assert c.cmd("count group albumartist") == ["AlbumArtist: Daft Punk", "songs: 14", "playtime: 420", "OK"]
    assert c.cmd("count genre Dance") == ["songs: 14", "playtime: 420", "OK"]


def test_find_on_tags_base_and_file(daemon):
    c = daemon.client()
    assert c.cmd("find genre Dance") == ["OK"], "Deezer cannot search by genre, and the Library is empty"
    assert c.cmd(f"libraryadd {ALBUM}") == ["OK"]
    album = [f"deezer:track:{t['id']}" for t in album_tracks()]
    assert files(c.cmd("find genre Dance")) == album
    assert files(c.cmd("find date 2001-03-07 track 3")) == [album[2]]
    assert files(c.cmd("search \"(label contains 'daft life')\"")) == album
    # base: the album's tracks (the Library's and the catalog's, once each).
    assert files(c.cmd(f"find base {ALBUM}")) == album
    assert files(c.cmd(f"find \"(base '{ALBUM}')\"")) == album
    assert files(c.cmd(f"find file {album[3]}")) == [album[3]]
    assert c.cmd("find base deezer:album:-1")[-1].startswith("ACK [50@0] {find} deezer:album:-1")


def test_the_librarys_matches_come_first(daemon):
    c = daemon.client()
    eminem = [t for t in fixture("search-eminem.json")["data"] if t["artist"]["name"] == "Eminem"]
    catalog_order = [f"deezer:track:{t['id']}" for t in eminem]
    assert files(c.cmd("search artist eminem")) == catalog_order
    saved = catalog_order[3]
    assert c.cmd(f"libraryadd {saved}") == ["OK"]
    assert files(c.cmd("search artist eminem")) == [saved] + [u for u in catalog_order if u != saved]


def test_a_list_of_many_albums_is_retagged_after_it_is_queued(daemon):
    c = daemon.client()
    # The artist's top tracks name their albums but give no genre or track
    # number; Discovery's (the one album with recorded bodies) are looked up.
    assert c.cmd("add deezer:artist:27") == ["OK"]

    def discovery_tags():
        queued = songs(c.cmd("playlistinfo"))
        return [(s.get("Track"), s.get("Genre")) for s in queued if s.get("Album") == "Discovery"]
    assert wait_for(lambda: discovery_tags() == [("11", "Dance"), ("1", "Dance")]), discovery_tags()
    others = [s for s in songs(c.cmd("playlistinfo")) if s.get("Album") != "Discovery"]
    assert others and all("Genre" not in s and "Track" not in s for s in others)


def test_a_window_past_the_first_page_reads_the_pages_it_needs(daemon):
    c = daemon.client()
    eminem = [t for t in fixture("search-eminem.json")["data"] if t["artist"]["name"] == "Eminem"]

    def searches():
        return [p for p in control(daemon.api, "log") if "/search?" in p]
    before = len(searches())
    assert len(files(c.cmd("find artist Eminem window 0:5"))) == 5
    assert len(searches()) == before + 1, "a window inside the first page reads one page"
    # The recorded page holds 25 results (its `next` link asks for index 25),
    # of which len(eminem) are Eminem's; the stand-in answers every index with it.
    end = len(eminem) + 3
    got = files(c.cmd(f"find artist Eminem window {len(eminem)}:{end}"))
    assert got == [f"deezer:track:{t['id']}" for t in eminem[:3]]
    # The first page is the cached one; only the next is asked for.
    new = searches()[before + 1:]
    assert len(new) == 1 and "index=25" in new[0], new
