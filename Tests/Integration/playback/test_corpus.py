"""Every file of the shared MP3 corpus, served over loopback and played with
the WAV output as fast as decoding allows: where the manifest says it
decodes, the PCM (all format segments in order) has its md5 and frame
count; otherwise previewd plays what it can or skips it with a reason, and
always goes on to the next song."""
import glob
import os
import time

import pytest

from helpers import MANIFEST, md5, wav_pcm

FILES = sorted(MANIFEST)


def segments(wav):
    """PCM of out.wav, out-2.wav, ... in order."""
    paths = [wav] + sorted(glob.glob(wav.replace(".wav", "-*.wav")), key=lambda p: int(p.rsplit("-", 1)[1][:-4]))
    return [wav_pcm(p) for p in paths if os.path.exists(p)]


@pytest.mark.parametrize("name", FILES)
def test_corpus_file(daemon_factory, http, name):
    d = daemon_factory()
    c = d.client()
    row = MANIFEST[name]
    assert c.cmd(f'add "{http}/corpus/{name}"') == ["OK"]
    assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]  # the next song must still play
    assert c.cmd("play") == ["OK"]
    try:
        duration = float(row.get("ffprobe_duration", "0"))
    except ValueError:
        duration = 30.0
    # No hang: the file is done (the next song started, or all stopped)
    # within its duration plus 5 s, though decoding runs unpaced.
    deadline = time.time() + duration + 5
    while (st := c.fields("status")).get("song", "1") == "0" and st["state"] != "stop" and time.time() < deadline:
        time.sleep(0.01)
    assert st.get("song") != "0" or st["state"] == "stop", (name, st)
    st = d.wait_state(c, "stop", timeout=35)
    pcm_segments = segments(d.wav)
    assert pcm_segments, d.log()
    # The last segment ends with preview-01, whole.
    last = pcm_segments[-1][3]
    ref_next = MANIFEST["preview-01.mp3"]
    assert md5(last[-int(ref_next["pcm_frames"]) * 4:]) == ref_next["pcm_md5_s16"]
    played = b"".join(s[3] for s in pcm_segments)[:-int(ref_next["pcm_frames"]) * 4]
    if row["decodes"] == "yes":
        assert md5(played) == row["pcm_md5_s16"], name
        assert "error" not in st, st.get("error")
    elif row["decodes"] == "no":
        assert played == b""
        assert st["error"].startswith(f"{http}/corpus/{name}: "), st
