"""Decoding through the whole pipeline (HTTP -> ring -> mpg123 -> WAV)
gives exactly the PCM the manifest records."""
import os

import pytest

import catalog
from helpers import MANIFEST, md5, reference_pcm, wav_pcm

PREVIEWS = [n for n in sorted(MANIFEST) if n.startswith("preview-")]


def test_nine_previews_in_corpus():
    assert len(PREVIEWS) == 9


@pytest.mark.parametrize("name", PREVIEWS)
def test_preview_pcm_matches_manifest(daemon, http, name):
    c = daemon.client()
    assert c.cmd(f'add "{http}/corpus/{name}"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    frames, rate, channels, pcm = wav_pcm(daemon.wav)
    row = MANIFEST[name]
    assert (rate, channels) == (int(row["rate"]), int(row["channels"]))
    assert frames == int(row["pcm_frames"])
    assert md5(pcm) == row["pcm_md5_s16"]


def test_gapless_concatenation_of_three(daemon, http):
    names = ["preview-01.mp3", "preview-02.mp3", "preview-03.mp3"]
    c = daemon.client()
    for n in names:
        assert c.cmd(f'add "{http}/corpus/{n}"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    frames, _, _, pcm = wav_pcm(daemon.wav)
    expected = b"".join(reference_pcm(n) for n in names)
    assert frames == sum(int(MANIFEST[n]["pcm_frames"]) for n in names)
    assert md5(pcm) == md5(expected)
    assert not os.path.exists(daemon.wav.replace(".wav", "-2.wav"))


def test_format_change_starts_next_file(daemon, http):
    c = daemon.client()
    for n in ["preview-01.mp3", "preview-07-48k.mp3", "preview-08-mono22k.mp3"]:
        assert c.cmd(f'add "{http}/corpus/{n}"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    for path, name in [(daemon.wav, "preview-01.mp3"),
                       (daemon.wav.replace(".wav", "-2.wav"), "preview-07-48k.mp3"),
                       (daemon.wav.replace(".wav", "-3.wav"), "preview-08-mono22k.mp3")]:
        frames, rate, channels, pcm = wav_pcm(path)
        assert (frames, rate, md5(pcm)) == (int(MANIFEST[name]["pcm_frames"]), int(MANIFEST[name]["rate"]),
                                            MANIFEST[name]["pcm_md5_s16"])


def test_catalog_track_plays_mapped_preview(daemon, http):
    c = daemon.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    assert c.cmd("play") == ["OK"]
    daemon.wait_state(c, "stop")
    name = catalog.preview_file_for(3135556)
    _, _, _, pcm = wav_pcm(daemon.wav if not name.startswith(("preview-07", "preview-08")) else daemon.wav)
    assert md5(pcm) == MANIFEST[name]["pcm_md5_s16"]
