"""The Library (saved albums, tracks and artists) against the real daemon and
the loopback catalog: its protocol commands, MPD's database view of it
(`lsinfo deezer:library`, `listall`, `listallinfo`, `stats`, `update`),
previewctl's `library` verb, a `kill -9` restart, and mpc."""
import calendar
import os
import signal
import sqlite3
import time

from helpers import (MODES, ROOT_DIRECTORIES, Daemon, album_tracks, assert_silent, control, run_mpc, song_lines,
                     songs)

ALBUM = "deezer:album:302127"
TRACK = "deezer:track:3135556"
ARTIST = "deezer:artist:27"
NOT_ITEM = ("is not an album, a track or an artist: the library holds "
            "deezer:album:ID, deezer:track:ID and deezer:artist:ID")


TRACK_LINES = ["file: deezer:track:3135556", "Artist: Daft Punk", "Title: Harder, Better, Faster, Stronger",
               "Album: Discovery", "AlbumArtist: Daft Punk", "Track: 4", "Disc: 1", "Date: 2001-03-07", "Genre: Dance",
               "Label: Daft Life Ltd./ADA France", "Time: 30", "duration: 30.000"]


def library_songs():
    """The songs of TRACK, ARTIST and ALBUM saved in that order: the album's,
    newest, with the track at its place there (each song is listed once)."""
    return [l for t in album_tracks() for l in song_lines(t, album="Discovery")]


def save_three(c):
    for uri in (TRACK, ARTIST, ALBUM):
        assert c.cmd(f"libraryadd {uri}") == ["OK"], uri


def added_times(lines):
    return [calendar.timegm(time.strptime(l[len("added: "):], "%Y-%m-%dT%H:%M:%SZ"))
            for l in lines if l.startswith("added: ")]


def test_add_list_remove_over_the_protocol(daemon):
    c = daemon.client()
    before = int(time.time())
    save_three(c)
    assert c.cmd(f"libraryadd {ALBUM}") == [f"unchanged: {ALBUM} is already in the library", "OK"]
    assert c.cmd("libraryadd https://www.deezer.com/fr/track/3135556") == [
        f"unchanged: {TRACK} is already in the library", "OK"]
    lines = c.cmd("librarylist")
    times = added_times(lines)
    assert len(times) == 3 and all(before <= t <= time.time() for t in times), lines
    assert [l for l in lines if not l.startswith("added: ")] == [
        f"album: {ALBUM}", "Title: Discovery", "Artist: Daft Punk", "Tracks: 14",
        f"artist: {ARTIST}", "Artist: Daft Punk",
        *TRACK_LINES, "OK"]
    assert c.cmd(f"libraryrm {ARTIST}") == ["OK"]
    assert c.cmd(f"libraryrm {ARTIST}") == [f"ACK [50@0] {{libraryrm}} {ARTIST} is not in the library"]
    assert [l for l in c.cmd("librarylist") if l.startswith(("album: ", "artist: ", "file: "))] == [
        f"album: {ALBUM}", f"file: {TRACK}"]


def test_bad_uris_are_refused_with_the_reason(daemon):
    c = daemon.client()
    assert c.cmd("libraryadd deezer:playlist:12345") == [f"ACK [2@0] {{libraryadd}} deezer:playlist:12345 {NOT_ITEM}"]
    assert c.cmd("libraryadd ftp://x/y.mp3") == [f"ACK [2@0] {{libraryadd}} ftp://x/y.mp3 {NOT_ITEM}"]
    assert c.cmd("libraryrm deezer:chart") == [f"ACK [2@0] {{libraryrm}} deezer:chart {NOT_ITEM}"]
    assert c.cmd("libraryadd deezer:track:-1") == [
        "ACK [50@0] {libraryadd} deezer:track:-1: not found (Deezer: no data, error 800)"]
    assert c.cmd("librarylist") == ["OK"]
    p = daemon.ctl("library", "add", "deezer:playlist:12345")
    assert (p.returncode, p.stdout, p.stderr) == (1, "", f"previewctl: libraryadd: deezer:playlist:12345 {NOT_ITEM}\n")
    p = daemon.ctl("library", "rm", TRACK)
    assert (p.returncode, p.stderr) == (1, f"previewctl: libraryrm: {TRACK} is not in the library\n")
    p = daemon.ctl("library", "play")
    assert (p.returncode, p.stderr) == (64, 'previewctl: library takes add or rm, not "play". See previewctl library --help\n')


def test_database_view(daemon):
    c = daemon.client()
    assert c.cmd("listall") == ["OK"]
    assert c.cmd("lsinfo deezer:library") == ["OK"]
    save_three(c)
    assert c.cmd("lsinfo") == [*(f"directory: {d}" for d in ROOT_DIRECTORIES), "OK"]
    expected = library_songs()
    assert c.cmd("lsinfo deezer:library") == expected + ["OK"]
    assert c.cmd("listallinfo") == expected + ["OK"]
    assert c.cmd('listallinfo "/"') == expected + ["OK"]
    files = [l for l in expected if l.startswith("file: ")]
    assert len(files) == 14
    assert c.cmd("listall") == files + ["OK"]
    assert c.cmd("listall deezer:library") == files + ["OK"]
    # A catalog URI lists that item, as lsinfo does.
    assert c.cmd("listall deezer:track:3135553") == ["file: deezer:track:3135553", "OK"]
    assert c.cmd("listall nosuch") == ["ACK [50@0] {listall} No such directory"]
    names = [l.split(": ", 1)[1] for l in c.cmd("commands")[:-1]]
    assert {"libraryadd", "libraryrm", "librarylist", "listall", "listallinfo"} <= set(names)


def test_stats_count_the_library(daemon, http):
    c = daemon.client()
    st = c.fields("stats")
    assert [st[k] for k in ("artists", "albums", "songs", "db_playtime")] == ["0", "0", "0", "0"]
    assert "db_update" not in st  # no change saved yet (Cantata waits on `db_update: 0`)
    before = int(time.time())
    save_three(c)
    lines = c.cmd("stats")
    assert [l.split(": ")[0] for l in lines] == [
        "uptime", "playtime", "artists", "albums", "songs", "db_playtime", "db_update", "OK"]
    st = c.fields("stats")
    assert [st[k] for k in ("artists", "albums", "songs", "db_playtime")] == ["1", "1", "14", str(14 * 30)]
    assert before <= int(st["db_update"]) <= time.time()
    # Kept in the database: the same after a restart.
    daemon.close()
    d2 = Daemon(daemon.tmp, http)
    try:
        assert d2.client().fields("stats")["db_update"] == st["db_update"]
    finally:
        d2.close()


def test_changes_and_update_tell_idle_clients(daemon, http):
    c, idle = daemon.client(), daemon.client()
    idle.send("idle database\n")
    assert_silent(idle, 0.1)
    assert c.cmd(f"libraryadd {ALBUM}") == ["OK"]
    assert idle.reply() == ["changed: database", "OK"]
    assert c.cmd(f"libraryadd {TRACK}") == ["OK"]
    idle.send("idle database\n")
    assert idle.reply() == ["changed: database", "OK"]  # pending since the add
    # Deezer answers otherwise now: the track's 2019 recording; the album fails once.
    control(http, "reset")
    control(http, "old-track?on=1")
    control(http, "fault?path=/album/302127&kind=500")
    control(http, "delay?ms=300")
    try:
        idle.send("idle update database\n")
        assert c.cmd("update") == ["updating_db: 1", "OK"]
        assert idle.reply() == ["changed: update", "OK"]
        assert c.fields("status")["updating_db"] == "1"
        idle.send("idle database\n")
        assert idle.reply() == ["changed: database", "OK"]
        assert "updating_db" not in c.fields("status")
    finally:
        control(http, "reset")
    found = songs(c.cmd("listallinfo"))
    # The album kept its saved songs; the track was resolved anew (no cache).
    assert len(found) == 14
    assert (found[0]["file"], found[0]["Title"]) == (TRACK, "Harder Better Faster Stronger")
    assert [s["Title"] for s in found[1:3]] == ["One More Time", "Aerodynamic"]
    assert "update: deezer:album:302127 keeps its saved songs" in daemon.log()


def saved_uris(path):
    """The rows of library.sqlite, oldest first, read without writing (a
    read-only connection neither checkpoints nor removes the -wal file), after
    SQLite's own consistency check."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return [uri for (uri,) in db.execute("SELECT uri FROM items ORDER BY rowid")]
    finally:
        db.close()


def test_survives_kill_9(tmp_path, http):
    d = Daemon(tmp_path / "d", http)
    c = d.client()
    save_three(c)
    before = c.cmd("librarylist")
    # More adds in flight (sent at once, each answered after its catalog
    # request) when the daemon is killed: each is saved whole or not at all.
    tracks = [f"deezer:track:{t['id']}" for t in album_tracks()]
    c.send("".join(f"libraryadd {t}\n" for t in tracks))
    assert c.reply() == ["OK"]
    os.kill(d.proc.pid, signal.SIGKILL)
    d.proc.wait(10)
    d.log_file.close()
    db = tmp_path / "d" / "state" / "library.sqlite"
    # The commits are in the write-ahead log, not yet in the database file:
    # the restart has to recover them from it.
    assert os.path.getsize(f"{db}-wal") > 0
    uris = saved_uris(db)
    assert uris[:3] == [TRACK, ARTIST, ALBUM]
    # TRACK is one of the album's: saved already, it answers "unchanged".
    wanted = [t for t in tracks if t != TRACK]
    added = uris[3:]
    assert 1 <= len(added) and added == wanted[:len(added)], uris
    d2 = Daemon(tmp_path / "d", http)
    try:
        control(http, "reset")
        c2 = d2.client()
        for uri in added:
            assert c2.cmd(f"libraryrm {uri}") == ["OK"]
        assert c2.cmd("librarylist") == before
        assert c2.cmd("lsinfo deezer:library") == library_songs() + ["OK"]
        # Listing the Library asks the catalog nothing.
        assert [p for p in control(http, "log") if p.startswith("/api/")] == []
    finally:
        d2.close()


def test_previewctl_library(daemon):
    p = daemon.ctl("library")
    assert (p.returncode, p.stdout, p.stderr) == (0, "the library is empty\n", "")
    for uri in (ALBUM, TRACK, ARTIST):
        p = daemon.ctl("library", "add", uri)
        assert (p.returncode, p.stdout, p.stderr) == (0, "", ""), uri
    p = daemon.ctl("library", "add", ALBUM)
    assert (p.returncode, p.stdout) == (0, f"{ALBUM} is already in the library\n")
    p = daemon.ctl("library")
    assert (p.returncode, p.stdout.splitlines()) == (0, [
        f"Daft Punk  (artist, added just now)  {ARTIST}",
        f"Daft Punk - Harder, Better, Faster, Stronger  (track, added just now)  {TRACK}",
        f"Daft Punk - Discovery  (album, added just now)  {ALBUM}"])
    p = daemon.ctl("library", "rm", TRACK)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    assert len(daemon.ctl("library").stdout.splitlines()) == 2


def test_mpc_listall_stats_update(daemon, http):
    c = daemon.client()
    save_three(c)
    p = run_mpc(daemon, "listall")
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout.splitlines() == [l[len("file: "):] for l in library_songs() if l.startswith("file: ")]
    p = run_mpc(daemon, "stats")
    assert p.returncode == 0
    lines = p.stdout.splitlines()
    assert lines[:3] == ["Artists:      1", "Albums:       1", "Songs:       14"], lines
    assert "DB Play Time: 0 days, 0:07:00" in lines, lines
    # --wait returns once the job has ended (each request answers 200 ms late).
    control(http, "delay?ms=200")
    try:
        start = time.monotonic()
        p = run_mpc(daemon, "update", "--wait")
        took = time.monotonic() - start
    finally:
        control(http, "reset")
    assert (p.returncode, p.stdout, p.stderr) == (0, MODES + "\n", "")
    assert took >= 0.4, took
    assert "updating_db" not in c.fields("status")
    assert len(songs(c.cmd("listallinfo"))) == 14
    p = run_mpc(daemon, "update")
    assert (p.returncode, p.stdout.splitlines()[0]) == (0, "Updating DB (#2) ...")
