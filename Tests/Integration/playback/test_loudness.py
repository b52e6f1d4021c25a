"""Replay gain from measured loudness (issue 17, item 1), checked on the PCM
by an independent meter: ffmpeg's own EBU R128 filter (not libebur128)."""
import os
import re
import sqlite3
import subprocess
import urllib.parse
import wave

import pytest

import catalog
from helpers import PREVIEWD, album_tracks, control, md5, reference_pcm, wait_for, wav_pcm


def integrated_lufs(path):
    """ffmpeg's ebur128 filter's integrated loudness of a file, in LUFS."""
    out = subprocess.run(["ffmpeg", "-nostats", "-hide_banner", "-i", str(path), "-af", "ebur128", "-f", "null", "-"],
                         capture_output=True, text=True, check=True).stderr
    summary = out[out.rindex("Summary:"):]
    return float(re.search(r"I:\s+(-?[\d.]+) LUFS", summary)[1])


def write_wav(path, pcm):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(pcm)


def measured_rows(state_dir):
    db = os.path.join(state_dir, "loudness.sqlite")
    if not os.path.exists(db):
        return {}
    with sqlite3.connect(db) as c:
        return {uri: lufs for uri, lufs in c.execute("SELECT uri, lufs FROM songs")}


def quiet_copy(tmp_path):
    """A copy of preview-01 12 dB quieter, re-encoded by LAME, and its PCM as mpg123 decodes it."""
    quiet = tmp_path / "quiet.mp3"
    subprocess.run(["lame", "--quiet", "--mp3input", "--scale", "0.25", "-b", "128",
                    os.path.join(catalog.CORPUS, "preview-01.mp3"), str(quiet)], check=True)
    return quiet, subprocess.run(["mpg123", "-q", "-s", str(quiet)], capture_output=True, check=True).stdout


# The wait for the measurement is 30 s here, not the default 1.5 s: a
# debug build on two shared cores may miss the default bound, and what is
# checked is the gain of the first sample, not how fast it was measured
# (contrib/bench/first_sample.py measures that).
@pytest.mark.parametrize("pace", ["realtime", "none"])
def test_cold_previews_12_db_apart_play_within_1_db_from_the_first_sample(daemon_factory, http, tmp_path, pace):
    """Nothing measured yet (a fresh state): each song waits for its whole
    preview and its measurement before its first sample, so even the first
    plays with its own gain; `off` stays bit-exact."""
    quiet, quiet_ref = quiet_copy(tmp_path)
    loud_ref = reference_pcm("preview-01.mp3")
    loud_id, quiet_id = album_tracks()[0]["id"], album_tracks()[1]["id"]
    q = urllib.parse.quote
    control(http, f"preview-file?track={loud_id}&path={q(os.path.join(catalog.CORPUS, 'preview-01.mp3'))}")
    control(http, f"preview-file?track={quiet_id}&path={q(str(quiet))}")
    # At real time, 3 s of each song (rangeid), so the test stays short; the
    # whole preview is still downloaded and measured whole.
    part = 3 * 44100 * 4 if pace == "realtime" else None
    refs = [loud_ref[:part], quiet_ref[:part]]
    try:
        pcm, gains = {}, {}
        for mode in ("track", "off"):
            state = str(tmp_path / f"state-{mode}")
            d = daemon_factory(pace=pace, extra=("--state-dir", state, "--replay-gain-wait", "30"))
            c = d.client()
            assert c.cmd(f"replay_gain_mode {mode}") == ["OK"]
            for track in (loud_id, quiet_id):
                song = c.fields(f"addid deezer:track:{track}")["Id"]
                if part:
                    assert c.cmd(f"rangeid {song} 0:3") == ["OK"]
            assert c.cmd("play 0") == ["OK"]
            if mode == "track" and pace == "realtime":
                # Once the first sample is out its gain is chosen for good.
                assert wait_for(lambda: float(c.fields("status").get("elapsed", "0")) > 0, timeout=40), d.log()
                st = c.fields("status")
                assert st["replay_gain_source"] == "track", st
                gains["loud"] = float(st["replay_gain_db"])
                assert -10 < gains["loud"] < -7, st  # -18 LUFS target: about -8.5 dB for the loud original
            d.wait_state(c, "stop", timeout=60)
            _, _, _, pcm[mode] = wav_pcm(d.wav)
            if mode == "track":
                rows = measured_rows(state)
                assert abs(rows[f"deezer:track:{loud_id}"] - rows[f"deezer:track:{quiet_id}"]) > 11.5, rows
        assert md5(pcm["off"]) == md5(refs[0] + refs[1]), "off is not bit-exact"
        split = len(refs[0])
        assert len(pcm["track"]) == split + len(refs[1])
        write_wav(tmp_path / "loud-in.wav", refs[0])
        write_wav(tmp_path / "loud-out.wav", pcm["track"][:split])
        write_wav(tmp_path / "quiet-out.wav", pcm["track"][split:])
        loud_lufs = integrated_lufs(tmp_path / "loud-out.wav")
        quiet_lufs = integrated_lufs(tmp_path / "quiet-out.wav")
        before = integrated_lufs(os.path.join(catalog.CORPUS, "preview-01.mp3")) - integrated_lufs(quiet)
        assert before > 11.5, before
        print(f"{pace}: loudness after {loud_lufs} and {quiet_lufs} LUFS (before {before:.1f} LU apart), gains {gains}")
        assert abs(loud_lufs - quiet_lufs) <= 1.0, (loud_lufs, quiet_lufs)
        if gains:
            # The gain status reported is the gain the PCM got (ffmpeg's one decimal).
            assert abs(loud_lufs - integrated_lufs(tmp_path / "loud-in.wav") - gains["loud"]) <= 0.15, (loud_lufs, gains)
    finally:
        control(http, "reset")


def test_measurements_survive_a_restart_and_need_no_wait(daemon_factory, http, tmp_path):
    state = str(tmp_path / "state")
    first = daemon_factory(pace="none", extra=("--state-dir", state))
    c = first.client()
    assert c.cmd("replay_gain_mode track") == ["OK"]
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    assert c.cmd("play") == ["OK"]
    first.wait_state(c, "stop", timeout=60)
    first.close()
    assert list(measured_rows(state)) == ["deezer:track:3135556"]
    second = daemon_factory(pace="realtime", extra=("--state-dir", state))
    c = second.client()
    assert c.fields("replay_gain_status")["replay_gain_mode"] == "track"
    assert c.cmd("play 0") == ["OK"]
    st = c.fields("status")
    assert st["replay_gain_source"] == "track", st
    assert "measured before its first sample" not in second.log(), "a measured song does not wait"


def test_off_stays_bit_exact_and_bad_modes_are_refused(daemon, http):
    c = daemon.client()
    assert c.cmd("replay_gain_mode loud") == ["ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode"]
    assert c.cmd("replay_gain_mode off") == ["OK"]
    assert c.cmd(f"add {http}/corpus/preview-02.mp3") == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert "replay_gain_source" not in c.fields("status")
    daemon.wait_state(c, "stop", timeout=60)
    _, _, _, pcm = wav_pcm(daemon.wav)
    assert md5(pcm) == md5(reference_pcm("preview-02.mp3"))


def test_a_bad_preamp_or_wait_is_a_usage_error():
    for bad in ("99", "loud", "nan"):
        r = subprocess.run([PREVIEWD, "--replay-gain-preamp", bad], capture_output=True, text=True)
        assert r.returncode == 64, bad
        assert r.stderr.strip() == f'previewd: --replay-gain-preamp takes dB from -15 to 15, not "{bad}"'
    for bad in ("61", "-1", "soon", "inf"):
        r = subprocess.run([PREVIEWD, "--replay-gain-wait", bad], capture_output=True, text=True)
        assert r.returncode == 64, bad
        assert r.stderr.strip() == f'previewd: --replay-gain-wait takes seconds from 0 to 60, not "{bad}"'


def test_past_the_wait_a_song_is_measured_by_the_decode_that_plays_it(daemon_factory, http, tmp_path):
    """A preview at 131,072 B/s takes about 4 s to arrive, past the 1.5 s
    wait: it starts with Deezer's gain and is measured from the PCM it
    played once its body ended, to the same figure as a song held whole."""
    uri = "deezer:track:3135556"
    figures = {}
    try:
        for rate in (0, 131072):
            control(http, f"slow-preview?rate={rate}")
            state = str(tmp_path / f"state-{rate}")
            # At full speed the wait is 30 s, so that a loaded machine cannot
            # miss it; the slow preview meets the default 1.5 s.
            wait = ("--replay-gain-wait", "30") if rate == 0 else ()
            d = daemon_factory(pace="none", extra=("--state-dir", state, *wait))
            c = d.client()
            assert c.cmd("replay_gain_mode track") == ["OK"]
            assert c.cmd(f"add {uri}") == ["OK"]
            assert c.cmd("play") == ["OK"]
            source = c.fields("status").get("replay_gain_source")
            d.wait_state(c, "stop", timeout=60)
            assert wait_for(lambda: uri in measured_rows(state), timeout=10), d.log()
            figures[rate] = measured_rows(state)[uri]
            how = "measured before its first sample" if rate == 0 else "no usable measurement before its first sample"
            assert f"(track), {how}" in d.log() or f"(deezer), {how}" in d.log(), d.log()
            if rate:
                assert source == "deezer", source
    finally:
        control(http, "reset")
    assert figures[0] == figures[131072], figures
