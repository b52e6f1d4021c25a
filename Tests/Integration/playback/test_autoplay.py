"""Autoplay (issue 45): when the queue's last song plays, previewd appends
songs like the ones played lately, from the loopback stand-in's recorded
catalog. Artist lists were recorded for one artist only (Daft Punk, 27):
the others' top tracks and radio are `catalog.artist_list`, NOT A
RECORDING, built from recorded track objects in the recorded shapes."""
import glob
import re
import subprocess
import time

import pytest

import catalog
from catalog import preview_file_for
from helpers import PREVIEWCTL, Daemon, control, elapsed_of, reference_pcm, wait_for, wait_status, wav_pcm, without_locale

SEED = "deezer:track:3135556"  # Harder, Better, Faster, Stronger (Daft Punk)


@pytest.fixture(autouse=True)
def artist_lists(http):
    control(http, "artist-lists?on=1")
    yield
    control(http, "artist-lists?on=0")
    control(http, "quota?n=0")


def added(d):
    """The URIs autoplay added, in order, from previewd's log."""
    return re.findall(r"autoplay: added (\S+) ", d.log())


def artist_of(uri):
    """The artist's name (case folded) the stand-in's recorded track object gives."""
    track_id = int(uri.rsplit(":", 1)[1])
    return catalog.STATE.tracks[track_id]["artist"]["name"].lower() if track_id in catalog.STATE.tracks else "daft punk"


def api_count(http):
    return control(http, "count")["api_requests"]


def wav_files(d):
    """The WAV output's files in order: out.wav, out-2.wav, ... (a new one
    at each change of sample rate or channels)."""
    more = glob.glob(d.wav.replace(".wav", "-*.wav"))
    return [d.wav] + sorted(more, key=lambda p: int(p.rsplit("-", 1)[1][:-4]))


def test_the_queue_ends_and_songs_like_it_follow_gaplessly(daemon_factory, http):
    d = daemon_factory(pace="realtime")
    c = d.client()
    assert c.cmd(f"add {SEED}") == ["OK"]
    assert c.cmd("autoplay 1") == ["OK"]
    assert c.fields("status")["autoplay"] == "1"
    # The seed's last 2 s, so the wait is short; autoplay adds when it starts.
    assert c.cmd("rangeid 1 28:") == ["OK"]
    assert c.cmd("play") == ["OK"]
    first = wait_for(lambda: added(d), timeout=15, what="a song added by autoplay", detail=d.log)[0]
    assert first != SEED
    wait_for(lambda: c.fields("status").get("songid") == "2", timeout=15, what="the added song playing")
    st = c.fields("status")
    assert st["song"] == "1" and st["state"] == "play"
    song = c.fields("currentsong")
    assert song["file"] == first
    assert song["Comment"].startswith('autoplay: like "'), song
    wait_for(lambda: elapsed_of(c) >= 1, timeout=15, what="a second of the added song written")
    assert c.cmd("autoplay 0") == ["OK"]
    assert c.cmd("stop") == ["OK"]
    d.close()

    seed, nxt = reference_pcm(preview_file_for(3135556)), reference_pcm(preview_file_for(first.rsplit(":", 1)[1]))
    files = [wav_pcm(p) for p in wav_files(d)]
    # The seed from 28 s: where the recording's first 0.1 s lies in it.
    _, rate, channels, rec = files[0]
    frame = 2 * channels
    start = seed.find(rec[:rate // 10 * frame])
    assert start > 0 and start % frame == 0, "the seed's tail is not at the recording's start"
    tail = seed[start:]
    assert abs(len(tail) / frame / rate - 2.0) < 0.1, len(tail) / frame / rate
    assert rec[:len(tail)] == tail, "the seed's last 2 s are not whole"
    # Then the added song from its first frame, with nothing between (in
    # the same file when the format is the same, else at the next file's start).
    after = rec[len(tail):] if len(rec) > len(tail) else files[1][3]
    assert len(after) >= files[0][1] // 2 * 2, "less than half a second of the added song was written"
    assert after == nxt[:len(after)], "the added song does not follow the seed frame for frame"


def test_off_stops_at_the_end_as_before(daemon, http):
    c = daemon.client()
    assert c.fields("status")["autoplay"] == "0"
    assert c.cmd(f"add {SEED}") == ["OK"]
    before = api_count(http)
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    time.sleep(0.5)  # fixed: a window in which autoplay, were it on, would add a song
    assert c.fields("status")["playlistlength"] == "1"
    assert added(daemon) == []
    assert api_count(http) == before, "autoplay off asks the catalog nothing"


SEEDS = ["deezer:track:3135556", "deezer:track:6461440", "deezer:track:685405"]  # Daft Punk, Eminem, Morcheeba


def test_a_hundred_songs_from_three_seeds_repeat_nothing_and_no_artist_thrice(daemon, http):
    c = daemon.client()
    for uri in SEEDS:
        assert c.cmd(f"add {uri}") == ["OK"]
    assert c.cmd("autoplay 1") == ["OK"]
    before = api_count(http)
    assert c.cmd("play") == ["OK"]
    wait_for(lambda: len(added(daemon)) >= 100, timeout=120, what="100 songs added",
             detail=lambda: f"{len(added(daemon))} added\n{daemon.log()[-3000:]}")
    requests = api_count(http) - before
    assert c.cmd("autoplay 0") == ["OK"]
    songs = added(daemon)[:100]
    assert len(set(songs)) == 100, "a song came twice"
    assert not set(songs) & set(SEEDS)
    played = [artist_of(u) for u in SEEDS + songs]
    runs = [played[i] for i in range(2, len(played)) if played[i] == played[i - 1] == played[i - 2]]
    assert runs == [], runs
    # The seeds' own /track/ID answers come from `add`; every read after is autoplay's.
    assert requests <= len(added(daemon)), (requests, len(added(daemon)))
    # Played ones left the queue: the seeds stay, and at most the song playing and the one after.
    daemon.wait_state(c, "stop", timeout=60)
    assert int(c.fields("status")["playlistlength"]) <= len(SEEDS) + 1


def test_a_failing_catalog_stops_autoplay_with_a_reason_and_it_resumes(daemon_factory, http):
    """The read fails (Deezer's "quota exceeded", retried 1 + 2 + 4 s)
    while the seed's last 10 s still play; the queue then ends. Once the
    catalog answers, `clearerror` finds a song, and it plays."""
    daemon = daemon_factory(pace="realtime")
    c = daemon.client()
    assert c.cmd(f"add {SEED}") == ["OK"]
    assert c.cmd("rangeid 1 20:") == ["OK"]
    assert c.cmd("autoplay 1") == ["OK"]
    control(http, "quota?n=100000")
    ev = daemon.client()
    ev.send("events\n")
    ev.reply()
    assert c.cmd("play") == ["OK"]
    st = wait_status(c, "error", timeout=30)
    assert st["state"] == "play", "the read failed before the seed ended"
    st = daemon.wait_state(c, "stop", timeout=15)
    assert re.fullmatch(r"autoplay: .*quota.*; trying again in 30 s", st["error"]), st["error"]
    assert added(daemon) == []
    # It waits: no request for the next 3 s.
    quiet = api_count(http)
    time.sleep(3)  # fixed: the 3 s of quiet are what is tested
    assert api_count(http) == quiet
    # An event said why, with autoplay's own reason.
    records = []
    while not any(l == "reason: autoplay" for l in records):
        records += ev.reply()
    assert f"error: {st['error']}" in records
    control(http, "quota?n=0")
    assert c.cmd("clearerror") == ["OK"]
    wait_for(lambda: added(daemon), timeout=15, what="autoplay after clearerror", detail=daemon.log)
    st = daemon.wait_state(c, "play", timeout=15)
    assert "error" not in st
    assert c.fields("currentsong")["file"] == added(daemon)[0]


def autoplay_after_start(root, http, *extra):
    """`status`'s autoplay of a previewd started on `root`'s state (stopped again)."""
    d = Daemon(root, http, extra=extra)
    try:
        return d.client().fields("status")["autoplay"]
    finally:
        d.close()


def test_the_setting_survives_a_restart_and_the_option_is_the_default(daemon_factory, http):
    d = daemon_factory()
    assert d.client().cmd("autoplay 1") == ["OK"]
    d.close()
    assert autoplay_after_start(d.tmp, http) == "1"
    # The user's choice (off) wins over --autoplay.
    off = Daemon(d.tmp, http)
    assert off.client().cmd("autoplay 0") == ["OK"]
    off.close()
    assert autoplay_after_start(d.tmp, http, "--autoplay") == "0"
    # --autoplay alone is a default, not a choice: the next start follows its own options.
    g = daemon_factory(extra=("--autoplay",))
    assert g.client().fields("status")["autoplay"] == "1"
    g.close()
    assert autoplay_after_start(g.tmp, http) == "0"
    assert autoplay_after_start(g.tmp, http, "--autoplay") == "1"
    # previewctl, and a bad value.
    fresh = daemon_factory(extra=("--autoplay",))
    p = fresh.ctl("autoplay", "off")
    assert (p.returncode, p.stderr) == (0, "")
    assert "   autoplay: off\n" in fresh.ctl("status").stdout
    assert fresh.client().cmd("autoplay 2") == ["ACK [2@0] {autoplay} Boolean (0/1) expected: 2"]
    p = fresh.ctl("autoplay", "maybe")
    assert p.returncode == 64 and p.stderr.startswith("previewctl: "), p.stderr


def test_a_read_that_answers_after_autoplay_is_off_adds_nothing(daemon_factory, http):
    """The artist's radio answers 3 s late; autoplay is turned off in the
    meantime, and the queue ends as it would without autoplay."""
    d = daemon_factory(pace="realtime")
    c = d.client()
    assert c.cmd(f"add {SEED}") == ["OK"] and c.cmd("rangeid 1 29:") == ["OK"]
    assert c.cmd("autoplay 1") == ["OK"]
    control(http, "fault?path=/artist/27/radio&kind=slow&seconds=3")
    try:
        assert c.cmd("play") == ["OK"]
        wait_for(lambda: "/api/artist/27/radio" in control(http, "log"), timeout=10, what="autoplay's read")
        assert c.cmd("autoplay 0") == ["OK"]
        d.wait_state(c, "stop")
        time.sleep(3.5)  # past the late answer: nothing may come of it
        assert added(d) == []
        assert c.fields("status")["playlistlength"] == "1"
    finally:
        control(http, "reset")


def test_a_song_autoplay_added_leaves_when_skipped_too(daemon_factory, http):
    d = daemon_factory(pace="realtime")
    c = d.client()
    assert c.cmd(f"add {SEED}") == ["OK"] and c.cmd("rangeid 1 29:") == ["OK"]
    assert c.cmd("autoplay 1") == ["OK"] and c.cmd("play") == ["OK"]
    wait_for(lambda: c.fields("status").get("songid") == "2", timeout=15, what="the first autoplay song")
    # Skipping it leaves it behind no more than playing it would.
    wait_for(lambda: len(added(d)) >= 2, timeout=15, what="the next one appended")
    assert c.cmd("next") == ["OK"]
    wait_for(lambda: [l.split(": ")[1] for l in c.cmd("playlistinfo") if l.startswith("Id: ")] == ["1", "3", "4"] or
             [l.split(": ")[1] for l in c.cmd("playlistinfo") if l.startswith("Id: ")] == ["1", "3"], timeout=10,
             what="song 2 gone from the queue", detail=lambda: str(c.cmd("playlistinfo")))
    assert c.cmd("autoplay 0") == ["OK"] and c.cmd("stop") == ["OK"]


def test_the_settings_file_hooks_and_watch_see_autoplay(daemon_factory, http, tmp_path):
    """`autoplay = yes` in the settings file turns it on; a song autoplay
    adds reaches hooks (PREVIEWD_REASON=autoplay, PREVIEWD_AUTOPLAY=1) and
    `previewctl watch` as a playlist change with reason autoplay."""
    config = tmp_path / "cfg" / "previewd"
    config.mkdir(parents=True)
    (config / "previewd.conf").write_text("autoplay = yes\n")
    out = tmp_path / "hook.txt"
    env = dict(without_locale(), XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    d = daemon_factory(pace="realtime", env=env, extra=(
        "--on-event", f'playlist:echo "$PREVIEWD_EVENT $PREVIEWD_REASON $PREVIEWD_AUTOPLAY" >> "{out}"'))
    c = d.client()
    assert c.fields("status")["autoplay"] == "1"
    watch = subprocess.Popen([PREVIEWCTL, "--socket", d.socket, "watch", "--format", "%event% %reason%"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert watch.stdout.readline() == "player subscribed\n"
        assert c.cmd(f"add {SEED}") == ["OK"] and c.cmd("rangeid 1 29:") == ["OK"]
        assert watch.stdout.readline() == "playlist user\n"
        assert c.cmd("play") == ["OK"]
        lines = [watch.stdout.readline() for _ in range(2)]
        assert lines == ["player user\n", "playlist autoplay\n"], lines
    finally:
        watch.kill()
        watch.wait()
    assert wait_for(lambda: out.exists() and "playlist autoplay 1\n" in out.read_text(), timeout=10), \
        out.read_text() if out.exists() else "no hook ran"
    assert c.cmd("autoplay 0") == ["OK"] and c.cmd("stop") == ["OK"]
