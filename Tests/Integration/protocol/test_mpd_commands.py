"""The MPD commands beyond the basic queue, line by line: queue versions
(plchanges), queue search, priorities, ranges, tags of queued songs, seeking,
modes, outputs, connection settings, album art, client-to-client messages,
stored playlists, the catalog as MPD's database, and idle.

Expected replies are mpd 0.23's (its source, and /tmp/mpdref/transcript.txt
for the texts it recorded); where mpd has nothing to say (Deezer URIs, the
want-list, save modes, crossfade), they follow previewd's design brief."""
import os
import time

import pytest

import catalog
from helpers import (COVER_PATH, FRAME, RATE, ROOT_DIRECTORIES, album_tracks, assert_silent, fixture, md5, pick,
                     playlist_file, reference_pcm, song_lines, songs, url, wav_pcm)

ALBUM = "302127"
TRACK = 3135556


def eminem_tracks():
    return fixture("search-eminem.json")["data"]


def album_song(i, catalog_tags=True):
    """Lines of the album's track i (0-based), without Pos/Id; without the
    tags only the album's body gives (as a stored playlist keeps it)."""
    lines = song_lines(album_tracks()[i], album="Discovery")
    return lines if catalog_tags else lines[:4] + lines[-2:]


TAGTYPES = [f"tagtype: {t}" for t in ("Artist", "Album", "AlbumArtist", "Title", "Track", "Genre", "Date", "Disc", "Label")]


def queued(i, pos, song_id, prio=None):
    """Album track i as queued at `pos` with `song_id` (mpd: Prio after Id)."""
    return album_song(i) + [f"Pos: {pos}", f"Id: {song_id}"] + ([f"Prio: {prio}"] if prio else [])


def plain(http, n, pos, song_id):
    return [f"file: {url(http, n)}", f"Pos: {pos}", f"Id: {song_id}"]


def binary_cmd(client, line):
    """Sends `line`; returns (reply lines, chunk). The chunk after a
    `binary: N` line is read as exactly N raw bytes followed by a newline;
    `binary: N` stays in the lines. chunk is None when no binary came."""
    client.send(line + "\n")
    lines, chunk = [], None
    while True:
        text = client.readline()
        lines.append(text)
        if text == "OK" or text.startswith("ACK "):
            return lines, chunk
        if text.startswith("binary: "):
            n = int(text[len("binary: "):])
            while len(client.buf) < n + 1:
                data = client.sock.recv(65536)
                if not data:
                    raise EOFError("connection closed inside a binary chunk")
                client.buf += data
            chunk, newline, client.buf = client.buf[:n], client.buf[n:n + 1], client.buf[n + 1:]
            assert newline == b"\n", newline


def add_album(c):
    assert c.cmd(f"add deezer:album:{ALBUM}") == ["OK"]


def add_urls(c, http, *ns):
    for n in ns:
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]


def iso(path):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.stat(path).st_mtime))


@pytest.fixture
def rt(daemon_factory):
    """A daemon whose songs stay playing (realtime pace, WAV output)."""
    return daemon_factory(pace="realtime")


# ---------------------------------------------------------------- plchanges

def test_plchanges_lists_only_songs_changed_since_a_version(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3)  # versions 2, 3, 4
    assert c.fields("status")["playlist"] == "4"
    assert c.cmd("plchanges 3") == plain(http, 3, 2, 3) + ["OK"]
    assert c.cmd("plchanges 2") == plain(http, 2, 1, 2) + plain(http, 3, 2, 3) + ["OK"]
    assert c.cmd("plchanges 4") == ["OK"]
    assert c.cmd("plchanges 0") == plain(http, 1, 0, 1) + plain(http, 2, 1, 2) + plain(http, 3, 2, 3) + ["OK"]


def test_plchangesposid_lists_positions_and_ids(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3)
    assert c.cmd("plchangesposid 3") == ["cpos: 2", "Id: 3", "OK"]
    assert c.cmd("plchangesposid 4") == ["OK"]
    assert c.cmd("plchangesposid 0") == ["cpos: 0", "Id: 1", "cpos: 1", "Id: 2", "cpos: 2", "Id: 3", "OK"]


def test_plchanges_with_a_version_newer_than_the_queue_lists_everything(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2)
    assert c.cmd("plchangesposid 99") == ["cpos: 0", "Id: 1", "cpos: 1", "Id: 2", "OK"]


def test_plchanges_after_move_lists_the_moved_range(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3, 4)  # version 5
    assert c.cmd("move 1 2") == ["OK"]  # version 6: positions 1 and 2 change
    assert c.fields("status")["playlist"] == "6"
    assert c.cmd("plchanges 5") == plain(http, 3, 1, 3) + plain(http, 2, 2, 2) + ["OK"]
    assert c.cmd("plchangesposid 5") == ["cpos: 1", "Id: 3", "cpos: 2", "Id: 2", "OK"]


def test_plchanges_after_delete_lists_the_songs_that_moved_up(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3, 4)
    assert c.cmd("delete 1") == ["OK"]
    assert c.cmd("plchangesposid 5") == ["cpos: 1", "Id: 3", "cpos: 2", "Id: 4", "OK"]


def test_plchanges_after_swap_and_prio(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3, 4)
    assert c.cmd("swap 0 3") == ["OK"]  # version 6
    assert c.cmd("plchangesposid 5") == ["cpos: 0", "Id: 4", "cpos: 3", "Id: 1", "OK"]
    assert c.cmd("prio 9 2") == ["OK"]  # version 7
    assert c.cmd("plchanges 6") == plain(http, 3, 2, 3) + ["Prio: 9", "OK"]


def test_plchanges_window(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3)
    assert c.cmd("plchanges 0 1:2") == plain(http, 2, 1, 2) + ["OK"]
    assert c.cmd("plchangesposid 2 0:2") == ["cpos: 1", "Id: 2", "OK"]


# ---------------------------------------------------------------- playlistfind / playlistsearch

def test_playlistfind_artist_on_a_queued_album(daemon):
    c = daemon.client()
    add_album(c)
    expected = []
    for i in range(14):
        expected += queued(i, i, i + 1)
    assert c.cmd('playlistfind artist "Daft Punk"') == expected + ["OK"]


def test_playlistfind_is_exact_and_case_sensitive(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd('playlistfind artist "daft punk"') == ["OK"]
    assert c.cmd('playlistfind title "One More"') == ["OK"]
    assert c.cmd('playlistfind title "Digital Love"') == queued(2, 2, 3) + ["OK"]


def test_playlistsearch_title_substring_ignoring_case(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd('playlistsearch title "more"') == queued(0, 0, 1) + ["OK"]
    assert c.cmd('playlistsearch title "O"') == [l for i, t in enumerate(album_tracks()) if "o" in t["title"].lower()
                                                 for l in queued(i, i, i + 1)] + ["OK"]


def test_playlistfind_filter_expression(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("playlistfind \"((artist == 'Daft Punk') AND (title contains 'One'))\"") == queued(0, 0, 1) + ["OK"]
    assert c.cmd("playlistfind \"((artist == 'Daft Punk') AND (title contains 'one'))\"") == ["OK"]
    assert c.cmd("playlistsearch \"(title contains 'ONE')\"") == queued(0, 0, 1) + ["OK"]
    assert c.cmd("playlistfind \"(!(title contains 'o'))\"") == [
        l for i, t in enumerate(album_tracks()) if "o" not in t["title"] for l in queued(i, i, i + 1)] + ["OK"]


def test_playlistfind_errors(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("playlistfind artist") == ["ACK [2@0] {playlistfind} Incorrect number of filter arguments"]
    assert c.cmd("playlistfind \"(artist == 'x'\"") == ["ACK [2@0] {playlistfind} ')' expected"]


# ---------------------------------------------------------------- prio, prioid

def test_prio_range_shows_prio_after_id(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("prio 5 0:2") == ["OK"]
    assert c.cmd("playlistinfo 0:3") == queued(0, 0, 1, 5) + queued(1, 1, 2, 5) + queued(2, 2, 3) + ["OK"]


def test_prio_several_ranges_and_reset(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("prio 200 1 3:5") == ["OK"]
    assert c.cmd("playlistinfo 0:5") == (queued(0, 0, 1) + queued(1, 1, 2, 200) + queued(2, 2, 3)
                                        + queued(3, 3, 4, 200) + queued(4, 4, 5, 200) + ["OK"])
    assert c.cmd("prio 0 0:") == ["OK"]
    assert c.cmd("playlistinfo 1") == queued(1, 1, 2) + ["OK"]


def test_prioid(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("prioid 7 5 6") == ["OK"]
    assert c.cmd("playlistid 5") == queued(4, 4, 5, 7) + ["OK"]
    assert c.cmd("playlistid 6") == queued(5, 5, 6, 7) + ["OK"]


def test_prio_errors(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("prio 256 0") == ["ACK [2@0] {prio} Number too large: 256"]
    assert c.cmd("prio 5 20") == ["ACK [2@0] {prio} Bad song index"]
    assert c.cmd("prioid 5 99") == ["ACK [50@0] {prioid} No such song"]
    assert c.cmd("prio x 0") == ["ACK [2@0] {prio} Integer expected: x"]


# ---------------------------------------------------------------- rangeid

def test_rangeid_shows_range_and_clears(daemon):
    c = daemon.client()
    add_album(c)
    song = album_song(2)
    assert c.cmd("rangeid 3 1.5:3") == ["OK"]
    # mpd: Range right after file; the duration is that of the range.
    assert c.cmd("playlistid 3") == ([song[0], "Range: 1.500-3.000"] + song[1:-2]
                                     + ["Time: 2", "duration: 1.500", "Pos: 2", "Id: 3", "OK"])
    assert c.cmd("rangeid 3 :") == ["OK"]
    assert c.cmd("playlistid 3") == queued(2, 2, 3) + ["OK"]


def test_rangeid_open_end(daemon):
    c = daemon.client()
    add_album(c)
    song = album_song(0)
    assert c.cmd("rangeid 1 2:") == ["OK"]
    assert c.cmd("playlistid 1") == ([song[0], "Range: 2.000-"] + song[1:-2]
                                     + ["Time: 28", "duration: 28.000", "Pos: 0", "Id: 1", "OK"])


def test_rangeid_errors(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("rangeid 3 5:2") == ["ACK [2@0] {rangeid} Bad range"]
    assert c.cmd("rangeid 3 abc") == ["ACK [2@0] {rangeid} Bad range"]
    assert c.cmd("rangeid 99 1:2") == ["ACK [50@0] {rangeid} No such song"]


def test_rangeid_of_the_playing_song_is_refused(rt, http):
    c = rt.client()
    assert c.cmd(f'addid "{url(http, 1)}"') == ["Id: 1", "OK"]
    assert c.cmd("play") == ["OK"]
    assert c.cmd("rangeid 1 1:2") == ["ACK [4@0] {rangeid} Cannot edit the current song"]
    assert c.cmd("stop") == ["OK"]


def test_rangeid_plays_exactly_that_slice(daemon, http):
    c = daemon.client()
    assert c.cmd(f'addid "{url(http, 1)}"') == ["Id: 1", "OK"]
    assert c.cmd("rangeid 1 1.5:3") == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    frames, rate, channels, pcm = wav_pcm(daemon.wav)
    ref = reference_pcm("preview-01.mp3")
    start, end = int(1.5 * RATE), 3 * RATE
    assert (frames, rate, channels) == (end - start, RATE, 2)
    assert md5(pcm) == md5(ref[start * FRAME:end * FRAME])


# ---------------------------------------------------------------- swap, swapid, moveid

def test_swap_and_swapid(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3)
    assert c.cmd("swap 0 2") == ["OK"]
    assert c.cmd("playlistinfo") == plain(http, 3, 0, 3) + plain(http, 2, 1, 2) + plain(http, 1, 2, 1) + ["OK"]
    assert c.cmd("swapid 3 2") == ["OK"]
    assert c.cmd("playlist") == [f"0:file: {url(http, 2)}", f"1:file: {url(http, 3)}", f"2:file: {url(http, 1)}", "OK"]
    assert c.fields("status")["playlist"] == "6"
    assert c.cmd("swap 0 3") == ["ACK [2@0] {swap} Bad song index"]
    assert c.cmd("swapid 1 9") == ["ACK [50@0] {swapid} No such song"]


def test_moveid(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3)
    assert c.cmd("moveid 1 2") == ["OK"]
    assert c.cmd("playlist") == [f"0:file: {url(http, 2)}", f"1:file: {url(http, 3)}", f"2:file: {url(http, 1)}", "OK"]
    assert c.cmd("moveid 3 0") == ["OK"]
    assert c.cmd("playlistinfo") == plain(http, 3, 0, 3) + plain(http, 2, 1, 2) + plain(http, 1, 2, 1) + ["OK"]
    assert c.cmd("moveid 9 0") == ["ACK [50@0] {moveid} No such song"]
    assert c.cmd("moveid 1 5") == ["ACK [2@0] {moveid} Number too large: 5"]


# ---------------------------------------------------------------- addtagid, cleartagid

def test_addtagid_and_cleartagid_on_a_plain_url(daemon, http):
    c = daemon.client()
    assert c.cmd(f'addid "{url(http, 1)}"') == ["Id: 1", "OK"]
    assert c.cmd("addtagid 1 artist X") == ["OK"]
    assert c.cmd('addtagid 1 title "T t"') == ["OK"]
    assert c.cmd("playlistid 1") == [f"file: {url(http, 1)}", "Artist: X", "Title: T t", "Pos: 0", "Id: 1", "OK"]
    assert c.cmd("cleartagid 1 artist") == ["OK"]
    assert c.cmd("playlistid 1") == [f"file: {url(http, 1)}", "Title: T t", "Pos: 0", "Id: 1", "OK"]
    assert c.cmd("cleartagid 1") == ["OK"]
    assert c.cmd("playlistid 1") == plain(http, 1, 0, 1) + ["OK"]
    assert c.fields("status")["playlist"] == "6"


def test_addtagid_adds_a_value_next_to_the_existing_one(daemon):
    # mpd's addtagid adds a tag value; it does not replace the one the song has.
    c = daemon.client()
    assert c.cmd(f"addid deezer:track:{TRACK}") == ["Id: 1", "OK"]
    song = album_song(3)
    assert c.cmd("addtagid 1 artist X") == ["OK"]
    assert c.cmd("playlistid 1") == song[:-2] + ["Artist: X"] + song[-2:] + ["Pos: 0", "Id: 1", "OK"]
    assert c.cmd("cleartagid 1 artist") == ["OK"]
    assert c.cmd("playlistid 1") == [song[0]] + song[2:] + ["Pos: 0", "Id: 1", "OK"]


def test_addtagid_errors(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1)
    assert c.cmd("addtagid 1 bogus X") == ["ACK [2@0] {addtagid} Unknown tag type: bogus"]
    assert c.cmd("addtagid 9 artist X") == ["ACK [50@0] {addtagid} No such song"]
    assert c.cmd("cleartagid 1 bogus") == ["ACK [2@0] {cleartagid} Unknown tag type: bogus"]
    assert c.cmd("cleartagid 9") == ["ACK [50@0] {cleartagid} No such song"]


# ---------------------------------------------------------------- seeking

def test_seek_while_stopped_plays_from_there(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1)
    assert c.cmd("seek 0 10") == ["OK"]
    daemon.wait_state(c, "stop")
    frames, rate, channels, pcm = wav_pcm(daemon.wav)
    ref = reference_pcm("preview-01.mp3")
    assert (frames, rate, channels) == (30 * RATE - 10 * RATE, RATE, 2)
    assert md5(pcm) == md5(ref[10 * RATE * FRAME:])


def test_seek_during_playback_plays_the_rest_from_there(rt, http):
    c = rt.client()
    add_urls(c, http, 1)
    assert c.cmd("play") == ["OK"]
    assert c.fields("status")["state"] == "play"
    assert c.cmd("seek 0 25") == ["OK"]
    rt.wait_state(c, "stop")
    frames, _, _, pcm = wav_pcm(rt.wav)
    tail = reference_pcm("preview-01.mp3")[25 * RATE * FRAME:]
    assert frames * FRAME == len(pcm) >= len(tail)
    assert md5(pcm[len(pcm) - len(tail):]) == md5(tail)


def test_seekid_during_playback(rt, http):
    c = rt.client()
    add_urls(c, http, 1, 2)
    assert c.cmd("play 0") == ["OK"]
    assert c.cmd("seekid 2 27") == ["OK"]
    st = c.fields("status")
    assert pick(st, "state", "song", "songid") == {"state": "play", "song": "1", "songid": "2"}
    rt.wait_state(c, "stop")
    _, _, _, pcm = wav_pcm(rt.wav)
    tail = reference_pcm("preview-02.mp3")[27 * RATE * FRAME:]
    assert len(pcm) >= len(tail)
    assert md5(pcm[len(pcm) - len(tail):]) == md5(tail)


def test_seekcur_absolute_and_relative_while_paused(rt, http):
    c = rt.client()
    add_urls(c, http, 1)
    assert c.cmd("play") == ["OK"]
    assert c.cmd("pause 1") == ["OK"]
    for line, elapsed in (("seekcur 20", "20.000"), ("seekcur +5", "25.000"), ("seekcur -10", "15.000"),
                          ("seekcur -99", "0.000"), ("seekid 1 7.5", "7.500")):
        assert c.cmd(line) == ["OK"], line
        assert pick(c.fields("status"), "state", "song", "elapsed") == {
            "state": "pause", "song": "0", "elapsed": elapsed}, line
    assert c.cmd("stop") == ["OK"]


def test_seek_errors(daemon, http):
    c = daemon.client()
    assert c.cmd("seekcur 10") == ["ACK [55@0] {seekcur} Not playing"]
    assert c.cmd("seekcur +1") == ["ACK [55@0] {seekcur} Not playing"]
    add_urls(c, http, 1)
    assert c.cmd("seek 5 1") == ["ACK [2@0] {seek} Bad song index"]
    assert c.cmd("seekid 9 1") == ["ACK [50@0] {seekid} No such song"]
    assert c.cmd("seek 0 abc") == ["ACK [2@0] {seek} Float expected: abc"]
    assert c.fields("status")["state"] == "stop"


# ---------------------------------------------------------------- modes, replay gain, outputs

def test_consume_single_oneshot_and_crossfade(daemon):
    c = daemon.client()
    assert c.cmd("consume 1") == ["OK"]
    assert c.cmd("single oneshot") == ["OK"]
    assert c.cmd("crossfade 0") == ["OK"]
    assert c.cmd("status") == [
        "volume: 100", "repeat: 0", "random: 0", "single: oneshot", "consume: 1", "autoplay: 0",
        "partition: default", "playlist: 1", "playlistlength: 0", "mixrampdb: 0", "state: stop", "OK"]


def test_crossfade_shows_in_status_after_the_state(daemon):
    c = daemon.client()
    assert c.cmd("crossfade 5") == ["OK"]
    assert c.cmd("status") == [
        "volume: 100", "repeat: 0", "random: 0", "single: 0", "consume: 0", "autoplay: 0",
        "partition: default", "playlist: 1", "playlistlength: 0", "mixrampdb: 0", "state: stop", "xfade: 5", "OK"]
    assert c.cmd("crossfade x") == ["ACK [2@0] {crossfade} Integer expected: x"]
    assert c.fields("status")["xfade"] == "5", "a refused value changes nothing"


def test_replay_gain_mode_and_status(daemon):
    c = daemon.client()
    assert c.cmd("replay_gain_status") == ["replay_gain_mode: off", "OK"]
    for mode in ("track", "album", "auto", "off", "track"):
        assert c.cmd(f"replay_gain_mode {mode}") == ["OK"]
        assert c.cmd("replay_gain_status") == [f"replay_gain_mode: {mode}", "OK"]
    assert c.cmd("replay_gain_mode loud") == ["ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode"]
    assert c.cmd("replay_gain_status") == ["replay_gain_mode: track", "OK"]


def test_outputs_enable_disable_toggle(daemon):
    c = daemon.client()

    def outputs(enabled):
        return ["outputid: 0", "outputname: wav", "plugin: wav", f"outputenabled: {enabled}", "OK"]

    assert c.cmd("outputs") == outputs(1)
    assert c.cmd("disableoutput 0") == ["OK"]
    assert c.cmd("outputs") == outputs(0)
    assert c.cmd("enableoutput 0") == ["OK"]
    assert c.cmd("outputs") == outputs(1)
    assert c.cmd("toggleoutput 0") == ["OK"]
    assert c.cmd("outputs") == outputs(0)
    assert c.cmd("toggleoutput 0") == ["OK"]
    assert c.cmd("outputs") == outputs(1)
    assert c.cmd("enableoutput 7") == ["ACK [50@0] {enableoutput} No such audio output"]
    assert c.cmd("disableoutput 1") == ["ACK [50@0] {disableoutput} No such audio output"]
    assert c.cmd("toggleoutput x") == ["ACK [2@0] {toggleoutput} Integer expected: x"]


# ---------------------------------------------------------------- capabilities and connection settings

def test_notcommands_urlhandlers_decoders(daemon):
    c = daemon.client()
    assert c.cmd("notcommands") == ["OK"]
    assert c.cmd("urlhandlers") == ["handler: deezer:", "handler: http://", "handler: https://", "OK"]
    assert c.cmd("decoders") == ["plugin: mpg123", "suffix: mp3", "mime_type: audio/mpeg", "OK"]


def test_commands_lists_the_new_commands(daemon):
    lines = daemon.client().cmd("commands")
    names = [l[len("command: "):] for l in lines[:-1]]
    assert lines[-1] == "OK" and names == sorted(names)
    wanted = {"plchanges", "plchangesposid", "playlistfind", "playlistsearch", "prio", "prioid", "rangeid",
              "swap", "swapid", "moveid", "addtagid", "cleartagid", "seek", "seekid", "seekcur", "crossfade",
              "replay_gain_mode", "replay_gain_status", "outputs", "enableoutput", "disableoutput",
              "toggleoutput", "notcommands", "tagtypes", "urlhandlers", "decoders", "config", "binarylimit",
              "albumart", "readpicture", "password", "channels", "subscribe", "unsubscribe", "sendmessage",
              "readmessages", "save", "load", "listplaylists", "listplaylist", "listplaylistinfo",
              "playlistadd", "playlistclear", "playlistdelete", "playlistmove", "rename", "rm", "lsinfo",
              "search", "find", "searchadd", "findadd", "searchaddpl", "list", "count", "update"}
    assert wanted - set(names) == set()


def test_config_and_password(daemon):
    c = daemon.client()
    assert c.cmd("config") == ["OK"]  # a local socket, and no music directory to tell
    assert c.cmd("password x") == ["ACK [3@0] {password} incorrect password"]
    assert c.cmd("password") == ['ACK [2@0] {password} wrong number of arguments for "password"']
    assert c.cmd("ping") == ["OK"]


def test_tagtypes_lists_in_mpd_order_and_disable_hides_album(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("tagtypes") == TAGTYPES + ["OK"]
    assert c.cmd("tagtypes disable Album") == ["OK"]
    assert c.cmd("tagtypes") == [t for t in TAGTYPES if t != "tagtype: Album"] + ["OK"]
    song = album_song(0)
    assert c.cmd("playlistinfo 0") == song[:3] + song[4:] + ["Pos: 0", "Id: 1", "OK"], "no Album line"
    # The setting is the connection's own.
    assert daemon.client().cmd("playlistinfo 0") == queued(0, 0, 1) + ["OK"]


def test_tagtypes_clear_all_enable(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("tagtypes clear") == ["OK"]
    assert c.cmd("tagtypes") == ["OK"]
    assert c.cmd("playlistinfo 0") == [album_song(0)[0], "Time: 30", "duration: 30.000", "Pos: 0", "Id: 1", "OK"]
    assert c.cmd("tagtypes enable Title") == ["OK"]
    assert c.cmd("tagtypes") == ["tagtype: Title", "OK"]
    assert c.cmd("tagtypes enable AlbumArtist Composer") == ["OK"]
    assert c.cmd("tagtypes") == ["tagtype: AlbumArtist", "tagtype: Title", "OK"]
    assert c.cmd("tagtypes all") == ["OK"]
    assert c.cmd("tagtypes") == TAGTYPES + ["OK"]
    assert c.cmd("playlistinfo 0") == queued(0, 0, 1) + ["OK"]


def test_tagtypes_errors(daemon):
    c = daemon.client()
    assert c.cmd("tagtypes enable Bogus") == ["ACK [2@0] {tagtypes} Unknown tag type"]
    assert c.cmd("tagtypes disable Artist Bogus") == ["ACK [2@0] {tagtypes} Unknown tag type"]
    assert c.cmd("tagtypes enable") == ["ACK [2@0] {tagtypes} Not enough arguments"]
    assert c.cmd("tagtypes clear Artist") == ["ACK [2@0] {tagtypes} Too many arguments"]
    assert c.cmd("tagtypes frobnicate") == ["ACK [2@0] {tagtypes} Unknown sub command"]
    assert c.cmd("tagtypes") == TAGTYPES + ["OK"]


# ---------------------------------------------------------------- albumart, readpicture

def test_albumart_first_chunk_with_binarylimit_64(daemon):
    c = daemon.client()
    cover = catalog.cover_bytes(COVER_PATH)
    assert c.cmd("binarylimit 64") == ["OK"]
    lines, chunk = binary_cmd(c, f"albumart deezer:track:{TRACK} 0")
    assert lines == [f"size: {len(cover)}", "binary: 64", "OK"]
    assert chunk == cover[:64]
    assert c.cmd("ping") == ["OK"]


def test_albumart_chunks_reassemble_the_whole_cover(daemon):
    c = daemon.client()
    cover = catalog.cover_bytes(COVER_PATH)
    data, sizes = b"", []
    while len(data) < len(cover):
        lines, chunk = binary_cmd(c, f"albumart deezer:track:{TRACK} {len(data)}")
        assert lines == [f"size: {len(cover)}", f"binary: {len(chunk)}", "OK"]
        sizes.append(len(chunk))
        data += chunk
    assert data == cover
    assert sizes == [8192, len(cover) - 8192]


def test_albumart_of_an_album_uri_and_offsets_at_the_end(daemon):
    c = daemon.client()
    cover = catalog.cover_bytes(COVER_PATH)
    assert c.cmd("binarylimit 100") == ["OK"]
    lines, chunk = binary_cmd(c, f"albumart deezer:album:{ALBUM} {len(cover) - 10}")
    assert (lines, chunk) == ([f"size: {len(cover)}", "binary: 10", "OK"], cover[-10:])
    lines, chunk = binary_cmd(c, f"albumart deezer:album:{ALBUM} {len(cover)}")
    assert (lines, chunk) == ([f"size: {len(cover)}", "binary: 0", "OK"], b"")
    assert c.cmd(f"albumart deezer:album:{ALBUM} {len(cover) + 1}") == ["ACK [2@0] {albumart} Offset too large"]


def test_albumart_of_a_uri_with_a_trailing_slash_as_cantata_sends_it(daemon):
    """Cantata asks for the cover of a song's directory: `deezer:track:ID/`
    (and `deezer:album:ID/`) name the same song and album."""
    c = daemon.client()
    cover = catalog.cover_bytes(COVER_PATH)
    assert c.cmd("binarylimit 64") == ["OK"]
    for uri in (f"deezer:track:{TRACK}/", f"deezer:album:{ALBUM}/", f"deezer:track:{TRACK}//"):
        lines, chunk = binary_cmd(c, f'albumart "{uri}" 0')
        assert (lines, chunk) == ([f"size: {len(cover)}", "binary: 64", "OK"], cover[:64]), uri
    lines, chunk = binary_cmd(c, f'readpicture "deezer:track:{TRACK}/" 0')
    assert lines == [f"size: {len(cover)}", "type: image/jpeg", "binary: 64", "OK"]


def test_readpicture_includes_the_type(daemon):
    c = daemon.client()
    cover = catalog.cover_bytes(COVER_PATH)
    assert c.cmd("binarylimit 64") == ["OK"]
    lines, chunk = binary_cmd(c, f"readpicture deezer:track:{TRACK} 64")
    assert lines == [f"size: {len(cover)}", "type: image/jpeg", "binary: 64", "OK"]
    assert chunk == cover[64:128]
    assert c.cmd(f"readpicture deezer:track:{TRACK} {len(cover) + 1}") == ["ACK [2@0] {readpicture} Bad file offset"]


def test_albumart_and_readpicture_of_a_plain_url(daemon, http):
    c = daemon.client()
    assert c.cmd(f'albumart "{url(http, 1)}" 0') == ["ACK [50@0] {albumart} No file exists"]
    assert c.cmd(f'readpicture "{url(http, 1)}" 0') == ["OK"]
    assert c.cmd(f"albumart deezer:track:{TRACK} x") == ["ACK [2@0] {albumart} Integer expected: x"]


def test_binarylimit_too_small(daemon):
    c = daemon.client()
    assert c.cmd("binarylimit 63") == ["ACK [2@0] {binarylimit} Value too small"]
    assert c.cmd("binarylimit x") == ["ACK [2@0] {binarylimit} Integer expected: x"]


# ---------------------------------------------------------------- client-to-client messages

def test_channels_subscribe_sendmessage_readmessages(daemon):
    a, b = daemon.client(), daemon.client()
    assert a.cmd("channels") == ["OK"]
    assert a.cmd("subscribe chan1") == ["OK"]
    assert b.cmd("subscribe chan2") == ["OK"]
    assert b.cmd("subscribe chan1") == ["OK"]
    assert a.cmd("channels") == ["channel: chan1", "channel: chan2", "OK"]
    assert b.cmd("sendmessage chan1 hello") == ["OK"]
    assert b.cmd('sendmessage chan1 "hello world"') == ["OK"]
    assert b.cmd("sendmessage chan2 other") == ["OK"]
    assert a.cmd("readmessages") == ["channel: chan1", "message: hello", "channel: chan1", "message: hello world", "OK"]
    assert a.cmd("readmessages") == ["OK"]
    assert b.cmd("readmessages") == ["channel: chan1", "message: hello", "channel: chan1", "message: hello world",
                                     "channel: chan2", "message: other", "OK"]
    assert a.cmd("unsubscribe chan1") == ["OK"]
    assert b.cmd("unsubscribe chan1") == ["OK"]
    assert a.cmd("channels") == ["channel: chan2", "OK"]


def test_message_errors(daemon):
    a = daemon.client()
    assert a.cmd("sendmessage nobody x") == ["ACK [50@0] {sendmessage} nobody is subscribed to this channel"]
    assert a.cmd("subscribe chan1") == ["OK"]
    assert a.cmd("subscribe chan1") == ["ACK [56@0] {subscribe} already subscribed to this channel"]
    assert a.cmd('subscribe "bad name"') == ["ACK [2@0] {subscribe} invalid channel name"]
    assert a.cmd('sendmessage "bad name" x') == ["ACK [2@0] {sendmessage} invalid channel name"]
    assert a.cmd("unsubscribe other") == ["ACK [50@0] {unsubscribe} not subscribed to this channel"]


def test_idle_message_wakes_the_subscriber(daemon):
    a, b = daemon.client(), daemon.client()
    assert a.cmd("subscribe chan1") == ["OK"]
    assert a.cmd("idle subscription") == ["changed: subscription", "OK"]
    a.send("idle message\n")
    assert_silent(a)
    assert b.cmd("sendmessage chan1 ping") == ["OK"]
    assert a.reply() == ["changed: message", "OK"]
    assert a.cmd("readmessages") == ["channel: chan1", "message: ping", "OK"]


def test_idle_subscription_fires_on_subscribe_and_unsubscribe(daemon):
    a, b = daemon.client(), daemon.client()
    a.send("idle subscription\n")
    assert_silent(a)
    assert b.cmd("subscribe chan1") == ["OK"]
    assert a.reply() == ["changed: subscription", "OK"]
    a.send("idle subscription\n")
    assert_silent(a)
    assert b.cmd("unsubscribe chan1") == ["OK"]
    assert a.reply() == ["changed: subscription", "OK"]


# ---------------------------------------------------------------- stored playlists

def test_save_listplaylists_listplaylist_listplaylistinfo(daemon, http):
    c = daemon.client()
    assert c.cmd(f"add deezer:track:{TRACK}") == ["OK"]
    add_urls(c, http, 1)
    assert c.cmd("save mine") == ["OK"]
    path = playlist_file(daemon, "mine")
    assert c.cmd("listplaylists") == ["playlist: mine", f"Last-Modified: {iso(path)}", "OK"]
    assert c.cmd("listplaylist mine") == [f"file: deezer:track:{TRACK}", f"file: {url(http, 1)}", "OK"]
    assert c.cmd("listplaylistinfo mine") == album_song(3, catalog_tags=False) + [f"file: {url(http, 1)}", "OK"]


def test_save_writes_an_extended_m3u(daemon):
    c = daemon.client()
    assert c.cmd(f"add deezer:track:{TRACK}") == ["OK"]
    assert c.cmd(f"add deezer:track:{album_tracks()[0]['id']}") == ["OK"]
    assert c.cmd("save mine") == ["OK"]
    with open(playlist_file(daemon, "mine"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0] == "#EXTM3U"
    assert [l for l in lines if l.startswith("#EXTINF:")] == [
        "#EXTINF:30,Daft Punk - Harder, Better, Faster, Stronger", "#EXTINF:30,Daft Punk - One More Time"]
    assert [l for l in lines if not l.startswith("#")] == [
        f"deezer:track:{TRACK}", f"deezer:track:{album_tracks()[0]['id']}"]


def test_save_existing_then_append_and_replace(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1)
    assert c.cmd("save x") == ["OK"]
    assert c.cmd("save x") == ["ACK [56@0] {save} Playlist already exists"]
    add_urls(c, http, 2)
    assert c.cmd("save x append") == ["OK"]
    assert c.cmd("listplaylist x") == [f"file: {url(http, 1)}", f"file: {url(http, 1)}", f"file: {url(http, 2)}", "OK"]
    assert c.cmd("save x replace") == ["OK"]
    assert c.cmd("listplaylist x") == [f"file: {url(http, 1)}", f"file: {url(http, 2)}", "OK"]
    assert c.cmd("save y append") == ["OK"]
    assert c.cmd("listplaylist y") == [f"file: {url(http, 1)}", f"file: {url(http, 2)}", "OK"]


@pytest.mark.parametrize("name", ['""', "a/b", ".", ".."])
def test_save_bad_playlist_names(daemon, name):
    c = daemon.client()
    assert c.cmd(f"save {name}") == ["ACK [2@0] {save} Bad playlist name"]
    assert c.cmd("listplaylists") == ["OK"]


def test_load_whole_range_and_position(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3)
    assert c.cmd("save three") == ["OK"]
    assert c.cmd("clear") == ["OK"]
    assert c.cmd("load three") == ["OK"]
    assert c.cmd("playlistinfo") == plain(http, 1, 0, 4) + plain(http, 2, 1, 5) + plain(http, 3, 2, 6) + ["OK"]
    assert c.cmd("load three 1:3") == ["OK"]
    assert c.cmd("load three 0:1 0") == ["OK"]
    assert c.cmd("playlist") == [f"0:file: {url(http, 1)}", f"1:file: {url(http, 1)}", f"2:file: {url(http, 2)}",
                                 f"3:file: {url(http, 3)}", f"4:file: {url(http, 2)}", f"5:file: {url(http, 3)}", "OK"]


def test_load_keeps_the_tags(daemon):
    c = daemon.client()
    add_album(c)
    assert c.cmd("save disc") == ["OK"]
    assert c.cmd("clear") == ["OK"]
    assert c.cmd("load disc 2:4") == ["OK"]
    # A stored playlist keeps Artist, Title, Album and the length (M3U's
    # #EXTINF); the album's own tags come back when the album is queued.
    plain_tags = [album_song(i, catalog_tags=False) + [f"Pos: {p}", f"Id: {i + 13}"] for p, i in ((0, 2), (1, 3))]
    assert c.cmd("playlistinfo") == plain_tags[0] + plain_tags[1] + ["OK"]


def test_load_errors(daemon):
    c = daemon.client()
    assert c.cmd("load nosuch") == ["ACK [50@0] {load} No such playlist"]
    assert c.cmd("listplaylist nosuch") == ["ACK [50@0] {listplaylist} No such playlist"]
    assert c.cmd("listplaylistinfo nosuch") == ["ACK [50@0] {listplaylistinfo} No such playlist"]


def test_playlistadd_track_and_album(daemon):
    c = daemon.client()
    assert c.cmd(f"playlistadd new deezer:track:{TRACK}") == ["OK"]
    assert c.cmd("listplaylistinfo new") == album_song(3, catalog_tags=False) + ["OK"]
    assert c.cmd(f"playlistadd new deezer:album:{ALBUM}") == ["OK"]
    expected = [f"file: deezer:track:{TRACK}"] + [f"file: deezer:track:{t['id']}" for t in album_tracks()]
    assert c.cmd("listplaylist new") == expected + ["OK"]
    assert c.cmd(f"playlistadd new deezer:track:{album_tracks()[0]['id']} 0") == ["OK"]
    assert c.cmd("listplaylist new") == [f"file: deezer:track:{album_tracks()[0]['id']}"] + expected + ["OK"]
    assert c.cmd(f"playlistadd new deezer:track:{TRACK} 99") == ["ACK [2@0] {playlistadd} Bad position"]


def test_playlistdelete_playlistmove_playlistclear(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1, 2, 3, 4)
    assert c.cmd("save p") == ["OK"]
    assert c.cmd("playlistdelete p 1") == ["OK"]
    assert c.cmd("listplaylist p") == [f"file: {url(http, n)}" for n in (1, 3, 4)] + ["OK"]
    assert c.cmd("playlistmove p 0 2") == ["OK"]
    assert c.cmd("listplaylist p") == [f"file: {url(http, n)}" for n in (3, 4, 1)] + ["OK"]
    assert c.cmd("playlistdelete p 0:2") == ["OK"]
    assert c.cmd("listplaylist p") == [f"file: {url(http, 1)}", "OK"]
    assert c.cmd("playlistdelete p 5") == ["ACK [2@0] {playlistdelete} Bad song index"]
    assert c.cmd("playlistmove p 0 5") == ["ACK [2@0] {playlistmove} Bad range"]
    assert c.cmd("playlistclear p") == ["OK"]
    assert c.cmd("listplaylist p") == ["OK"]
    assert [l for l in c.cmd("listplaylists") if l.startswith("playlist:")] == ["playlist: p"]


def test_playlist_edits_of_a_missing_playlist(daemon):
    c = daemon.client()
    assert c.cmd("playlistclear nosuch") == ["ACK [50@0] {playlistclear} No such playlist"]
    assert c.cmd("playlistdelete nosuch 0") == ["ACK [50@0] {playlistdelete} No such playlist"]
    assert c.cmd("playlistmove nosuch 0 1") == ["ACK [50@0] {playlistmove} No such playlist"]
    assert c.cmd("listplaylists") == ["OK"]


def test_rename_and_rm(daemon, http):
    c = daemon.client()
    add_urls(c, http, 1)
    assert c.cmd("save a") == ["OK"]
    assert c.cmd("save b") == ["OK"]
    assert c.cmd("rename a b") == ["ACK [56@0] {rename} Playlist exists already"]
    assert c.cmd("rename a c") == ["OK"]
    assert c.cmd("rename nosuch d") == ["ACK [50@0] {rename} No such playlist"]
    assert c.cmd("listplaylists") == ["playlist: b", f"Last-Modified: {iso(playlist_file(daemon, 'b'))}",
                                      "playlist: c", f"Last-Modified: {iso(playlist_file(daemon, 'c'))}", "OK"]
    assert c.cmd("rm c") == ["OK"]
    assert c.cmd("rm c") == ["ACK [50@0] {rm} No such playlist"]
    assert c.cmd("listplaylists") == ["playlist: b", f"Last-Modified: {iso(playlist_file(daemon, 'b'))}", "OK"]
    assert not os.path.exists(playlist_file(daemon, "c"))


def test_idle_stored_playlist_fires_on_save_and_rm(daemon, http):
    a, b = daemon.client(), daemon.client()
    add_urls(b, http, 1)
    assert a.cmd("idle playlist") == ["changed: playlist", "OK"]
    for line in ("save x", "playlistadd x deezer:track:3135556", "rename x y", "rm y"):
        a.send("idle stored_playlist\n")
        assert_silent(a, 0.1)
        assert b.cmd(line) == ["OK"], line
        assert a.reply() == ["changed: stored_playlist", "OK"], line


# ---------------------------------------------------------------- database: lsinfo, find, search, list, count

def test_lsinfo_root_lists_catalog_directories_and_playlists(daemon, http):
    c = daemon.client()
    assert c.cmd("lsinfo") == [*(f"directory: {d}" for d in ROOT_DIRECTORIES), "OK"]
    add_urls(c, http, 1)
    assert c.cmd("save mix") == ["OK"]
    expected = [*(f"directory: {d}" for d in ROOT_DIRECTORIES), "playlist: mix",
                f"Last-Modified: {iso(playlist_file(daemon, 'mix'))}", "OK"]
    assert c.cmd("lsinfo") == expected
    assert c.cmd('lsinfo "/"') == expected


def test_lsinfo_of_an_album_and_the_chart(daemon):
    c = daemon.client()
    expected = [l for i in range(14) for l in album_song(i)]
    assert c.cmd(f"lsinfo deezer:album:{ALBUM}") == expected + ["OK"]
    assert c.cmd("lsinfo deezer:chart") == [l for t in fixture("chart-0-tracks.json")["data"]
                                            for l in song_lines(t)] + ["OK"]


def test_lsinfo_of_nothing_known(daemon):
    c = daemon.client()
    assert c.cmd("lsinfo nosuch") == ["ACK [50@0] {lsinfo} No such directory"]


def test_search_any_eminem(daemon):
    c = daemon.client()
    expected = [t for t in eminem_tracks()
                if any("eminem" in v.lower() for v in (t["artist"]["name"], t["title"], t["album"]["title"]))]
    reply = c.cmd("search any eminem")
    assert reply == [l for t in expected for l in song_lines(t)] + ["OK"]
    found = songs(reply)
    assert (len(found), found[0]["file"], found[0]["Title"]) == (21, "deezer:track:6461432", "Not Afraid")


def test_find_artist_is_exact_and_case_sensitive(daemon):
    c = daemon.client()
    expected = [l for t in eminem_tracks() if t["artist"]["name"] == "Eminem" for l in song_lines(t)] + ["OK"]
    assert c.cmd("find artist Eminem") == expected
    assert c.cmd("find \"(artist == 'Eminem')\"") == expected
    assert c.cmd("find artist eminem") == ["OK"]


def test_search_filter_expression(daemon):
    c = daemon.client()
    tracks = fixture("search-not-afraid-strict-on.json")["data"]

    def text(t):
        return " ".join((t["artist"]["name"], t["title"], t["album"]["title"])).lower()
    expected = [l for t in tracks if "not" in text(t) and "afraid" in text(t) for l in song_lines(t)]
    assert c.cmd("search \"((any contains 'not') AND (any contains 'afraid'))\"") == expected + ["OK"]
    # The stand-in catalog knows no other search: Deezer has nothing for it.
    assert c.cmd("search \"(any contains 'afraid')\"") == ["OK"]


def test_search_window(daemon):
    c = daemon.client()
    expected = [t for t in eminem_tracks() if t["artist"]["name"] == "Eminem"]
    assert c.cmd("find artist Eminem window 1:3") == [l for t in expected[1:3] for l in song_lines(t)] + ["OK"]


def test_searchadd_and_findadd(daemon):
    c = daemon.client()
    eminem = [t for t in eminem_tracks() if t["artist"]["name"] == "Eminem"]
    assert c.cmd("searchadd any eminem") == ["OK"]
    assert c.cmd("playlist") == [f"{i}:file: deezer:track:{t['id']}" for i, t in enumerate(eminem)] + ["OK"]
    assert c.cmd("clear") == ["OK"]
    assert c.cmd(f"add deezer:track:{TRACK}") == ["OK"]
    assert c.cmd("findadd \"((artist == 'Eminem') AND (title == 'Stan'))\" position 0") == ["OK"]
    assert c.cmd("playlist") == ["0:file: deezer:track:1109730", f"1:file: deezer:track:{TRACK}", "OK"]
    assert c.cmd("findadd artist Eminem") == ["OK"]
    assert c.fields("status")["playlistlength"] == str(2 + len(eminem))


def test_searchaddpl(daemon):
    c = daemon.client()
    eminem = [t for t in eminem_tracks() if t["artist"]["name"] == "Eminem"]
    assert c.cmd("searchaddpl em any eminem") == ["OK"]
    assert c.cmd("listplaylist em") == [f"file: deezer:track:{t['id']}" for t in eminem] + ["OK"]
    assert c.cmd("searchaddpl em title Stan") == ["OK"]  # the stand-in catalog finds nothing for it
    assert c.cmd("listplaylist em") == [f"file: deezer:track:{t['id']}" for t in eminem] + ["OK"]
    assert c.cmd("searchaddpl em \"((artist == 'Eminem') AND (title == 'Stan'))\"") == ["OK"]
    assert c.cmd("listplaylist em") == [f"file: deezer:track:{t['id']}" for t in eminem] + [
        "file: deezer:track:1109730", "OK"]


def test_list_with_filters(daemon):
    c = daemon.client()
    eminem = [t for t in eminem_tracks() if t["artist"]["name"] == "Eminem"]
    albums = sorted({t["album"]["title"] for t in eminem})
    assert c.cmd("list artist \"(any contains 'Eminem')\"") == ["Artist: Eminem", "OK"]
    # list compares case-sensitively, as find does.
    assert c.cmd("list artist \"(any contains 'eminem')\"") == ["OK"]
    assert c.cmd("list album artist Eminem") == [f"Album: {a}" for a in albums] + ["OK"]
    assert c.cmd("list album Eminem") == [f"Album: {a}" for a in albums] + ["OK"]
    assert c.cmd("list bogus") == ["ACK [2@0] {list} Unknown tag type: bogus"]


def test_count(daemon):
    c = daemon.client()
    eminem = [t for t in eminem_tracks() if t["artist"]["name"] == "Eminem"]
    playtime = sum(min(t["duration"], 30) for t in eminem)
    assert c.cmd("count artist Eminem") == [f"songs: {len(eminem)}", f"playtime: {playtime}", "OK"]
    assert c.cmd("count \"(artist == 'Eminem')\"") == [f"songs: {len(eminem)}", f"playtime: {playtime}", "OK"]
    assert c.cmd("count \"((artist == 'Eminem') AND (album == 'Recovery'))\"") == ["songs: 2", "playtime: 60", "OK"]
    assert c.cmd("count artist eminem") == ["songs: 0", "playtime: 0", "OK"]


def test_update_gives_job_ids_and_idle_update(daemon):
    a, b = daemon.client(), daemon.client()
    a.send("idle update\n")
    assert_silent(a)
    assert b.cmd("update") == ["updating_db: 1", "OK"]
    assert a.reply() == ["changed: update", "OK"]
    assert b.cmd("update") == ["updating_db: 2", "OK"]
    assert b.cmd("rescan") == ["updating_db: 3", "OK"]


def test_find_errors(daemon):
    c = daemon.client()
    assert c.cmd("find bogus x") == ["ACK [2@0] {find} Unknown filter type"]
    assert c.cmd("find artist") == ["ACK [2@0] {find} Incorrect number of filter arguments"]
    assert c.cmd("search \"(artist == 'x') junk\"") == ["ACK [2@0] {search} Unparsed garbage after expression"]


# ---------------------------------------------------------------- idle

IDLE_CASES = [
    ("mixer", "setvol 50"),
    ("mixer", "volume -10"),
    ("options", "repeat 1"),
    ("options", "random 1"),
    ("options", "single 1"),
    ("options", "single oneshot"),
    ("options", "consume 1"),
    ("options", "replay_gain_mode track"),
    ("output", "disableoutput 0"),
    ("output", "toggleoutput 0"),
    ("playlist", f"add deezer:track:{TRACK}"),
    ("playlist", "prio 3 0"),
    ("stored_playlist", "save x"),
]


@pytest.mark.parametrize("sub,line", IDLE_CASES, ids=[f"{s}-{l.split()[0]}" for s, l in IDLE_CASES])
def test_idle_subsystem(daemon, http, sub, line):
    b = daemon.client()
    add_urls(b, http, 1)
    a = daemon.client()
    a.send(f"idle {sub}\n")
    assert_silent(a, 0.1)
    assert b.cmd(line) == ["OK"]
    assert a.reply() == [f"changed: {sub}", "OK"]


def test_idle_player_on_play_and_stop(rt, http):
    b = rt.client()
    add_urls(b, http, 1)
    a = rt.client()
    a.send("idle player\n")
    assert_silent(a, 0.1)
    assert b.cmd("play") == ["OK"]
    assert a.reply() == ["changed: player", "OK"]
    a.send("idle player\n")
    assert_silent(a, 0.1)
    assert b.cmd("stop") == ["OK"]
    assert a.reply() == ["changed: player", "OK"]


def test_events_accumulate_and_come_in_mpd_order(daemon, http):
    a, b = daemon.client(), daemon.client()
    assert a.cmd("subscribe chan") == ["OK"]
    for line in ("sendmessage chan hi", "subscribe other", "update", "repeat 1", "disableoutput 0",
                 "setvol 40", "save x", f'add "{url(http, 1)}"', "play"):
        assert b.cmd(line) == (["updating_db: 1", "OK"] if line == "update" else ["OK"]), line
    assert a.cmd("idle") == [
        "changed: stored_playlist", "changed: playlist", "changed: player", "changed: mixer",
        "changed: output", "changed: options", "changed: update", "changed: subscription",
        "changed: message", "OK"]


def test_idle_with_a_mask_reports_those_and_forgets_the_others(daemon, http):
    # mpd: the pending flags are cleared when an idle returns, also those not asked for.
    a, b = daemon.client(), daemon.client()
    assert b.cmd("setvol 40") == ["OK"]
    add_urls(b, http, 1)
    assert a.cmd("idle mixer") == ["changed: mixer", "OK"]
    a.send("idle\n")
    assert_silent(a)
    assert a.cmd("noidle") == ["OK"]


def test_idle_reports_each_change_once(daemon, http):
    a, b = daemon.client(), daemon.client()
    add_urls(b, http, 1)
    add_urls(b, http, 2)
    assert a.cmd("idle") == ["changed: playlist", "OK"]
    a.send("idle\n")
    assert_silent(a)
    assert b.cmd("repeat 1") == ["OK"]
    assert a.reply() == ["changed: options", "OK"]
