"""Issue 33's remaining mpd commands, where previewd's answers go beyond
what the differential sessions against Debian's mpd can show: stickers on
catalog songs (URI forms, inc/dec of mpd 0.24, bounds, restarts, kill -9,
mpc), MixRamp kept across a restart, the time filters over the Library,
listfiles, and what an mpd without storage answers (config, mounts,
neighbours, partitions). The forms mpd 0.23 has are also in
test_differential.py ("sticker", "mixramp", "partitions", ...)."""
import os
import signal
import subprocess
import time

from helpers import ROOT_DIRECTORIES, Daemon, album_tracks, mpc_env, restart

ALBUM = "302127"
TRACK = "deezer:track:3135556"


def test_stickers_on_catalog_songs_in_any_uri_form(daemon):
    c = daemon.client()
    assert c.cmd(f"sticker set song {TRACK} rating 5") == ["OK"]
    # A share link names the same song: its sticker is the canonical URI's.
    assert c.cmd("sticker get song https://www.deezer.com/fr/track/3135556 rating") == ["sticker: rating=5", "OK"]
    assert c.cmd("sticker inc song deezer:track:3135556 plays 2") == ["OK"]
    assert c.cmd("sticker inc song deezer:track:3135556 plays 3") == ["OK"]
    assert c.cmd("sticker dec song deezer:track:3135556 plays 1") == ["OK"]
    assert c.cmd("sticker dec song deezer:track:1 plays 4") == ["OK"]
    assert c.cmd(f"sticker list song {TRACK}") == ["sticker: plays=4", "sticker: rating=5", "OK"]
    assert c.cmd('sticker find song "" plays') == [
        "file: deezer:track:1", "sticker: plays=-4", f"file: {TRACK}", "sticker: plays=4", "OK"]
    assert c.cmd("sticker inc song deezer:track:1 plays x") == ["ACK [2@0] {sticker} Integer expected: x"]
    assert c.cmd('sticker inc song deezer:track:1 "" 1') == ["ACK [2@0] {sticker} empty sticker name"]
    assert c.cmd('sticker set song "http://127.0.0.1:1/a.mp3" rating 1') == ["ACK [50@0] {sticker} No such song"]
    assert c.cmd("sticker set song deezer:album:302127 rating 1") == ["ACK [50@0] {sticker} No such song"]


def test_sticker_find_under_an_album_and_the_library(daemon):
    c = daemon.client()
    tracks = [f"deezer:track:{t['id']}" for t in album_tracks()]
    assert c.cmd(f"sticker set song {tracks[2]} rating 3") == ["OK"]
    assert c.cmd(f"sticker set song {tracks[0]} rating 1") == ["OK"]
    assert c.cmd("sticker set song deezer:track:1 rating 9") == ["OK"]
    # In the album's order, and only its songs.
    assert c.cmd(f"sticker find song deezer:album:{ALBUM} rating") == [
        f"file: {tracks[0]}", "sticker: rating=1", f"file: {tracks[2]}", "sticker: rating=3", "OK"]
    assert c.cmd(f"sticker find song deezer:album:{ALBUM} rating > 2") == [f"file: {tracks[2]}", "sticker: rating=3", "OK"]
    assert c.cmd("sticker find song deezer:library rating") == ["OK"]
    assert c.cmd(f"libraryadd deezer:album:{ALBUM}") == ["OK"]
    assert c.cmd("sticker find song deezer:library rating") == [
        f"file: {tracks[0]}", "sticker: rating=1", f"file: {tracks[2]}", "sticker: rating=3", "OK"]


def test_sticker_values_are_bounded_and_checked(daemon):
    c = daemon.client()
    assert c.cmd(f"sticker set song {TRACK} n " + "v" * 1025) == [
        "ACK [2@0] {sticker} sticker value too long (at most 1024 bytes)"]
    assert c.cmd(f"sticker set song {TRACK} " + "n" * 256 + " v") == [
        "ACK [2@0] {sticker} sticker name too long (at most 255 bytes)"]
    assert c.cmd(f'sticker set song {TRACK} n "a\tb"') == ["ACK [2@0] {sticker} control characters in the sticker value"]
    assert c.cmd(f"sticker list song {TRACK}") == ["OK"]


def test_stickers_survive_a_restart_and_kill_9(tmp_path, http):
    d = Daemon(tmp_path / "d", http)
    c = d.client()
    assert c.cmd(f"sticker set song {TRACK} rating 4") == ["OK"]
    d = restart(d, http)
    c = d.client()
    assert c.cmd(f"sticker get song {TRACK} rating") == ["sticker: rating=4", "OK"]
    assert c.cmd(f"sticker inc song {TRACK} plays 1") == ["OK"]
    # Acknowledged is durable: kill -9 right after the OK.
    os.kill(d.proc.pid, signal.SIGKILL)
    d.proc.wait()
    d.log_file.close()
    os.rename(d.log_path, d.log_path + ".2")
    d = Daemon(d.tmp, http)
    try:
        assert d.client().cmd(f"sticker list song {TRACK}") == ["sticker: plays=1", "sticker: rating=4", "OK"]
        assert oct(os.stat(os.path.join(d.tmp, "state", "sticker.sqlite")).st_mode & 0o777) == "0o600"
    finally:
        d.close()


def test_a_damaged_sticker_file_is_answered_and_kept(tmp_path, http):
    state = tmp_path / "d" / "state"
    state.mkdir(parents=True)
    (state / "sticker.sqlite").write_bytes(b"not a database" * 100)
    d = Daemon(tmp_path / "d", http)
    try:
        c = d.client()
        reply = c.cmd(f"sticker get song {TRACK} rating")
        assert reply[0].startswith("ACK [5@0] {sticker} sticker database is disabled: cannot read "), reply
        assert c.cmd("ping") == ["OK"]
        assert (state / "sticker.sqlite").read_bytes() == b"not a database" * 100
    finally:
        d.close()


def mpc(daemon, *args):
    p = subprocess.run(["mpc", *args], env=mpc_env(daemon), capture_output=True, text=True, timeout=20)
    return p.returncode, p.stdout, p.stderr


def test_mpc_sticker(daemon):
    assert mpc(daemon, "sticker", TRACK, "set", "rating", "8") == (0, "", "")
    assert mpc(daemon, "sticker", TRACK, "get", "rating") == (0, "rating=8\n", "")
    assert mpc(daemon, "sticker", TRACK, "list") == (0, "rating=8\n", "")
    assert mpc(daemon, "sticker", "", "find", "rating") == (0, f"{TRACK}: rating=8\n", "")
    assert mpc(daemon, "sticker", TRACK, "delete", "rating") == (0, "", "")
    code, out, err = mpc(daemon, "sticker", TRACK, "get", "rating")
    assert (code, out, err) == (1, "", "MPD error: no such sticker\n")


def test_mixramp_settings_survive_a_restart(tmp_path, http):
    d = Daemon(tmp_path / "d", http)
    c = d.client()
    assert c.cmd("mixrampdb -17.5") == ["OK"]
    assert c.cmd("mixrampdelay 2") == ["OK"]
    d = restart(d, http)
    try:
        st = d.client().fields("status")
        assert (st["mixrampdb"], st["mixrampdelay"]) == ("-17.5", "2")
    finally:
        d.close()


def test_added_since_finds_library_songs_by_when_they_were_saved(daemon):
    c = daemon.client()
    before = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 2))
    assert c.cmd(f"libraryadd deezer:album:{ALBUM}") == ["OK"]
    later = int(time.time()) + 3600
    files = [f"file: deezer:track:{t['id']}" for t in album_tracks()]
    for form in (f"\"(added-since '{before}')\"", f"\"(modified-since '{before}')\"", f"modified-since {later - 7200}"):
        assert [l for l in c.cmd(f"find {form}") if l.startswith("file: ")] == files, form
    assert c.cmd(f"find \"(added-since '{later}')\"") == ["OK"]
    assert c.cmd(f"count \"(added-since '{before}')\"")[0] == f"songs: {len(files)}"
    assert c.cmd(f"find \"((added-since '{before}') AND (title == 'One More Time'))\"")[0] == files[0]
    # A song not in the Library has no time: only the negation finds it.
    assert c.cmd(f"add {TRACK}") == ["OK"]
    c.cmd("libraryrm deezer:album:" + ALBUM)
    assert c.cmd(f"playlistfind \"(added-since '{before}')\"") == ["OK"]
    assert c.cmd(f"playlistfind \"(!(added-since '{before}'))\"")[0] == f"file: {TRACK}"


def test_listfiles_lists_names_as_lsinfo_does(daemon):
    c = daemon.client()
    assert c.cmd("save mix") == ["OK"]
    assert c.cmd("listfiles") == [f"directory: {d}" for d in ROOT_DIRECTORIES] + ["OK"]
    assert c.cmd('listfiles "Charts"') == ["file: Top Tracks", "directory: Top Albums", "directory: Top Artists",
                                           "directory: Top Playlists", "directory: By Country", "OK"]
    assert c.cmd(f"listfiles deezer:album:{ALBUM}") == [f"file: deezer:track:{t['id']}" for t in album_tracks()] + ["OK"]
    assert c.cmd("listfiles nosuch") == ["ACK [50@0] {listfiles} No such directory"]


def test_what_an_mpd_without_storage_answers(daemon):
    c = daemon.client()
    assert c.cmd("config") == ["OK"]
    assert c.cmd("listmounts") == ["OK"]
    assert c.cmd("listneighbors") == ["OK"]
    assert c.cmd("readcomments deezer:track:3135556") == ["OK"]
    assert c.cmd("readcomments nosuch") == ["ACK [50@0] {readcomments} No such song"]
    assert c.cmd("newpartition p1") == ["ACK [5@0] {newpartition} too many partitions"]
    assert c.cmd("partition p1") == ["ACK [50@0] {partition} partition does not exist"]
    assert c.cmd("listpartitions") == ["partition: default", "OK"]
    assert c.cmd("outputset 0 dop 1") == ["ACK [2@0] {outputset} Unsupported attribute"]
