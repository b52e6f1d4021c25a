"""Playback details: gapless across formats, seeking, software volume, and
the back button."""
import array
import os

from helpers import MANIFEST, md5, reference_pcm, wav_pcm

PREVIEWS = [n for n in sorted(MANIFEST) if n.startswith("preview-")]


def test_nine_mixed_previews_are_gapless_per_format_segment(daemon, http):
    c = daemon.client()
    for n in PREVIEWS:
        assert c.cmd(f'add "{http}/corpus/{n}"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop", timeout=60)
    # Segments of one format each: 01-06 (44.1 kHz stereo), 07 (48 kHz),
    # 08 (22.05 kHz mono), 09 (44.1 kHz stereo again: a new file).
    segments = [PREVIEWS[:6], PREVIEWS[6:7], PREVIEWS[7:8], PREVIEWS[8:]]
    for i, names in enumerate(segments):
        path = daemon.wav if i == 0 else daemon.wav.replace(".wav", f"-{i + 1}.wav")
        frames, rate, channels, pcm = wav_pcm(path)
        assert (rate, channels) == (int(MANIFEST[names[0]]["rate"]), int(MANIFEST[names[0]]["channels"]))
        assert md5(pcm) == md5(b"".join(reference_pcm(n) for n in names)), names
    assert not os.path.exists(daemon.wav.replace(".wav", "-5.wav"))


def test_seek_to_12_5_seconds_is_sample_exact(daemon, http):
    c = daemon.client()
    assert c.cmd(f'add "{http}/corpus/preview-02.mp3"') == ["OK"]
    assert c.cmd("seek 0 12.5") == ["OK"]
    daemon.wait_state(c, "stop")
    _, _, _, pcm = wav_pcm(daemon.wav)
    assert md5(pcm) == md5(reference_pcm("preview-02.mp3")[551250 * 4:])


def test_software_volume_scales_samples_on_the_wav_output(daemon, http):
    c = daemon.client()
    assert c.cmd("setvol 50") == ["OK"]
    assert c.cmd(f'add "{http}/corpus/preview-03.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    _, _, _, pcm = wav_pcm(daemon.wav)
    ref = array.array("h", reference_pcm("preview-03.mp3"))
    scaled = array.array("h", ((s * 8192) >> 16 for s in ref))  # (50 %)^3 in Q16
    assert md5(pcm) == md5(scaled.tobytes())


def test_full_volume_stays_bit_exact_after_a_change(daemon, http):
    c = daemon.client()
    assert c.cmd("setvol 20") == ["OK"]
    assert c.cmd("setvol 100") == ["OK"]
    assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    assert md5(wav_pcm(daemon.wav)[3]) == MANIFEST["preview-01.mp3"]["pcm_md5_s16"]


def test_previous_past_three_seconds_restarts_the_song(daemon_factory, http):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    for n in ("preview-01.mp3", "preview-02.mp3"):
        assert c.cmd(f'add "{http}/corpus/{n}"') == ["OK"]
    assert c.cmd("seek 1 10") == ["OK"]
    assert c.cmd("previous") == ["OK"]
    st = c.fields("status")
    assert st["song"] == "1" and float(st["elapsed"]) < 1
    assert c.cmd("previous") == ["OK"]
    assert c.fields("status")["song"] == "0"


def test_previous_restart_can_be_turned_off(daemon_factory, http):
    d = daemon_factory(output="null", pace="realtime", extra=("--previous-restart", "0"))
    c = d.client()
    for n in ("preview-01.mp3", "preview-02.mp3"):
        assert c.cmd(f'add "{http}/corpus/{n}"') == ["OK"]
    assert c.cmd("seek 1 10") == ["OK"]
    assert c.cmd("previous") == ["OK"]
    assert c.fields("status")["song"] == "0"
