"""The key-repeat rule: `next` and `previous` answer at once, and a burst of
them (pipelined on one connection, or one `mpc next` per key press) fetches
only the preview it lands on and, once the burst is over, that song's
prefetch, never the previews it passes over."""
import subprocess
import time

import catalog
from helpers import control, mpc_env, wait_for

PIPELINED, MPC_PRESSES = 15, 5


def playable_tracks(n):
    """n catalog tracks with a readable preview, in id order."""
    out = [tid for tid, t in sorted(catalog._index_tracks().items()) if t.get("preview") and t.get("readable", True)]
    assert len(out) >= n
    return out[:n]


def previews_since(http, mark):
    """The preview paths (query dropped) the stand-in served after log entry `mark`."""
    return [p.split("?")[0] for p in control(http, "log")[mark:] if p.startswith("/preview/")]


def previews_asked(http, tracks, since=0):
    """Whether the stand-in was asked for the preview of every track in `tracks` after log entry `since`."""
    return {f"/preview/{t}.mp3" for t in tracks} <= set(previews_since(http, since))


def burst(daemon_factory, http, extra=(), ahead=2):
    """Plays the first of 24 tracks, lets its prefetch (`ahead` songs)
    start, then sends PIPELINED `next` at once on one connection and
    MPC_PRESSES `mpc next` from a shell loop (mpc asks for the status
    after each, as a hotkey's does). Returns the track ids and the
    previews fetched from the first `next` until the burst settled and
    its prefetch was asked for."""
    control(http, "reset")
    tracks = playable_tracks(PIPELINED + MPC_PRESSES + 4)
    d = daemon_factory(output="null", pace="realtime", extra=extra)
    c = d.client()
    for t in tracks:
        assert c.cmd(f"add deezer:track:{t}") == ["OK"]
    assert c.cmd("play") == ["OK"]
    wait_for(lambda: previews_asked(http, tracks[:1 + ahead]), timeout=10, what="the first song's prefetch",
             detail=lambda: str(previews_since(http, 0)))
    mark = len(control(http, "log"))
    started = time.monotonic()
    c.send("next\n" * PIPELINED)
    # The shell loop starts at once: the key is still held.
    loop = f"for i in $(seq {MPC_PRESSES}); do mpc next >/dev/null || exit 1; done"
    subprocess.run(["sh", "-c", loop], env=mpc_env(d), check=True, timeout=30)
    replies = [c.reply() for _ in range(PIPELINED)]
    took = time.monotonic() - started
    assert replies == [["OK"]] * PIPELINED
    st = c.fields("status")
    assert (st["state"], st["song"]) == ("play", str(PIPELINED + MPC_PRESSES)), st
    landing = PIPELINED + MPC_PRESSES
    # Past the burst's quiet time: the landing song and its prefetch are asked for.
    wait_for(lambda: previews_asked(http, tracks[landing:landing + 1 + ahead], mark), timeout=10,
             what="the landing song and its prefetch", detail=lambda: str(previews_since(http, mark)))
    assert c.fields("status")["song"] == str(PIPELINED + MPC_PRESSES)
    print(f"burst of {PIPELINED + MPC_PRESSES} skips answered in {took * 1000:.0f} ms")
    return tracks, previews_since(http, mark)


def test_a_burst_fetches_only_where_it_lands_and_its_prefetch(daemon_factory, http):
    tracks, fetched = burst(daemon_factory, http)
    landing = PIPELINED + MPC_PRESSES
    print("previews fetched by the burst:", len(fetched), fetched)
    wanted = {f"/preview/{t}.mp3" for t in tracks[landing:landing + 3]}
    assert wanted <= set(fetched), fetched
    # One more is a song opened where a gap between presses outlasted the settle.
    assert len(fetched) <= 4, fetched


def test_a_burst_without_prefetch_fetches_only_where_it_lands(daemon_factory, http):
    tracks, fetched = burst(daemon_factory, http, extra=("--prefetch", "0"), ahead=0)
    print("previews fetched by the burst:", len(fetched), fetched)
    assert f"/preview/{tracks[PIPELINED + MPC_PRESSES]}.mp3" in fetched, fetched
    assert len(fetched) <= 2, fetched


def test_next_answers_before_the_audio_and_previous_too(daemon_factory, http):
    """With the catalog slow, a skip onto a song not downloaded yet is
    answered before its first audio, as mpd answers; play still waits."""
    control(http, "reset")
    tracks = playable_tracks(4)
    d = daemon_factory(output="null", pace="realtime", extra=("--prefetch", "0"))
    c = d.client()
    for t in tracks:
        assert c.cmd(f"add deezer:track:{t}") == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert "audio" in c.fields("status")
    try:
        control(http, "delay?ms=500")
        for command, song in (("next", "1"), ("previous", "0")):
            started = time.monotonic()
            assert c.cmd(command) == ["OK"]
            assert time.monotonic() - started < 0.4, command
            st = c.fields("status")
            assert (st["song"], "audio" in st) == (song, False), st
        started = time.monotonic()
        assert c.cmd("play 2") == ["OK"]
        assert time.monotonic() - started >= 0.4, "play answers once the song is audible"
        assert "audio" in c.fields("status")
    finally:
        control(http, "delay?ms=0")
