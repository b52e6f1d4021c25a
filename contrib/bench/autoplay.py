#!/usr/bin/python3
"""Autoplay's figures (issue 45, docs/autoplay.md). Figures, never pass/fail.

Runs the release previewd (build it first: swift build -c release) against
the loopback catalog stand-in with its artist lists on (catalog.artist_list,
NOT A RECORDING: the recorded track objects in the recorded shapes).

1. The gap, on the WAV output at real-time pace: the seed's last 2 s
   (`rangeid 1 28:`), then the first song autoplay adds; side by side, the
   same seed followed by a song queued by hand. The gap is the frames
   between the end of the first song's PCM and the start of the next one's
   in the WAV file (0: gapless, as between two queued songs), and how long
   after the last song started autoplay had appended.
2. --songs songs (default 100) autoplayed from three seeds of three artists
   (WAV output, as fast as decoding allows): catalog API requests per song
   (from the stand-in's count), repeats, the longest run of one artist,
   the distinct artists reached, and the distinct genres of the songs whose
   album genre the stand-in knows (most recorded track objects carry none).

  contrib/bench/autoplay.py [BIN_DIR] [--songs N]
"""
import os
import re
import sys
import tempfile
import time

import benchlib  # noqa: E402  (also puts the stand-in on the path)

BIN, ARGS = benchlib.arguments(songs=100)
os.environ["PREVIEWD_BIN_DIR"] = BIN
import catalog  # noqa: E402
from helpers import Daemon, reference_pcm, wait_for, wav_pcm  # noqa: E402

SEED = "deezer:track:3135556"
SEEDS = ["deezer:track:3135556", "deezer:track:6461440", "deezer:track:685405"]  # Daft Punk, Eminem, Morcheeba
BY_HAND = "deezer:track:3135553"


def control(base, what):
    import json
    import urllib.request
    with urllib.request.urlopen(f"{base}/_control/{what}", timeout=10) as r:
        return json.load(r)


def added(d):
    return re.findall(r"autoplay: added (\S+) ", d.log())


def gap(first_file, second_file, rec_files, tail_seconds=2.0):
    """Frames between the first song's tail and the second song's first
    frame in the WAV output's files (None when it cannot be told)."""
    first, second = reference_pcm(first_file), reference_pcm(second_file)
    _, rate, channels, rec = rec_files[0]
    frame = 2 * channels
    start = first.find(rec[:rate // 10 * frame])
    if start < 0:
        return None
    tail = first[start:]
    if rec[:len(tail)] != tail:
        return None
    after = rec[len(tail):] if len(rec) > len(tail) else rec_files[1][3]
    probe = second[:rate // 10 * (2 * rec_files[-1][2])]
    at = after.find(probe)
    return None if at < 0 else at // frame


def wav_files(d):
    import glob
    more = glob.glob(d.wav.replace(".wav", "-*.wav"))
    return [wav_pcm(p) for p in [d.wav] + sorted(more, key=lambda p: int(p.rsplit("-", 1)[1][:-4]))]


def one_gap(base, tmp, autoplay):
    d = Daemon(os.path.join(tmp, "gap-" + ("autoplay" if autoplay else "queued")), base, pace="realtime")
    c = d.client()
    c.cmd(f"add {SEED}")
    if autoplay:
        c.cmd("autoplay 1")
    else:
        c.cmd(f"add {BY_HAND}")
    c.cmd("rangeid 1 28:")
    t0 = time.monotonic()
    c.cmd("play")
    if autoplay:
        wait_for(lambda: added(d), timeout=15)
        appended_ms = (time.monotonic() - t0) * 1000
    wait_for(lambda: c.fields("status").get("songid") == "2", timeout=15)
    time.sleep(1.5)
    c.cmd("autoplay 0")
    c.cmd("stop")
    d.close()
    nxt = added(d)[0] if autoplay else BY_HAND
    frames = gap(catalog.preview_file_for(3135556), catalog.preview_file_for(nxt.rsplit(":", 1)[1]), wav_files(d))
    return frames, (appended_ms if autoplay else None), nxt


def hundred(base, tmp, n):
    d = Daemon(os.path.join(tmp, "hundred"), base)
    c = d.client()
    for uri in SEEDS:
        c.cmd(f"add {uri}")
    c.cmd("autoplay 1")
    before = control(base, "count")["api_requests"]
    t0 = time.monotonic()
    c.cmd("play")
    wait_for(lambda: len(added(d)) >= n, timeout=600, interval=0.2)
    took = time.monotonic() - t0
    requests = control(base, "count")["api_requests"] - before
    count = len(added(d))
    c.cmd("autoplay 0")
    c.cmd("stop")
    d.close()
    songs = added(d)[:n]
    with catalog.STATE.lock:
        tracks = dict(catalog.STATE.tracks)
    artist = lambda u: tracks.get(int(u.rsplit(":", 1)[1]), {}).get("artist", {}).get("name", "?").lower()  # noqa: E731
    order = [artist(u) for u in SEEDS + songs]
    run, longest = 1, 1
    for a, b in zip(order, order[1:]):
        run = run + 1 if a == b else 1
        longest = max(longest, run)
    genres = set()
    for u in songs:
        album = tracks.get(int(u.rsplit(":", 1)[1]), {}).get("album", {}).get("id")
        genre = catalog.album_genre(album) if album else None
        if genre:
            genres.add(genre)
    return {"songs": len(songs), "requests": requests, "per_song": requests / count, "repeats": len(songs) - len(set(songs)),
            "seeds_again": len(set(songs) & set(SEEDS)), "longest_run": longest,
            "artists": len(set(order[len(SEEDS):])), "genres": len(genres), "seconds": took}


def main():
    server = catalog.serve()
    base = f"http://127.0.0.1:{server.server_port}"
    control(base, "artist-lists?on=1")
    tmp = tempfile.mkdtemp(prefix="previewd-autoplay-")
    try:
        queued, _, _ = one_gap(base, tmp, autoplay=False)
        auto, appended_ms, first = one_gap(base, tmp, autoplay=True)
        print(f"gap, seed -> song queued by hand:    {queued} frames")
        print(f"gap, seed -> first autoplay song:    {auto} frames ({first}, appended {appended_ms:.0f} ms "
              "after the last song started)")
        r = hundred(base, tmp, ARGS["songs"])
        print(f"{r['songs']} autoplayed songs from 3 seeds in {r['seconds']:.1f} s (decoding unpaced):")
        print(f"  API requests: {r['requests']} ({r['per_song']:.2f} a song)")
        print(f"  repeats: {r['repeats']}, seeds played again: {r['seeds_again']}, "
              f"longest run of one artist: {r['longest_run']}")
        print(f"  distinct artists: {r['artists']}, distinct genres (of albums the stand-in knows): {r['genres']}")
    finally:
        control(base, "artist-lists?on=0")
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
