"""`stats` playtime counts what was played: not a position restored after a
restart, nor the part of a song a seek jumped over."""
import time

from helpers import Daemon, album_tracks, restart


def playtime(c):
    return int(c.fields("stats")["playtime"])


def test_a_restored_position_and_a_seek_are_not_played_time(tmp_path, http):
    d = Daemon(tmp_path / "d", http, output="null", pace="realtime")
    c = d.client()
    for t in album_tracks()[:2]:
        assert c.cmd(f"add deezer:track:{t['id']}") == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert c.cmd("seekcur 20") == ["OK"]
    time.sleep(0.5)
    assert playtime(c) == 0, "the 20 s the seek jumped over were not played"
    assert float(c.fields("status")["elapsed"]) >= 20
    c.close()
    d2 = restart(d, http, output="null", pace="realtime")
    try:
        c2 = d2.client()
        st = c2.fields("status")
        assert st["state"] == "pause" and float(st["elapsed"]) >= 20
        assert playtime(c2) == 0, "the restored position was not played here"
        assert c2.cmd("play") == ["OK"]
        time.sleep(1.3)
        assert playtime(c2) == 1
    finally:
        d2.close()
