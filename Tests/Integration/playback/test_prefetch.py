"""Prefetch and self-healing downloads: the next songs are fetched while the
current one plays, so `next` needs no network; a body cut off (an expired
signed URL after a long pause) continues from the same byte with an HTTP
Range request, sample-exact."""
import re
import time
import urllib.parse

import pytest

import catalog
from helpers import MANIFEST, album_tracks, control, elapsed_of, md5, play_uris, reference_pcm, wait_for, wait_status, wav_pcm


def file_of(track):
    return catalog.preview_file_for(track["id"])


def same_format_tracks(n):
    """The first n album tracks whose previews are 44.1 kHz stereo (one WAV file)."""
    out = [t for t in album_tracks()
           if (MANIFEST[file_of(t)]["rate"], MANIFEST[file_of(t)]["channels"]) == ("44100", "2")]
    assert len(out) >= n
    return out[:n]


def requests_since(http, mark):
    """Paths the stand-in saw after log entry `mark`, without control calls."""
    return [p for p in control(http, "log")[mark:] if not p.startswith("/_control/")]


def sent_of(http, path, n):
    """Bytes the stand-in wrote so far of the `n`th slow body it served for `path` (0 before it began)."""
    bodies = [sent for p, sent in control(http, "sent") if p == path]
    return bodies[n] if len(bodies) > n else 0


def queue_and_play(d, tracks):
    """A client of `d` that queued the Deezer tracks `tracks` and sent `play`."""
    return play_uris(d, [f"deezer:track:{t['id']}" for t in tracks])


def test_next_to_a_prefetched_track_needs_no_request(daemon_factory, http):
    control(http, "reset")
    tracks = same_format_tracks(3)
    d = daemon_factory(pace="realtime")
    c = queue_and_play(d, tracks)
    # Prefetches download one at a time: the third song's is asked for once the second's body is whole.
    third = f"/preview/{tracks[2]['id']}.mp3"
    assert wait_for(lambda: any(p.startswith(third) for p in control(http, "log")), timeout=10, interval=0.02), d.log()
    try:
        control(http, "delay?ms=300")
        mark = len(control(http, "log"))
        # `next` answers at once; the prefetched song starts with no request.
        assert c.cmd("next") == ["OK"]
        wait_status(c, "audio")
        assert requests_since(http, mark) == []
    finally:
        control(http, "delay?ms=0")
    st = c.fields("status")
    assert (st["song"], st["audio"]) == ("1", "44100:16:2")
    wait_for(lambda: elapsed_of(c) >= 0.5, timeout=10, what="half a second of the second song written")
    d.close()
    _, _, _, pcm = wav_pcm(d.wav)
    first, second_pcm = reference_pcm(file_of(tracks[0])), reference_pcm(file_of(tracks[1]))
    cut = pcm.find(second_pcm[:44100])
    assert cut > 0 and cut % 4 == 0
    assert md5(pcm[:cut]) == md5(first[:cut]), "the first song, from its start"
    assert md5(pcm[cut:]) == md5(second_pcm[:len(pcm) - cut]), "then the second, from its start"


def test_without_prefetch_next_fetches_then_plays(daemon_factory, http):
    control(http, "reset")
    tracks = same_format_tracks(2)
    d = daemon_factory(pace="realtime", extra=("--prefetch", "0"))
    c = queue_and_play(d, tracks)
    time.sleep(1)  # fixed: a window in which a prefetch, were it on, would be asked for
    assert not any(p.startswith(f"/preview/{tracks[1]['id']}.mp3") for p in control(http, "log"))
    mark = len(control(http, "log"))
    assert c.cmd("next") == ["OK"]  # at once: the song opens after the skip settle
    assert wait_for(lambda: any(p.startswith(f"/preview/{tracks[1]['id']}.mp3") for p in requests_since(http, mark)),
                    timeout=10, interval=0.02)


def test_prefetched_album_plays_gapless_and_sample_exact(daemon_factory, http):
    control(http, "reset")
    tracks = same_format_tracks(4)
    d = daemon_factory(pace="none")
    c = queue_and_play(d, tracks)
    d.wait_state(c, "stop", timeout=60)
    _, _, _, pcm = wav_pcm(d.wav)
    assert md5(pcm) == md5(b"".join(reference_pcm(file_of(t)) for t in tracks))
    previews = [p for p in control(http, "log") if p.startswith("/preview/")]
    assert len(previews) == 4, (previews, d.log())  # each downloaded once


def test_prefetch_stays_within_its_memory_budget(daemon_factory, http):
    control(http, "reset")
    # Previews of 482 KB each (not the 728 KB VBR one): 1 MiB holds the
    # playing one and one more, never a third.
    tracks = [t for t in same_format_tracks(7) if file_of(t) != "preview-09-vbr.mp3"]
    d = daemon_factory(pace="realtime", extra=("--prefetch", "5", "--prefetch-memory", "1"))
    queue_and_play(d, tracks)
    time.sleep(1.5)  # fixed: a window in which a third preview, over the budget, would be asked for
    fetched = {m[1] for p in control(http, "log") if (m := re.match(r"/preview/(\d+)\.mp3", p))}
    assert str(tracks[0]["id"]) in fetched
    assert fetched == {str(tracks[0]["id"]), str(tracks[1]["id"])}, fetched


def test_long_pause_resumes_with_one_resolution_and_one_range_request(daemon_factory, http):
    control(http, "reset")
    # Signed URLs live 2 s; whole bodies trickle at 64 KB/s and the CDN
    # closes them once the URL has expired, so the body is cut mid-way.
    control(http, "expiry?seconds=2")
    control(http, "slow-preview?rate=65536&cut=1")
    try:
        track = album_tracks()[0]
        d = daemon_factory(pace="realtime")
        c = queue_and_play(d, [track])
        wait_for(lambda: elapsed_of(c) >= 0.5, timeout=10, what="half a second played")
        assert c.cmd("pause 1") == ["OK"]
        time.sleep(5)  # fixed: a pause longer than the URL's 2 s life is the scenario
        assert c.cmd("pause 0") == ["OK"]
        d.wait_state(c, "stop", timeout=60)
        log = [p for p in control(http, "log") if not p.startswith("/_control/")]
        ranges = control(http, "ranges")
    finally:
        control(http, "reset")
    first_fetch = next(i for i, p in enumerate(log) if p.startswith("/preview/"))
    assert [p for p in log[first_fetch:] if p.startswith("/api/")] == [f"/api/track/{track['id']}"]
    assert len([p for p in log if p.startswith("/preview/")]) == 2
    assert len(ranges) == 1, ranges
    start = int(re.fullmatch(r"bytes=(\d+)-", ranges[0][1])[1])
    assert 0 < start < 400_000, start
    _, _, _, pcm = wav_pcm(d.wav)
    assert md5(pcm) == md5(reference_pcm(file_of(track))), "nothing replayed, nothing skipped"
    assert "resolving the preview URL again" in d.log()


def test_a_burst_of_next_opens_only_the_song_it_lands_on(daemon_factory, http):
    control(http, "reset")
    tracks = album_tracks()[:6]
    d = daemon_factory(pace="realtime", extra=("--prefetch", "0"))
    queue_and_play(d, tracks)
    mark = len(control(http, "log"))
    # Key repeat: separate connections, each sending `next` at once.
    clients = [d.client() for _ in range(4)]
    for cl in clients:
        cl.send("next\n")
    for cl in clients:
        assert cl.reply() == ["OK"]
    st = clients[0].fields("status")
    assert (st["song"], st["state"]) == ("4", "play")
    # The skips answered at once; the landing song opens once they settled.
    wait_status(clients[0], "audio")
    previews = [p for p in requests_since(http, mark) if p.startswith("/preview/")]
    assert [p.split("?")[0] for p in previews] == [f"/preview/{tracks[4]['id']}.mp3"]


def track_per_preview():
    """One catalog track id for each corpus preview file, by file name."""
    out = {}
    for tid, track in sorted(catalog._index_tracks().items()):
        if track.get("preview") and track.get("readable", True):
            out.setdefault(catalog.preview_file_for(tid), tid)
    assert sorted(out) == catalog.PREVIEWS
    return out


def ranged_starts(http):
    return [int(re.fullmatch(r"bytes=(\d+)-", r)[1]) for _, r in control(http, "ranges")]


def test_seek_past_the_download_fetches_the_rest_by_range(daemon_factory, http):
    control(http, "reset")
    # 0.5 MB at 32 KB/s: the byte at 25 s would be here after about 12 s.
    control(http, "slow-preview?rate=32768")
    try:
        name = "preview-02.mp3"  # constant bitrate, with an Info frame
        d = daemon_factory(pace="realtime")
        c = queue_and_play(d, [{"id": track_per_preview()[name]}])
        wait_for(lambda: elapsed_of(c) >= 0.5, timeout=10, what="half a second played")
        assert c.cmd("seekcur 25") == ["OK"]
        d.wait_state(c, "stop", timeout=30)
        previews = [p for p in control(http, "log") if p.startswith("/preview/")]
        starts = ranged_starts(http)
    finally:
        control(http, "reset")
    assert len(previews) == 2, previews
    # 25 s of 128 kbit/s is 400,000 bytes; the fetch starts a few frames before.
    assert len(starts) == 1 and 380_000 < starts[0] < 400_000, starts
    ref = reference_pcm(name)
    tail = ref[25 * 44100 * 4:]
    _, _, _, pcm = wav_pcm(d.wav)
    head = len(pcm) - len(tail)
    assert head > 0 and pcm[:head] == ref[:head], "the song's start, until the seek"
    assert md5(pcm[head:]) == md5(tail), "from the seek on: sample-exact"


def seek_from_stop(daemon_factory, http, name, seconds, *faults, extra=()):
    """Queues the catalog track served by corpus file `name`, seeks to
    `seconds` from stop with the stand-in's `faults` set, plays to the end
    (unpaced) and checks the WAV is the reference from the target on.
    Returns the final status and the stand-in's preview requests and ranges."""
    control(http, "reset")
    for fault in faults:
        control(http, fault)
    try:
        d = daemon_factory(pace="none", extra=extra)
        c = d.client()
        assert c.cmd(f"add deezer:track:{track_per_preview()[name]}") == ["OK"]
        assert c.cmd(f"seek 0 {seconds}") == ["OK"]
        st = d.wait_state(c, "stop", timeout=60)
        previews = [p for p in control(http, "log") if p.startswith("/preview/")]
        ranges = control(http, "ranges")
    finally:
        control(http, "reset")
    assert "error" not in st, (name, st)
    _, rate, channels, pcm = wav_pcm(d.wav)
    assert md5(pcm) == md5(reference_pcm(name)[seconds * rate * channels * 2:]), (name, faults)
    assert c.cmd("ping") == ["OK"]
    d.close()
    return st, previews, ranges


def test_seek_from_stop_on_a_slow_link_is_sample_exact_for_every_preview(daemon_factory, http):
    """Constant-bitrate MPEG-1 previews with an Info frame are fetched from
    near the target; the others (no Info frame, MPEG-2, VBR) wait for the
    bytes. Either way the output is the reference from the target on."""
    ranged = [name for name in sorted(track_per_preview())
              if seek_from_stop(daemon_factory, http, name, 20, "slow-preview?rate=131072")[2]]
    assert ranged == ["preview-01.mp3", "preview-02.mp3", "preview-03.mp3", "preview-04.mp3",
                      "preview-05.mp3", "preview-07-48k.mp3"]


def test_a_range_answered_from_another_byte_is_trimmed_or_given_up(daemon_factory, http):
    """The part a server sends is the one its Content-Range names: an
    earlier start is trimmed; a later one (bytes missing) is given up, and
    the song decodes from its download instead. Both are sample-exact."""
    for shift in (-4180, 3):
        _, _, ranges = seek_from_stop(daemon_factory, http, "preview-02.mp3", 25,
                                      "slow-preview?rate=65536", f"range-shift?bytes={shift}")
        assert len(ranges) == 1


@pytest.mark.parametrize("value", ["bytes 99999999999999999999-482676/482677", "bytes */482677", "bytes x-y/z"])
def test_a_range_answer_with_an_unreadable_content_range_is_given_up(daemon_factory, http, value):
    """A 206 whose Content-Range names no readable first byte (a number past
    Int, none at all) names no part: the song decodes from its download.
    The part sent starts 4,180 bytes early, so taking it for the part asked
    for would not be sample-exact."""
    _, previews, ranges = seek_from_stop(daemon_factory, http, "preview-02.mp3", 25,
                                         "slow-preview?rate=65536", "range-shift?bytes=-4180",
                                         "content-range?value=" + urllib.parse.quote(value))
    assert (len(previews), len(ranges)) == (2, 1)


def test_a_server_ignoring_range_leaves_the_seek_to_the_download(daemon_factory, http):
    """A 200 to the Range request gives the probe up at once; the seek then
    waits for the download, which kept going, and is sample-exact."""
    _, previews, ranges = seek_from_stop(daemon_factory, http, "preview-02.mp3", 25,
                                         "slow-preview?rate=65536", "ignore-range")
    assert (len(previews), len(ranges)) == (2, 1)


def test_a_seek_waiting_longer_than_the_stall_limit_on_a_link_fast_enough_plays(daemon_factory, http):
    """A VBR preview (no Range seek) at 30 KB/s: reaching 25 s takes longer
    than --stream-timeout, but the bytes come faster than playing needs, so
    it is a wait, not a trickle."""
    seek_from_stop(daemon_factory, http, "preview-09-vbr.mp3", 25, "slow-preview?rate=30000",
                   extra=("--stream-timeout", "5"))


def test_dropped_prefetches_give_their_memory_back(daemon_factory, http):
    """With room for the playing preview and one more, a prefetch dropped
    three times (its song deleted) still leaves room for the next one."""
    control(http, "reset")
    control(http, "slow-preview?rate=262144")
    a, b, c3 = (track_per_preview()[n] for n in ("preview-02.mp3", "preview-01.mp3", "preview-03.mp3"))
    try:
        d = daemon_factory(pace="realtime", extra=("--prefetch-memory", "1", "--prefetch", "1"))
        c = d.client()
        assert c.cmd(f"add deezer:track:{a}") == ["OK"]
        assert c.cmd("play") == ["OK"]
        for round_ in range(3):
            assert c.cmd(f"add deezer:track:{b}") == ["OK"]
            assert wait_for(lambda: len([p for p in control(http, "log") if p.startswith(f"/preview/{b}.")]) > round_,
                            timeout=10, interval=0.02)
            # Part of it arrived: 128 KiB of its 471 KiB.
            wait_for(lambda: sent_of(http, f"/preview/{b}.mp3", round_) >= 128 << 10, timeout=10, interval=0.02,
                     what="part of the prefetched body sent")
            assert c.cmd("delete 1") == ["OK"]
        assert c.cmd(f"add deezer:track:{c3}") == ["OK"]
        assert wait_for(lambda: any(p.startswith(f"/preview/{c3}.") for p in control(http, "log")),
                        timeout=10, interval=0.02), d.log()
    finally:
        control(http, "reset")
