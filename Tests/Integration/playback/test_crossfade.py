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
        # The whole status, log and stand-in requests: a stall here is rare and needs all three.
        assert time.time() < deadline and st["state"] == "play", f"{st}\n{d.log()}\n{control(http, 'log')}"
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
        # The whole status, log and stand-in requests: a stall here is rare and needs all three.
        assert time.time() < deadline and st["state"] == "play", f"{st}\n{d.log()}\n{control(http, 'log')}"
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


# Crossfade with replay gain on, nothing measured yet (issue 35): each song
# is held and measured before its first sample, the incoming one as the
# fade begins; the held outgoing song fades out with its held PCM. The gain
# each song got is read back from the PCM: the Q16 factor F for which every
# sample is (reference * F) >> 16, the engine's scale.

def q16_factor(out, ref):
    """The Q16 factor F with every sample of `out` equal to (ref * F) >> 16, or None."""
    o, r = array.array("h", out), array.array("h", ref)
    assert len(o) == len(r), (len(o), len(r))
    guess = round(sum(a * b for a, b in zip(o, r)) / sum(b * b for b in r) * 65536)
    for f in sorted(range(guess - 4, guess + 5), key=lambda f: abs(f - guess)):
        if all((b * f) >> 16 == a for a, b in zip(o, r)):
            return f
    return None


def scaled(ref, f):
    return array.array("h", [max(-32768, min(32767, (x * f) >> 16)) for x in array.array("h", ref)]).tobytes()


def decibels(f):
    return 20 * math.log10(f / 65536)


def assert_faded_with_own_gains(pcm, head, r1, r2, d):
    """`pcm` after `head` bytes: r1 from 24 s to its end, r2's first 5 s,
    overlapping 3 s, each scaled by one factor from its first sample; the
    factors, in dB."""
    pcm = pcm[head:]
    assert len(pcm) == s(6 + 5 - 3), (len(pcm), d.log())
    f1 = q16_factor(pcm[:s(3)], r1[s(24):s(27)])
    f2 = q16_factor(pcm[s(6):], r2[s(3):s(5)])
    assert f1 and f2, (f1, f2, d.log())
    assert_close(pcm[s(3):s(6)], mixed(scaled(r1[s(27):s(30)], f1), scaled(r2[:s(3)], f2)).tobytes(), "the overlap")
    return decibels(f1), decibels(f2)


def test_cold_songs_fade_with_their_own_gains_from_the_first_sample(daemon_factory, http, tmp_path):
    from test_loudness import integrated_lufs, quiet_copy
    quiet, quiet_ref = quiet_copy(tmp_path)
    d, c = with_crossfade_3(daemon_factory, http, ["preview-01.mp3", str(quiet)], ["24:", "0:5"])
    assert c.cmd("replay_gain_mode track") == ["OK"]
    _, _, _, pcm = play_to_end(d, c)
    assert q16_factor(pcm[:s(1)], reference_pcm(LEAD)[:s(1)]), "the lead-in is not scaled by one gain"
    loud, soft = assert_faded_with_own_gains(pcm, s(1), reference_pcm("preview-01.mp3"), quiet_ref, d)
    # The gains are the measured ones: apart by what ffmpeg's meter finds between the files.
    apart = integrated_lufs(os.path.join(catalog.CORPUS, "preview-01.mp3")) - integrated_lufs(quiet)
    print(f"gains {loud:.2f} and {soft:.2f} dB; the files are {apart:.2f} LU apart")
    assert abs((soft - loud) - apart) <= 0.5 and -10 < loud < -7, (loud, soft, apart)
    assert d.log().count("(track), measured before its first sample") == 3, d.log()


def test_direct_urls_fade_held_or_prefetched(daemon_factory, http):
    """A direct URL streamed (not prefetched: the first song) fades out
    once held whole to be measured; the next one, prefetched with
    crossfade on, fades in, measured as the fade begins."""
    d = daemon_factory(pace="realtime")
    c = d.client()
    urls = [f"{http}/corpus/preview-01.mp3", f"{http}/corpus/preview-02.mp3"]
    for url, r in zip(urls, ["24:", "0:5"]):
        song = c.fields(f'addid "{url}"')["Id"]
        assert c.cmd(f"rangeid {song} {r}") == ["OK"]
    assert c.cmd("crossfade 3") == ["OK"]
    assert c.cmd("replay_gain_mode track") == ["OK"]
    _, _, _, pcm = play_to_end(d, c)
    first, second = assert_faded_with_own_gains(pcm, 0, reference_pcm("preview-01.mp3"), reference_pcm("preview-02.mp3"), d)
    assert d.log().count("(track), measured before its first sample") == 2, d.log()
    assert -10 < first < -7 and second != first, (first, second)


def test_direct_urls_prefetched_whole_fade_bit_exact_outside(daemon_factory, http):
    """Replay gain off: the lead-in streams, the two songs after it are
    prefetched (crossfade on) and played from memory, so they fade as
    catalog previews do."""
    d = daemon_factory(pace="realtime")
    c = d.client()
    for name, r in [(LEAD, "0:1"), ("preview-01.mp3", "24:"), ("preview-02.mp3", "0:5")]:
        song = c.fields(f'addid "{http}/corpus/{name}"')["Id"]
        assert c.cmd(f"rangeid {song} {r}") == ["OK"]
    assert c.cmd("crossfade 3") == ["OK"]
    mark = len(control(http, "log"))
    _, _, _, pcm = play_to_end(d, c)
    r1, r2 = reference_pcm("preview-01.mp3"), reference_pcm("preview-02.mp3")
    assert len(pcm) == s(1 + 6 + 5 - 3), d.log()
    assert pcm[:s(1)] == reference_pcm(LEAD)[:s(1)]
    assert pcm[s(1):s(4)] == r1[s(24):s(27)], "before the overlap"
    assert_close(pcm[s(4):s(7)], mixed(r1[s(27):s(30)], r2[:s(3)]).tobytes(), "the overlap")
    assert pcm[s(7):] == r2[s(3):s(5)], "after the overlap"
    # Each direct URL was read once: the two faded ones from their prefetch.
    assert [p for p in control(http, "log")[mark:] if p.startswith("/corpus/")] == [
        f"/corpus/{LEAD}", "/corpus/preview-01.mp3", "/corpus/preview-02.mp3"]


def test_a_streamed_direct_url_fades_once_its_rest_has_arrived(daemon_factory, http):
    """Replay gain off, the first song a direct URL (streamed through the
    ring, not prefetched): by its last seconds the rest of its body is in
    the ring, so it fades into the next (prefetched) as a download would."""
    d = daemon_factory(pace="realtime")
    c = d.client()
    for name, r in [("preview-01.mp3", "24:"), ("preview-02.mp3", "0:5")]:
        song = c.fields(f'addid "{http}/corpus/{name}"')["Id"]
        assert c.cmd(f"rangeid {song} {r}") == ["OK"]
    assert c.cmd("crossfade 3") == ["OK"]
    _, _, _, pcm = play_to_end(d, c)
    r1, r2 = reference_pcm("preview-01.mp3"), reference_pcm("preview-02.mp3")
    assert len(pcm) == s(6 + 5 - 3), d.log()
    assert pcm[:s(3)] == r1[s(24):s(27)], "before the overlap"
    assert_close(pcm[s(3):s(6)], mixed(r1[s(27):s(30)], r2[:s(3)]).tobytes(), "the overlap")
    assert pcm[s(6):] == r2[s(3):s(5)], "after the overlap"
