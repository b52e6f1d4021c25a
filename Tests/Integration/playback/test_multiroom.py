"""Multi-room through Snapcast (issue 43): previewd's FIFO output feeds a
real snapserver (Debian's, `pipe` source, 44100:16:2) on loopback, and two
real snapclients (two "rooms", `--player file`) both receive the songs
previewd played, sample for sample."""
import os
import shutil
import subprocess

import pytest

from catalog import preview_file_for
from helpers import FRAME, RATE, blocks_in_order, free_port, reference_pcm, stop_process, wait_for

BLOCK = 882  # frames: 20 ms at 44,100 Hz

pytestmark = pytest.mark.skipif(shutil.which("snapserver") is None, reason="snapserver is not installed (contrib/setup installs it)")


@pytest.fixture
def snapcast(tmp_path):
    """snapserver reading tmp_path/fifo and two snapclients writing
    tmp_path/room1.raw and room2.raw; yields the FIFO's path."""
    port = free_port()
    fifo = tmp_path / "fifo"
    server = subprocess.Popen(
        ["snapserver", "-c", "/dev/null", f"--server.datadir={tmp_path}", "--http.enabled=false", "--tcp.enabled=false",
         "--stream.bind_to_address=127.0.0.1", f"--stream.port={port}",
         f"--stream.source=pipe://{fifo}?name=previewd&sampleformat=44100:16:2",
         f"--logging.sink=file:{tmp_path}/server.log"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    wait_for(lambda: os.path.exists(fifo), what="snapserver's pipe")
    clients = [subprocess.Popen(
        ["snapclient", "-h", "127.0.0.1", "-p", str(port), "--hostID", f"room{n}", "-i", str(n), "--mixer", "none",
         "--player", f"file:filename={tmp_path}/room{n}.raw", "--logsink", f"file:{tmp_path}/client{n}.log"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT) for n in (1, 2)]
    logs = [tmp_path / f"client{n}.log" for n in (1, 2)]
    wait_for(lambda: all(p.exists() and "Codec: flac, sampleformat: 44100:16:2" in p.read_text() for p in logs),
             what="both rooms connected")
    yield fifo
    for p in clients + [server]:
        stop_process(p)


def test_two_rooms_play_what_previewd_played(daemon_factory, snapcast, tmp_path):
    d = daemon_factory(output=f"fifo:{snapcast}", pace="realtime")
    c = d.client()
    songs = (3135556, 3135555)
    for n, track in enumerate(songs, start=1):
        assert c.cmd(f"addid deezer:track:{track}") == [f"Id: {n}", "OK"]
        assert c.cmd(f"rangeid {n} 0:3") == ["OK"]
    assert c.cmd("play 0") == ["OK"]
    d.wait_state(c, "stop")
    songs_pcm = [reference_pcm(preview_file_for(t))[:3 * RATE * FRAME] for t in songs]
    blocks = sum(len(pcm) // (BLOCK * FRAME) for pcm in songs_pcm)
    for n in (1, 2):
        room = tmp_path / f"room{n}.raw"
        # Snapcast's buffer (1,000 ms by default) is the rooms' delay. To stay
        # in sync a snapclient drops or repeats a frame now and then, more
        # on a loaded machine (a drop every 0.85 s once in CI): what is asked
        # is that nine in ten of the songs' 20 ms blocks arrive verbatim, in
        # order (all of them, unloaded). A frame dropped spoils one block.
        wait_for(lambda: room.exists() and blocks_in_order(room.read_bytes(), b"".join(songs_pcm), BLOCK) >= blocks * 9 // 10,
                 timeout=15, what=f"room {n} to play both songs",
                 detail=lambda: (f"{room.stat().st_size if room.exists() else 0} bytes, "
                                 f"{blocks_in_order(room.read_bytes(), b''.join(songs_pcm), BLOCK)} of {blocks} blocks"))
