"""previewd's MPD protocol over its Unix socket, line by line.

Expected lines are those of the design brief and of mpd 0.23 as recorded in
/tmp/mpdref/transcript.txt (ACK texts, reply shapes, list and idle rules)."""
import socket

import pytest

import catalog
from helpers import MANIFEST, album_tracks, assert_silent, control, md5, pick, songs, url, wait_read, wav_pcm

FRESH_STATUS = [
    "volume: 100", "repeat: 0", "random: 0", "single: 0", "consume: 0", "autoplay: 0",
    "partition: default", "playlist: 1", "playlistlength: 0",
    "mixrampdb: 0", "state: stop", "OK",
]
ALBUM = "302127"
TRACK = 3135556


def assert_closed(client):
    """The daemon closed the connection (EOF within 5 s, no reply bytes)."""
    client.sock.settimeout(5)
    try:
        data = client.sock.recv(65536)
    except ConnectionResetError:
        data = b""
    assert data == b"", data


def pcm_of(name):
    return int(MANIFEST[name]["pcm_frames"]), MANIFEST[name]["pcm_md5_s16"]


@pytest.fixture
def playing(daemon_factory, http):
    """A realtime daemon with three plain URLs queued (ids 1..3), stopped."""
    d = daemon_factory(pace="realtime")
    c = d.client()
    for n in (1, 2, 3):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    return d, c


# ---------------------------------------------------------------- connection

def test_greeting(daemon):
    assert daemon.client().greeting == "OK MPD 0.23.5"


def test_ping(daemon):
    assert daemon.client().cmd("ping") == ["OK"]


def test_status_of_a_fresh_daemon_exact(daemon):
    assert daemon.client().cmd("status") == FRESH_STATUS


def test_currentsong_empty_when_nothing_queued(daemon):
    assert daemon.client().cmd("currentsong") == ["OK"]


EMPTY_QUEUE_ACKS = [
    ("foo", 'ACK [5@0] {} unknown command "foo"'),
    ("foo bar", 'ACK [5@0] {} unknown command "foo"'),
    ("status extra", 'ACK [2@0] {status} wrong number of arguments for "status"'),
    ("ping extra", 'ACK [2@0] {ping} wrong number of arguments for "ping"'),
    ("clear extra", 'ACK [2@0] {clear} wrong number of arguments for "clear"'),
    ("repeat", 'ACK [2@0] {repeat} wrong number of arguments for "repeat"'),
    ("add", 'ACK [2@0] {add} too few arguments for "add"'),
    ("add a b c", 'ACK [2@0] {add} too many arguments for "add"'),
    ("play 99", "ACK [2@0] {play} Bad song index"),
    ("play abc", "ACK [2@0] {play} Integer expected: abc"),
    ("playid 999", "ACK [50@0] {playid} No such song"),
    ("deleteid 77", "ACK [50@0] {deleteid} No such song"),
    ("delete 5", "ACK [2@0] {delete} Bad song index"),
    ("move 0 5", "ACK [2@0] {move} Bad song index"),
    ("move 5 0", "ACK [2@0] {move} Bad song index"),
    ("playlistinfo 5", "ACK [2@0] {playlistinfo} Bad song index"),
    ("playlistinfo abc", "ACK [2@0] {playlistinfo} Integer or range expected: abc"),
    ("playlistid 999", "ACK [50@0] {playlistid} No such song"),
    ("playlistid abc", "ACK [2@0] {playlistid} Integer expected: abc"),
    ("setvol 101", "ACK [2@0] {setvol} Number too large: 101"),
    ("setvol -1", "ACK [2@0] {setvol} Number too large: -1"),
    ("setvol abc", "ACK [2@0] {setvol} Integer expected: abc"),
    ("volume +200", "ACK [2@0] {volume} Number too large: +200"),
    ("repeat 2", "ACK [2@0] {repeat} Boolean (0/1) expected: 2"),
    ("random x", "ACK [2@0] {random} Boolean (0/1) expected: x"),
    ("consume 3", "ACK [2@0] {consume} Boolean (0/1) expected: 3"),
    ("pause 2", "ACK [2@0] {pause} Boolean (0/1) expected: 2"),
    ("single 3", "ACK [2@0] {single} Unrecognized single mode, expected 0, 1, or oneshot"),
    ('add "abc', "ACK [5@0] {} Missing closing '\"'"),
    ('ping "', "ACK [5@0] {} Missing closing '\"'"),
    ('add abc"', "ACK [5@0] {} Invalid unquoted character"),
    ('add "a"b', "ACK [5@0] {} Space expected after closing '\"'"),
    ("next", "ACK [55@0] {next} Not playing"),
    ("previous", "ACK [55@0] {previous} Not playing"),
    ("idle badname", "ACK [2@0] {idle} Unrecognized idle event: badname"),
    ("idle player badname", "ACK [2@0] {idle} Unrecognized idle event: badname"),
    ("command_list_end", 'ACK [5@0] {} unknown command "command_list_end"'),
    ("add ftp://x/y.mp3", "ACK [2@0] {add} Unsupported URI scheme"),
    ("add file:///etc/passwd", "ACK [4@0] {add} Access denied"),
    ("addid ftp://x/y.mp3", "ACK [2@0] {addid} Unsupported URI scheme"),
]


@pytest.mark.parametrize("line,ack", EMPTY_QUEUE_ACKS, ids=[l for l, _ in EMPTY_QUEUE_ACKS])
def test_ack_on_empty_queue_then_connection_usable(daemon, line, ack):
    c = daemon.client()
    assert c.cmd(line) == [ack]
    assert c.cmd("ping") == ["OK"]
    assert c.cmd("status") == FRESH_STATUS


def test_play_and_playid_without_argument_on_empty_queue_are_ok(daemon):
    c = daemon.client()
    assert c.cmd("play") == ["OK"]
    assert c.cmd("play -1") == ["OK"]
    assert c.cmd("playid") == ["OK"]
    assert c.cmd("pause") == ["OK"]
    assert c.fields("status")["state"] == "stop"


def test_close_closes_the_connection(daemon):
    c = daemon.client()
    c.send("close\n")
    assert_closed(c)
    assert daemon.client().cmd("ping") == ["OK"]


def test_requests_sent_before_a_half_close_are_all_answered(daemon, http):
    """A script that pipes its requests and shuts its side down (as `nc -N`
    does) gets every reply, then end of file: 20,000 pipelined `status`
    lines are 2.6 MB of replies, answered 256 KiB at a time as they are read."""
    c = daemon.client()
    n = 20_000
    c.send("status\n" * n + f'addid "{url(http, 1)}"\n')
    c.sock.shutdown(socket.SHUT_WR)
    data = c.buf
    while chunk := c.sock.recv(1 << 20):
        data += chunk
    lines = data.decode().split("\n")
    assert lines.count("state: stop") == n
    assert lines.count("OK") == n + 1
    assert lines[-3:] == ["Id: 1", "OK", ""]
    assert daemon.client().cmd("status")[8] == "playlistlength: 1"


def test_line_longer_than_64k_gets_ack_and_connection_stays_usable(daemon):
    c = daemon.client()
    reply = c.cmd("ping " + "a" * (70 * 1024))
    assert len(reply) == 1
    assert reply[0].startswith("ACK [2@0] {} line too long")
    assert c.cmd("ping") == ["OK"]
    assert c.cmd("status") == FRESH_STATUS


def test_line_longer_than_64k_sent_in_pieces(daemon):
    c = daemon.client()
    c.send("ping " + "a" * 40000)
    wait_read(c.sock)  # each piece is read on its own
    c.send("a" * 40000)
    wait_read(c.sock)
    c.send("a\nping\n")
    reply = c.reply()
    assert len(reply) == 1
    assert reply[0].startswith("ACK [2@0] {} line too long")
    assert c.reply() == ["OK"]


def test_line_longer_than_64k_inside_a_command_list_fails_the_list(daemon, http):
    # The list must get one reply: the ACK for its second line (index 1),
    # as for any other failing line in a list, and nothing after it.
    c = daemon.client()
    c.send(f'command_list_begin\nadd "{url(http, 1)}"\nping {"a" * (70 * 1024)}\n'
           f'add "{url(http, 2)}"\ncommand_list_end\n')
    reply = c.reply()
    assert len(reply) == 1
    assert reply[0].startswith("ACK [2@1] {} line too long"), reply
    assert c.cmd("playlist") == [f"0:file: {url(http, 1)}", "OK"]


def test_long_line_below_the_limit_is_parsed(daemon, http):
    c = daemon.client()
    long_url = f"{http}/corpus/" + "a" * 8150 + ".mp3"
    assert c.cmd(f'add "{long_url}"') == ["OK"]
    assert c.fields("playlistinfo")["file"] == long_url


# ---------------------------------------------------------------- queue

def test_add_http_url_playlistinfo_exact(daemon, http):
    c = daemon.client()
    assert c.cmd(f'add "{url(http, 1)}"') == ["OK"]
    assert c.cmd("playlistinfo") == [f"file: {url(http, 1)}", "Pos: 0", "Id: 1", "OK"]
    assert c.cmd("playlist") == [f"0:file: {url(http, 1)}", "OK"]
    st = c.fields("status")
    assert (st["playlist"], st["playlistlength"]) == ("2", "1")


def test_addid_ids_start_at_1_and_are_never_reused(daemon, http):
    c = daemon.client()
    assert c.cmd(f'addid "{url(http, 1)}"') == ["Id: 1", "OK"]
    assert c.cmd(f'addid "{url(http, 2)}"') == ["Id: 2", "OK"]
    assert c.cmd("deleteid 2") == ["OK"]
    assert c.cmd(f'addid "{url(http, 3)}"') == ["Id: 3", "OK"]
    assert c.cmd("clear") == ["OK"]
    assert c.cmd(f'addid "{url(http, 4)}"') == ["Id: 4", "OK"]
    assert c.cmd("playlistinfo") == [f"file: {url(http, 4)}", "Pos: 0", "Id: 4", "OK"]


def test_addid_at_position_0(daemon, http):
    c = daemon.client()
    assert c.cmd(f'addid "{url(http, 1)}"') == ["Id: 1", "OK"]
    assert c.cmd(f'addid "{url(http, 2)}" 0') == ["Id: 2", "OK"]
    assert c.cmd("playlistinfo") == [
        f"file: {url(http, 2)}", "Pos: 0", "Id: 2",
        f"file: {url(http, 1)}", "Pos: 1", "Id: 1", "OK"]


def test_addid_position_errors(daemon, http):
    c = daemon.client()
    assert c.cmd(f'addid "{url(http, 1)}"') == ["Id: 1", "OK"]
    assert c.cmd(f'addid "{url(http, 2)}" +0') == ["ACK [55@0] {addid} No current song"]
    assert c.cmd(f'add "{url(http, 2)}" -0') == ["ACK [55@0] {add} No current song"]
    assert c.cmd(f'addid "{url(http, 2)}" 5') == ["ACK [2@0] {addid} Number too large: 5"]
    assert c.cmd(f'addid "{url(http, 2)}" abc') == ["ACK [2@0] {addid} Integer expected: abc"]
    assert c.fields("status")["playlistlength"] == "1"


def test_addid_relative_positions_while_a_song_is_current(playing, http):
    d, c = playing
    assert c.cmd("play 0") == ["OK"]
    assert c.cmd(f'addid "{url(http, 4)}" +0') == ["Id: 4", "OK"]
    assert c.cmd(f'addid "{url(http, 5)}" -0') == ["Id: 5", "OK"]
    assert c.cmd("playlist") == [
        f"0:file: {url(http, 5)}", f"1:file: {url(http, 1)}", f"2:file: {url(http, 4)}",
        f"3:file: {url(http, 2)}", f"4:file: {url(http, 3)}", "OK"]
    st = c.fields("status")
    assert pick(st, "state", "song", "songid", "nextsong", "nextsongid") == {
        "state": "play", "song": "1", "songid": "1", "nextsong": "2", "nextsongid": "4"}
    assert c.cmd(f'addid "{url(http, 6)}" +9') == ["ACK [2@0] {addid} Number too large: 9"]


def test_playlistinfo_ranges(daemon, http):
    c = daemon.client()
    for n in (1, 2):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    first = [f"file: {url(http, 1)}", "Pos: 0", "Id: 1"]
    second = [f"file: {url(http, 2)}", "Pos: 1", "Id: 2"]
    assert c.cmd("playlistinfo 0:1") == first + ["OK"]
    assert c.cmd("playlistinfo 1") == second + ["OK"]
    assert c.cmd("playlistinfo 0:9") == first + second + ["OK"]
    assert c.cmd("playlistinfo 1:") == second + ["OK"]
    assert c.cmd("playlistinfo -1") == first + second + ["OK"]
    assert c.cmd("playlistinfo 5") == ["ACK [2@0] {playlistinfo} Bad song index"]
    assert c.cmd("playlistinfo 1:0") == ["ACK [2@0] {playlistinfo} Malformed range: 1:0"]


def test_playlistid(daemon, http):
    c = daemon.client()
    for n in (1, 2):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd("playlistid 2") == [f"file: {url(http, 2)}", "Pos: 1", "Id: 2", "OK"]
    assert c.cmd("playlistid") == [f"file: {url(http, 1)}", "Pos: 0", "Id: 1",
                                   f"file: {url(http, 2)}", "Pos: 1", "Id: 2", "OK"]
    assert c.cmd("playlistid 3") == ["ACK [50@0] {playlistid} No such song"]


def test_delete_by_position_and_range(daemon, http):
    c = daemon.client()
    for n in (1, 2, 3, 4):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd("delete 1") == ["OK"]
    assert c.cmd("playlist") == [f"0:file: {url(http, 1)}", f"1:file: {url(http, 3)}",
                                 f"2:file: {url(http, 4)}", "OK"]
    assert c.cmd("delete 0:2") == ["OK"]
    assert c.cmd("playlistinfo") == [f"file: {url(http, 4)}", "Pos: 0", "Id: 4", "OK"]
    # Like mpd: a range may start right at the end (deleting nothing), not past it.
    assert c.cmd("delete 1") == ["OK"]
    assert c.cmd("delete 2") == ["ACK [2@0] {delete} Bad song index"]
    assert c.cmd("move 0 1") == ["ACK [2@0] {move} Number too large: 1"]
    assert c.fields("status")["playlist"] == "7"


def test_deleteid(daemon, http):
    c = daemon.client()
    for n in (1, 2, 3):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd("deleteid 2") == ["OK"]
    assert c.cmd("playlistinfo") == [f"file: {url(http, 1)}", "Pos: 0", "Id: 1",
                                     f"file: {url(http, 3)}", "Pos: 1", "Id: 3", "OK"]
    assert c.cmd("deleteid 2") == ["ACK [50@0] {deleteid} No such song"]


def test_clear_increments_playlist_version(daemon, http):
    c = daemon.client()
    assert c.fields("status")["playlist"] == "1"
    assert c.cmd(f'add "{url(http, 1)}"') == ["OK"]
    assert c.fields("status")["playlist"] == "2"
    assert c.cmd("clear") == ["OK"]
    st = c.fields("status")
    assert (st["playlist"], st["playlistlength"]) == ("3", "0")
    assert c.cmd("clear") == ["OK"]
    assert c.fields("status")["playlist"] == "4"
    assert c.cmd("playlistinfo") == ["OK"]


def test_move(daemon, http):
    c = daemon.client()
    for n in (1, 2, 3):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd("move 0 2") == ["OK"]
    assert c.cmd("playlistinfo") == [
        f"file: {url(http, 2)}", "Pos: 0", "Id: 2",
        f"file: {url(http, 3)}", "Pos: 1", "Id: 3",
        f"file: {url(http, 1)}", "Pos: 2", "Id: 1", "OK"]
    assert c.cmd("move 1:3 0") == ["OK"]
    assert c.cmd("playlist") == [f"0:file: {url(http, 3)}", f"1:file: {url(http, 1)}",
                                 f"2:file: {url(http, 2)}", "OK"]
    assert c.fields("status")["playlist"] == "6"


def test_shuffle_keeps_songs_and_ids_and_bumps_version(daemon, http):
    c = daemon.client()
    for n in range(1, 10):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    before = {s["Id"]: s["file"] for s in songs(c.cmd("playlistinfo"))}
    assert c.cmd("shuffle") == ["OK"]
    after = songs(c.cmd("playlistinfo"))
    assert {s["Id"]: s["file"] for s in after} == before
    assert [s["Pos"] for s in after] == [str(i) for i in range(9)]
    assert c.fields("status")["playlist"] == "11"


# ---------------------------------------------------------------- playback

def test_play_sets_state_song_and_next(playing):
    d, c = playing
    assert c.cmd("play") == ["OK"]
    st = c.fields("status")
    assert pick(st, "state", "song", "songid", "nextsong", "nextsongid") == {
        "state": "play", "song": "0", "songid": "1", "nextsong": "1", "nextsongid": "2"}


def test_play_position_and_playid(playing):
    d, c = playing
    assert c.cmd("play 2") == ["OK"]
    st = c.fields("status")
    assert pick(st, "state", "song", "songid", "nextsong", "nextsongid") == {
        "state": "play", "song": "2", "songid": "3", "nextsong": None, "nextsongid": None}
    assert c.cmd("playid 2") == ["OK"]
    st = c.fields("status")
    assert pick(st, "state", "song", "songid", "nextsong", "nextsongid") == {
        "state": "play", "song": "1", "songid": "2", "nextsong": "2", "nextsongid": "3"}
    assert c.cmd("playid 9") == ["ACK [50@0] {playid} No such song"]


def test_currentsong_while_playing(playing, http):
    d, c = playing
    assert c.cmd("playid 2") == ["OK"]
    # playid answers once the song is audible, so its length is known by now.
    assert c.cmd("currentsong") == [f"file: {url(http, 2)}", "Time: 30", "duration: 30.000", "Pos: 1", "Id: 2", "OK"]


def test_pause_toggles_and_pause_0_1(playing):
    d, c = playing
    assert c.cmd("play") == ["OK"]
    assert c.cmd("pause") == ["OK"]
    assert pick(c.fields("status"), "state", "song") == {"state": "pause", "song": "0"}
    assert c.cmd("pause") == ["OK"]
    assert c.fields("status")["state"] == "play"
    assert c.cmd("pause 1") == ["OK"]
    assert c.fields("status")["state"] == "pause"
    assert c.cmd("pause 1") == ["OK"]
    assert c.fields("status")["state"] == "pause"
    assert c.cmd("pause 0") == ["OK"]
    assert c.fields("status")["state"] == "play"
    assert c.cmd("pause 0") == ["OK"]
    assert c.fields("status")["state"] == "play"


def test_play_resumes_a_pause(playing):
    d, c = playing
    assert c.cmd("play 1") == ["OK"]
    assert c.cmd("pause 1") == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert pick(c.fields("status"), "state", "song", "songid") == {"state": "play", "song": "1", "songid": "2"}


def test_stop_keeps_the_current_song(playing):
    d, c = playing
    assert c.cmd("play 1") == ["OK"]
    assert c.cmd("stop") == ["OK"]
    st = c.fields("status")
    assert pick(st, "state", "song", "songid", "nextsong", "nextsongid", "elapsed") == {
        "state": "stop", "song": "1", "songid": "2", "nextsong": "2", "nextsongid": "3", "elapsed": None}
    assert c.cmd("play") == ["OK"]
    assert pick(c.fields("status"), "state", "song") == {"state": "play", "song": "1"}


def test_next_and_previous(playing):
    d, c = playing
    assert c.cmd("play") == ["OK"]
    assert c.cmd("next") == ["OK"]
    assert pick(c.fields("status"), "state", "song", "songid", "nextsong") == {
        "state": "play", "song": "1", "songid": "2", "nextsong": "2"}
    assert c.cmd("previous") == ["OK"]
    assert pick(c.fields("status"), "state", "song", "songid", "nextsong") == {
        "state": "play", "song": "0", "songid": "1", "nextsong": "1"}


def test_next_on_last_song_stops(playing):
    d, c = playing
    assert c.cmd("play 2") == ["OK"]
    assert c.cmd("next") == ["OK"]
    assert c.fields("status")["state"] == "stop"


def test_next_with_repeat_wraps(playing):
    d, c = playing
    assert c.cmd("repeat 1") == ["OK"]
    assert c.cmd("play 2") == ["OK"]
    assert c.fields("status")["nextsong"] == "0"
    assert c.cmd("next") == ["OK"]
    assert pick(c.fields("status"), "state", "song", "songid") == {"state": "play", "song": "0", "songid": "1"}


def test_move_of_the_current_song_updates_song(playing):
    d, c = playing
    assert c.cmd("play 0") == ["OK"]
    assert c.cmd("move 0 2") == ["OK"]
    assert pick(c.fields("status"), "state", "song", "songid", "nextsong") == {
        "state": "play", "song": "2", "songid": "1", "nextsong": None}


def test_deleting_the_current_song_plays_the_one_taking_its_place(playing):
    d, c = playing
    assert c.cmd("play 1") == ["OK"]
    assert c.cmd("delete 1") == ["OK"]
    assert pick(c.fields("status"), "state", "song", "songid", "playlistlength") == {
        "state": "play", "song": "1", "songid": "3", "playlistlength": "2"}


def test_clear_while_playing_stops(playing):
    d, c = playing
    assert c.cmd("play") == ["OK"]
    assert c.cmd("clear") == ["OK"]
    st = c.fields("status")
    assert pick(st, "state", "song", "playlistlength") == {"state": "stop", "song": None, "playlistlength": "0"}


def test_modes_are_reflected_in_status(daemon):
    c = daemon.client()
    for line in ("random 1", "repeat 1", "single 1", "consume 1"):
        assert c.cmd(line) == ["OK"]
    st = c.fields("status")
    assert pick(st, "repeat", "random", "single", "consume") == {
        "repeat": "1", "random": "1", "single": "1", "consume": "1"}
    assert c.cmd("single oneshot") == ["OK"]
    assert c.fields("status")["single"] == "oneshot"
    for line in ("random 0", "repeat 0", "single 0", "consume 0"):
        assert c.cmd(line) == ["OK"]
    assert c.cmd("status") == FRESH_STATUS


def test_single_with_repeat_makes_the_current_song_next(playing):
    d, c = playing
    assert c.cmd("play 1") == ["OK"]
    assert c.cmd("repeat 1") == ["OK"]
    assert c.cmd("single 1") == ["OK"]
    assert pick(c.fields("status"), "song", "nextsong", "nextsongid") == {
        "song": "1", "nextsong": "1", "nextsongid": "2"}


def test_consume_removes_played_songs(daemon, http):
    c = daemon.client()
    for n in (1, 2):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd("consume 1") == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = daemon.wait_state(c, "stop")
    assert st["playlistlength"] == "0"
    assert c.cmd("playlistinfo") == ["OK"]


def test_single_stops_after_the_current_song(daemon, http):
    c = daemon.client()
    for n in (1, 2):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd("single 1") == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    frames, _, _, pcm = wav_pcm(daemon.wav)
    assert (frames, md5(pcm)) == pcm_of("preview-01.mp3")


def test_random_plays_every_song_once(daemon, http):
    c = daemon.client()
    for n in (1, 2, 3):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd("random 1") == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    played = [l.split("playing ", 1)[1] for l in daemon.log().splitlines() if " info: playing " in l]
    assert sorted(played) == [url(http, n) for n in (1, 2, 3)]


def test_setvol_getvol_volume(daemon):
    c = daemon.client()
    assert c.cmd("getvol") == ["volume: 100", "OK"]
    assert c.cmd("setvol 30") == ["OK"]
    assert c.cmd("getvol") == ["volume: 30", "OK"]
    assert c.fields("status")["volume"] == "30"
    assert c.cmd("volume +5") == ["OK"]
    assert c.cmd("getvol") == ["volume: 35", "OK"]
    assert c.cmd("volume -50") == ["OK"]
    assert c.cmd("getvol") == ["volume: 0", "OK"]
    assert c.cmd("volume +100") == ["OK"]
    assert c.cmd("getvol") == ["volume: 100", "OK"]


def test_commands_lists_the_issue_commands(daemon):
    lines = daemon.client().cmd("commands")
    assert lines[-1] == "OK"
    assert all(l.startswith("command: ") for l in lines[:-1])
    names = {l[len("command: "):] for l in lines[:-1]}
    wanted = {"add", "addid", "clear", "close", "commands", "consume", "currentsong", "delete",
              "deleteid", "getvol", "idle", "move", "next", "pause", "ping", "play",
              "playid", "playlistid", "playlistinfo", "previous", "random", "repeat", "setvol",
              "shuffle", "single", "status", "stop", "volume"}
    assert wanted - names == set()
    # Like mpd, the list markers and noidle (handled by the session) are not listed.
    assert names & {"noidle", "command_list_begin", "command_list_end", "command_list_ok_begin"} == set()


# ---------------------------------------------------------------- command lists

def test_command_list_begin_one_ok(daemon):
    c = daemon.client()
    c.send("command_list_begin\nping\nstatus\ncommand_list_end\n")
    assert c.reply() == FRESH_STATUS


def test_command_list_ok_begin_list_ok(daemon):
    c = daemon.client()
    c.send("command_list_ok_begin\nping\nstatus\ncommand_list_end\n")
    assert c.reply() == ["list_OK"] + FRESH_STATUS[:-1] + ["list_OK", "OK"]
    assert c.cmd("ping") == ["OK"]


def test_command_list_failure_in_the_middle_keeps_earlier_effects(daemon, http):
    c = daemon.client()
    c.send(f'command_list_begin\nadd "{url(http, 1)}"\nfoo\nadd "{url(http, 2)}"\ncommand_list_end\n')
    assert c.reply() == ['ACK [5@1] {} unknown command "foo"']
    assert c.cmd("playlist") == [f"0:file: {url(http, 1)}", "OK"]


def test_command_list_ok_failure_index_2(daemon):
    c = daemon.client()
    c.send("command_list_ok_begin\nping\nstatus\nplay 99\nping\ncommand_list_end\n")
    assert c.reply() == ["list_OK"] + FRESH_STATUS[:-1] + ["list_OK", "ACK [2@2] {play} Bad song index"]
    assert c.cmd("ping") == ["OK"]


def test_empty_command_lists(daemon):
    c = daemon.client()
    c.send("command_list_begin\ncommand_list_end\n")
    assert c.reply() == ["OK"]
    c.send("command_list_ok_begin\ncommand_list_end\n")
    assert c.reply() == ["OK"]


def test_command_list_with_catalog_add_runs_in_order(daemon):
    c = daemon.client()
    c.send(f"command_list_ok_begin\nadd deezer:track:{TRACK}\nstatus\nadd deezer:track:-1\nping\ncommand_list_end\n")
    reply = c.reply()
    assert reply[0] == "list_OK"
    assert "playlistlength: 1" in reply
    assert reply[-2:] == ["list_OK", "ACK [50@2] {add} deezer:track:-1: not found (Deezer: no data, error 800)"]
    assert c.cmd("playlist") == [f"0:file: deezer:track:{TRACK}", "OK"]


def test_nested_command_list_begin_is_unknown(daemon):
    c = daemon.client()
    c.send("command_list_begin\nping\ncommand_list_begin\nping\ncommand_list_end\n")
    assert c.reply() == ['ACK [5@1] {} unknown command "command_list_begin"']
    assert c.cmd("ping") == ["OK"]


def test_noidle_inside_a_command_list_is_ignored(daemon):
    # mpd drops a `noidle` line when the client is not idle, also inside a list.
    c = daemon.client()
    c.send("command_list_ok_begin\nping\nnoidle\nping\ncommand_list_end\n")
    assert c.reply() == ["list_OK", "list_OK", "OK"]


def test_noidle_outside_idle_gets_no_reply(daemon):
    c = daemon.client()
    c.send("noidle\n")
    assert_silent(c)
    assert c.cmd("ping") == ["OK"]


def test_unbalanced_quote_inside_a_command_list(daemon):
    c = daemon.client()
    c.send('command_list_ok_begin\nping\nadd "abc\nping\ncommand_list_end\n')
    assert c.reply() == ["list_OK", "ACK [5@1] {} Missing closing '\"'"]
    assert c.cmd("ping") == ["OK"]


def test_idle_inside_a_command_list_then_noidle(daemon):
    c = daemon.client()
    c.send("command_list_ok_begin\nping\nidle\ncommand_list_end\n")
    assert c.readline() == "list_OK"
    assert_silent(c)
    assert c.cmd("noidle") == ["OK"]
    assert c.cmd("ping") == ["OK"]


def test_close_inside_a_command_list(daemon):
    c = daemon.client()
    c.send("command_list_ok_begin\nping\nclose\nping\ncommand_list_end\n")
    assert c.readline() == "list_OK"
    assert_closed(c)


def test_tabs_and_extra_spaces_separate_words(daemon, http):
    c = daemon.client()
    assert c.cmd(f'add "{url(http, 1)}"') == ["OK"]
    assert c.cmd("playlistinfo\t0") == [f"file: {url(http, 1)}", "Pos: 0", "Id: 1", "OK"]
    assert c.cmd("playlistinfo   0") == [f"file: {url(http, 1)}", "Pos: 0", "Id: 1", "OK"]
    assert c.cmd("ping   ") == ["OK"]
    assert c.cmd("repeat  1 ") == ["OK"]
    assert c.fields("status")["repeat"] == "1"


def test_pipelined_commands_answer_in_order(daemon):
    c = daemon.client()
    c.send(f"add deezer:track:{TRACK}\nping\nplaylist\n")
    assert c.reply() == ["OK"]
    assert c.reply() == ["OK"]
    assert c.reply() == [f"0:file: deezer:track:{TRACK}", "OK"]


# ---------------------------------------------------------------- idle

def test_idle_reports_playlist_when_another_client_adds(daemon, http):
    a, b = daemon.client(), daemon.client()
    a.send("idle\n")
    assert_silent(a)
    assert b.cmd(f'add "{url(http, 1)}"') == ["OK"]
    assert a.reply() == ["changed: playlist", "OK"]
    assert a.cmd("ping") == ["OK"]


def test_idle_reports_catalog_add_of_another_client(daemon):
    a, b = daemon.client(), daemon.client()
    a.send("idle playlist\n")
    assert_silent(a)
    assert b.cmd(f"add deezer:track:{TRACK}") == ["OK"]
    assert a.reply() == ["changed: playlist", "OK"]


def test_idle_player_then_noidle(daemon):
    a = daemon.client()
    a.send("idle player\n")
    assert_silent(a)
    assert a.cmd("noidle") == ["OK"]
    assert a.cmd("ping") == ["OK"]


def test_other_client_is_served_while_one_idles(daemon, http):
    a, b = daemon.client(), daemon.client()
    a.send("idle player\n")
    assert_silent(a)
    assert b.cmd("ping") == ["OK"]
    assert b.cmd(f'add "{url(http, 1)}"') == ["OK"]
    assert b.fields("status")["playlistlength"] == "1"
    assert_silent(a)
    assert a.cmd("noidle") == ["OK"]


@pytest.mark.parametrize("sub,line,changed", [
    ("player", "play", "changed: player"),
    ("options", "repeat 1", "changed: options"),
    ("mixer", "setvol 50", "changed: mixer"),
])
def test_idle_subsystems(daemon_factory, http, sub, line, changed):
    d = daemon_factory(pace="realtime")
    a, b = d.client(), d.client()
    assert b.cmd(f'add "{url(http, 1)}"') == ["OK"]
    a.send(f"idle {sub}\n")
    assert_silent(a)
    assert b.cmd(line) == ["OK"]
    assert a.reply() == [changed, "OK"]


def test_idle_reports_changes_made_while_not_idle(daemon, http):
    a, b = daemon.client(), daemon.client()
    assert b.cmd("repeat 1") == ["OK"]
    assert b.cmd(f'add "{url(http, 1)}"') == ["OK"]
    assert a.cmd("idle") == ["changed: playlist", "changed: options", "OK"]
    a.send("idle\n")
    assert_silent(a)
    assert a.cmd("noidle") == ["OK"]


def test_command_other_than_noidle_during_idle_closes(daemon):
    a = daemon.client()
    a.send("idle\n")
    assert_silent(a)
    a.send("status\n")
    assert_closed(a)


# ---------------------------------------------------------------- catalog

def test_add_album_queues_its_14_tracks(daemon):
    c = daemon.client()
    assert c.cmd(f"add deezer:album:{ALBUM}") == ["OK"]
    queued = songs(c.cmd("playlistinfo"))
    expected = album_tracks()
    assert len(queued) == 14
    assert [s["Title"] for s in queued] == [t["title"] for t in expected]
    assert [s["file"] for s in queued] == [f"deezer:track:{t['id']}" for t in expected]
    assert {s["Artist"] for s in queued} == {"Daft Punk"}
    assert {s["Album"] for s in queued} == {"Discovery"}
    assert [s["Id"] for s in queued] == [str(i) for i in range(1, 15)]


def test_addid_album_returns_one_id_per_track(daemon):
    c = daemon.client()
    assert c.cmd(f"addid deezer:album:{ALBUM}") == [f"Id: {i}" for i in range(1, 15)] + ["OK"]


def test_add_unknown_track_ack(daemon):
    c = daemon.client()
    assert c.cmd("add deezer:track:-1") == ["ACK [50@0] {add} deezer:track:-1: not found (Deezer: no data, error 800)"]
    assert c.fields("status")["playlistlength"] == "0"


def test_add_web_link_is_accepted(daemon):
    c = daemon.client()
    assert c.cmd(f"add https://www.deezer.com/fr/track/{TRACK}") == ["OK"]
    s = c.fields("playlistinfo")
    assert (s["file"], s["Title"], s["Artist"]) == (
        f"deezer:track:{TRACK}", "Harder, Better, Faster, Stronger", "Daft Punk")


def test_preview_403_is_resolved_again_and_plays(daemon, http):
    control(http, "reset")
    control(http, f"fail-once?track={TRACK}&status=403")
    c = daemon.client()
    assert c.cmd(f"add deezer:track:{TRACK}") == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = daemon.wait_state(c, "stop")
    log = control(http, "log")
    assert log.count(f"/api/track/{TRACK}") >= 2
    assert len([p for p in log if p.startswith(f"/preview/{TRACK}.mp3")]) >= 2
    assert "403" in daemon.log()
    assert "error" not in st
    frames, _, _, pcm = wav_pcm(daemon.wav)
    assert (frames, md5(pcm)) == pcm_of(catalog.preview_file_for(TRACK))


def test_preview_404_is_skipped_with_error(daemon, http):
    control(http, "reset")
    c = daemon.client()
    assert c.cmd(f"add deezer:track:{TRACK}") == ["OK"]
    assert c.cmd(f'add "{url(http, 3)}"') == ["OK"]
    control(http, f"fail-once?track={TRACK}&status=404")
    assert c.cmd("play") == ["OK"]
    st = daemon.wait_state(c, "stop")
    assert st["error"].startswith(f"deezer:track:{TRACK}: ")
    assert "404" in st["error"]
    frames, _, _, pcm = wav_pcm(daemon.wav)
    assert (frames, md5(pcm)) == pcm_of("preview-03.mp3")
    assert c.cmd("clearerror") == ["OK"]
    assert "error" not in c.fields("status")


def test_non_mp3_url_is_skipped_and_daemon_keeps_running(daemon, http):
    c = daemon.client()
    bad = f"{http}/api/track/1"
    assert c.cmd(f'add "{bad}"') == ["OK"]
    assert c.cmd(f'add "{url(http, 3)}"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = daemon.wait_state(c, "stop")
    assert st["error"].startswith(f"{bad}: ")
    frames, _, _, pcm = wav_pcm(daemon.wav)
    assert (frames, md5(pcm)) == pcm_of("preview-03.mp3")
    assert daemon.proc.poll() is None
    assert c.cmd("ping") == ["OK"]
    assert daemon.client().greeting == "OK MPD 0.23.5"


def test_error_is_cleared_by_the_next_play(daemon, http):
    c = daemon.client()
    assert c.cmd(f'add "{http}/api/track/1"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = daemon.wait_state(c, "stop")
    assert st["error"].startswith(f"{http}/api/track/1: ")
    assert c.cmd("clear") == ["OK"]
    assert c.cmd(f'add "{url(http, 1)}"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = daemon.wait_state(c, "stop")
    assert "error" not in st
