"""Crossfade (issue 17, item 2), checked on the PCM: outside the overlap the
output is the reference PCM bit for bit, inside it equals the two
references mixed with the equal-power curves docs/sound.md documents
(outgoing x cos(pi/2 * i/N) + incoming x sin(pi/2 * i/N), N frames),
within 1 per sample.

To keep the runs short at real-time pace, a 1 s lead-in song comes first
(too short to fade: so the songs after it are prefetched whole, as in real
use), then the outgoing song from 24 s to its end (`rangeid ID 24:`), so its
end comes from the decoder's length of the whole preview, and the incoming
one cut at a few seconds."""
import array
import math
import os
import time
import urllib.parse

import pytest

import catalog
from helpers import FRAME, RATE, album_tracks, control, reference_pcm, wav_pcm


def s(seconds, rate=RATE):
    """Bytes of `seconds` of s16 stereo PCM."""
    return int(seconds * rate) * FRAME


LEAD = "preview-04.mp3"


@pytest.fixture(autouse=True)
def stand_in_reset(http):
    """The previews mapped by `serve` are the stand-in's again after each test."""
    yield
    control(http, "reset")


def serve(http, files):
    """Has the stand-in answer album 302127's first tracks with the lead-in
    song and `files`; their URIs, the lead-in's first."""
    uris = []
    for track, name in zip(album_tracks(), [LEAD, *files]):
        path = urllib.parse.quote(os.path.join(catalog.CORPUS, name))
        control(http, f"preview-file?track={track['id']}&path={path}")
        uris.append(f"deezer:track:{track['id']}")
    return uris


def queue(c, uris, ranges):
    """Queues the lead-in's first second, then `uris[1:]` with `ranges`."""
    for uri, r in zip(uris, ["0:1", *ranges]):
        song = c.fields(f"addid {uri}")["Id"]
        if r:
            assert c.cmd(f"rangeid {song} {r}") == ["OK"]


def mixed(outgoing, incoming):
    """The documented equal-power mix of two equal-length s16 stereo PCMs."""
    a, b = array.array("h", outgoing), array.array("h", incoming)
    n = len(a) // 2
    out = array.array("h", bytes(len(outgoing)))
    for i in range(n):
        angle = math.pi / 2 * i / n
        wo, wi = math.cos(angle), math.sin(angle)
        for k in (2 * i, 2 * i + 1):
            out[k] = max(-32768, min(32767, round(a[k] * wo + b[k] * wi)))
    return out


def assert_close(got, want, what):
    g, w = array.array("h", got), array.array("h", want)
    assert len(g) == len(w), (what, len(g), len(w))
    worst = max((abs(x - y) for x, y in zip(g, w)), default=0)
    assert worst <= 1, f"{what}: a sample is {worst} off"


def with_crossfade_3(daemon_factory, http, files, ranges):
    """A real-time daemon with the lead-in and `files` (with `ranges`)
    queued and crossfade 3, not playing yet."""
    uris = serve(http, files)
    d = daemon_factory(pace="realtime")
    c = d.client()
    queue(c, uris, ranges)
    assert c.cmd("crossfade 3") == ["OK"]
    return d, c


def play_to_end(d, c):
    assert c.cmd("play 0") == ["OK"]
    d.wait_state(c, "stop", timeout=60)
    return wav_pcm(d.wav)


def test_crossfade_3_overlaps_3_s_bit_exact_outside(daemon_factory, http):
    d, c = with_crossfade_3(daemon_factory, http, ["preview-01.mp3", "preview-02.mp3"], ["24:", "0:5"])
    assert c.fields("status")["xfade"] == "3"
    assert c.cmd("play 0") == ["OK"]
    # Once the fade begins, the next song is the current one, from 0 (as mpd).
    deadline = time.time() + 20
    while (st := c.fields("status")).get("song") != "2":
        assert time.time() < deadline and st["state"] == "play", (st, d.log())
        time.sleep(0.05)
    assert float(st["elapsed"]) < 1.0, st
    d.wait_state(c, "stop", timeout=30)
    frames, rate, channels, pcm = wav_pcm(d.wav)
    r1, r2 = reference_pcm("preview-01.mp3"), reference_pcm("preview-02.mp3")
    # The lead-in's 1 s, then 6 s of the first song and 5 s of the second,
    # overlapping by 3 s.
    assert (rate, channels, frames) == (RATE, 2, (1 + 6 + 5 - 3) * RATE), d.log()
    assert pcm[:s(1)] == reference_pcm(LEAD)[:s(1)]
    pcm = pcm[s(1):]
    assert pcm[:s(3)] == r1[s(24):s(27)], "before the overlap"
    assert_close(pcm[s(3):s(6)], mixed(r1[s(27):s(30)], r2[:s(3)]).tobytes(), "the overlap")
    assert pcm[s(6):] == r2[s(3):s(5)], "after the overlap"


def test_crossfade_0_stays_gapless_and_bit_exact(daemon_factory, http):
    uris = serve(http, ["preview-01.mp3", "preview-02.mp3"])
    d = daemon_factory()
    c = d.client()
    for uri in uris[1:]:
        c.fields(f"addid {uri}")
    assert c.cmd("crossfade 3") == ["OK"]
    assert c.cmd("crossfade 0") == ["OK"]
    assert "xfade" not in c.fields("status")
    _, _, _, pcm = play_to_end(d, c)
    assert pcm == reference_pcm("preview-01.mp3") + reference_pcm("preview-02.mp3")


def test_a_change_of_format_means_no_fade(daemon_factory, http):
    d, c = with_crossfade_3(daemon_factory, http, ["preview-01.mp3", "preview-07-48k.mp3"], ["26:", "0:2"])
    _, rate, _, first = play_to_end(d, c)
    assert rate == RATE and first == reference_pcm(LEAD)[:s(1)] + reference_pcm("preview-01.mp3")[s(26):]
    _, rate, _, second = wav_pcm(d.wav[:-4] + "-2.wav")
    assert rate == 48000 and second == reference_pcm("preview-07-48k.mp3")[:s(2, 48000)]


def one_second_into_the_fade(daemon_factory, http, files, ranges):
    """A daemon playing `files` (after the lead-in) with crossfade 3, once
    the incoming song (position 2) has played 1 s of the fade."""
    d, c = with_crossfade_3(daemon_factory, http, files, ranges)
    assert c.cmd("play 0") == ["OK"]
    deadline = time.time() + 20
    while True:
        st = c.fields("status")
        if st.get("song") == "2" and float(st.get("elapsed", 0)) >= 1.0:
            return d, c
        assert time.time() < deadline and st["state"] == "play", (st, d.log())
        time.sleep(0.02)


def played(d, c):
    """The output once the queue ended."""
    d.wait_state(c, "stop", timeout=30)
    return wav_pcm(d.wav)[3]


def test_pause_during_the_fade_abandons_it(daemon_factory, http):
    d, c = one_second_into_the_fade(daemon_factory, http, ["preview-01.mp3", "preview-02.mp3"], ["24:", "0:5"])
    assert c.cmd("pause 1") == ["OK"]
    time.sleep(0.3)
    assert c.cmd("pause 0") == ["OK"]
    pcm = played(d, c)
    # The incoming song plays on alone, unscaled, from where it was.
    assert len(pcm) == s(1 + 8)
    assert pcm[s(6):] == reference_pcm("preview-02.mp3")[s(2):s(5)], "after the pause the incoming song is not bit-exact"


def test_seek_during_the_fade_plays_the_new_position(daemon_factory, http):
    d, c = one_second_into_the_fade(daemon_factory, http, ["preview-01.mp3", "preview-02.mp3"], ["24:", "0:6"])
    assert c.cmd("seekcur 4") == ["OK"]
    pcm = played(d, c)
    assert pcm.endswith(reference_pcm("preview-02.mp3")[s(4):s(6)])
    assert len(pcm) < s(1 + 6 + 6 - 3)


def test_next_during_the_fade_plays_the_song_after(daemon_factory, http):
    d, c = one_second_into_the_fade(daemon_factory, http, ["preview-01.mp3", "preview-02.mp3", "preview-03.mp3"],
                                    ["24:", "0:5", "0:2"])
    assert c.cmd("next") == ["OK"]
    # The third song plays whole and alone (it is the last: no fade after it).
    assert played(d, c).endswith(reference_pcm("preview-03.mp3")[:s(2)])


def test_crossfade_errors_and_persistence(daemon_factory, http, tmp_path):
    state = str(tmp_path / "state")
    d = daemon_factory(extra=("--state-dir", state))
    c = d.client()
    assert c.cmd("crossfade 11") == ["ACK [2@0] {crossfade} Crossfade too long: at most 10 s for 30-second previews"]
    assert c.cmd("crossfade -1") == ["ACK [2@0] {crossfade} Number too small: -1"]
    assert c.cmd("crossfade x") == ["ACK [2@0] {crossfade} Integer expected: x"]
    assert c.cmd("crossfade 4") == ["OK"]
    d.close()
    again = daemon_factory(extra=("--state-dir", state))
    assert again.client().fields("status")["xfade"] == "4"
