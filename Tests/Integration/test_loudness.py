"""Replay gain from measured loudness (issue 17, item 1), checked on the PCM
by an independent meter: ffmpeg's own EBU R128 filter (not libebur128)."""
import os
import re
import sqlite3
import subprocess
import urllib.parse
import wave

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


def test_two_previews_12_db_apart_play_within_1_lu(daemon_factory, http, tmp_path):
    # A copy of a preview 12 dB quieter, re-encoded by LAME as the issue made it.
    quiet = tmp_path / "quiet.mp3"
    subprocess.run(["lame", "--quiet", "--mp3input", "--scale", "0.25", "-b", "128",
                    os.path.join(catalog.CORPUS, "preview-01.mp3"), str(quiet)], check=True)
    loud_id, quiet_id = album_tracks()[0]["id"], album_tracks()[1]["id"]
    q = urllib.parse.quote
    control(http, f"preview-file?track={loud_id}&path={q(os.path.join(catalog.CORPUS, 'preview-01.mp3'))}")
    control(http, f"preview-file?track={quiet_id}&path={q(str(quiet))}")
    try:
        state = str(tmp_path / "shared-state")
        # Real-time pace, and 3 s of each song (rangeid), so `status` can be
        # read while a song plays; the whole preview is still downloaded,
        # and measured whole.
        first = daemon_factory(pace="realtime", extra=("--state-dir", state))
        c = first.client()
        assert c.cmd("replay_gain_mode track") == ["OK"]
        for track in (loud_id, quiet_id):
            song = c.fields(f"addid deezer:track:{track}")["Id"]
            assert c.cmd(f"rangeid {song} 0:3") == ["OK"]
        # First run: nothing is measured yet, so the first song plays with no
        # gain (bit-exact) and says so; both songs get measured meanwhile.
        assert c.cmd("play 0") == ["OK"]
        st = c.fields("status")
        assert st["replay_gain_source"] == "none" and st["replay_gain_db"] == "0.00", st
        first.wait_state(c, "stop", timeout=30)
        wait_for(lambda: len(measured_rows(state)) >= 2, timeout=20, interval=0.1, what="both songs measured",
                 detail=first.log)
        rows = measured_rows(state)
        assert abs(rows[f"deezer:track:{loud_id}"] - rows[f"deezer:track:{quiet_id}"]) > 11.5, rows
        _, _, _, pcm = wav_pcm(first.wav)
        part = 3 * 44100 * 4
        ref = reference_pcm("preview-01.mp3")[:part]
        assert md5(pcm[:part]) == md5(ref), "the unmeasured first song is not bit-exact"
        first.close()

        # Second run on the same state: the measurements survived the restart.
        second = daemon_factory(pace="realtime", extra=("--state-dir", state))
        c = second.client()
        assert c.fields("replay_gain_status")["replay_gain_mode"] == "track"
        assert c.cmd("play 0") == ["OK"]
        st = c.fields("status")
        assert st["replay_gain_source"] == "track", st
        gain = float(st["replay_gain_db"])
        # -18 LUFS target: about -8.5 dB for the loud original.
        assert -10 < gain < -7, st
        second.wait_state(c, "stop", timeout=30)
        _, _, _, pcm = wav_pcm(second.wav)
        assert len(pcm) == 2 * part
        write_wav(tmp_path / "loud-in.wav", ref)
        write_wav(tmp_path / "loud-out.wav", pcm[:part])
        write_wav(tmp_path / "quiet-out.wav", pcm[part:])
        loud_lufs = integrated_lufs(tmp_path / "loud-out.wav")
        quiet_lufs = integrated_lufs(tmp_path / "quiet-out.wav")
        before = integrated_lufs(os.path.join(catalog.CORPUS, "preview-01.mp3")) - integrated_lufs(quiet)
        assert before > 11.5, before
        print(f"loudness after: {loud_lufs} and {quiet_lufs} LUFS (before {before:.1f} LU apart), gain {gain} dB")
        assert abs(loud_lufs - quiet_lufs) <= 1.0, (loud_lufs, quiet_lufs)
        # The gain status reported is the gain the PCM got (ffmpeg's one decimal).
        assert abs(loud_lufs - integrated_lufs(tmp_path / "loud-in.wav") - gain) <= 0.15, (loud_lufs, gain)
    finally:
        control(http, "reset")


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


def test_a_bad_preamp_is_a_usage_error():
    for bad in ("99", "loud", "nan"):
        r = subprocess.run([PREVIEWD, "--replay-gain-preamp", bad], capture_output=True, text=True)
        assert r.returncode == 64, bad
        assert r.stderr.strip() == f'previewd: --replay-gain-preamp takes dB from -15 to 15, not "{bad}"'
