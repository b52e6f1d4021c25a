"""`stats` playtime counts what was played: not a position restored after a
restart, nor the part of a song a seek jumped over."""
from helpers import Daemon, album_tracks, elapsed_of, restart, wait_for


def playtime(c):
    return int(c.fields("stats")["playtime"])


def test_a_restored_position_and_a_seek_are_not_played_time(tmp_path, http):
    d = Daemon(tmp_path / "d", http, output="null", pace="realtime")
    c = d.client()
    for t in album_tracks()[:2]:
        assert c.cmd(f"add deezer:track:{t['id']}") == ["OK"]
    assert c.cmd("play") == ["OK"]
    assert c.cmd("seekcur 20") == ["OK"]
    wait_for(lambda: elapsed_of(c) >= 20.5, timeout=10, what="half a second played after the seek")
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
        resumed = float(st["elapsed"])
        wait_for(lambda: elapsed_of(c2) >= resumed + 1.3, timeout=10, what="1.3 s played after the restart")
        assert playtime(c2) == 1
    finally:
        d2.close()
