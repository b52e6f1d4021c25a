"""previewd's `events` stream, `previewctl watch` on top of it, and
`--on-event` hooks: one scripted session (play, pause, next onto a broken
URL, the error skip, a seek, the end of the queue) seen by all three."""
import os
import re
import subprocess
import time

from helpers import PREVIEWCTL, wait_for

HBFS = ["file: deezer:track:3135556", "title: Harder, Better, Faster, Stronger", "artist: Daft Punk",
        "album: Discovery"]
DIGITAL_LOVE = ["file: deezer:track:3135555", "title: Digital Love", "artist: Daft Punk", "album: Discovery"]


def record(client):
    """The next record of an events stream, `elapsed` masked (it is a clock)."""
    return [re.sub(r"^elapsed: .*", "elapsed: *", line) for line in client.reply()]


def test_a_session_seen_by_events_watch_and_hooks(daemon_factory, http, tmp_path):
    hook_dir = tmp_path / "hook"
    hook_dir.mkdir()
    # Each run writes its stdin to its own file: hooks run concurrently.
    hook = f'player:cat > "{hook_dir}/$$.txt"'
    d = daemon_factory(output="null", pace="realtime", extra=("--on-event", hook))
    bad = f"{http}/nothing.mp3"
    ev = d.client()
    ev.send("events\n")
    assert record(ev) == ["event: player", "reason: subscribed", "state: stop", "length: 0", "volume: 100", "OK"]
    watch = subprocess.Popen([PREVIEWCTL, "--socket", d.socket, "watch", "--format",
                              "%event% %reason% %state%[ %position%][ %title%][ (%error%)]"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert watch.stdout.readline() == "player subscribed stopped\n"
        c = d.client()
        for uri in ("deezer:track:3135556", f'"{bad}"', "deezer:track:3135555"):
            assert c.cmd(f"add {uri}") == ["OK"]
        for n in (1, 2, 3):
            assert record(ev) == ["event: playlist", "reason: user", "state: stop", f"length: {n}", "volume: 100", "OK"]
        assert c.cmd("play") == ["OK"]
        playing = ["position: 1", "songid: 1", "length: 3", "volume: 100", *HBFS, "elapsed: *", "duration: 30.000"]
        assert record(ev) == ["event: player", "reason: user", "state: play", *playing, "OK"]
        assert c.cmd("pause") == ["OK"]
        assert record(ev) == ["event: player", "reason: user", "state: pause", *playing, "OK"]
        assert c.cmd("next") == ["OK"]
        assert record(ev) == ["event: player", "reason: user", "state: play", "position: 2", "songid: 2",
                              "length: 3", "volume: 100", f"file: {bad}", "elapsed: *", "OK"]
        third = ["position: 3", "songid: 3", "length: 3", "volume: 100", *DIGITAL_LOVE, "elapsed: *", "duration: 30.000"]
        assert record(ev) == ["event: player", "reason: error", "state: play", *third,
                              f"error: {bad}: HTTP status 404", "OK"]
        assert c.cmd("seekcur 29.5") == ["OK"]
        assert record(ev) == ["event: player", "reason: user", "state: play", *third, "OK"]
        assert record(ev) == ["event: player", "reason: eof", "state: stop", "length: 3", "volume: 100", "OK"]
        ev.send("noidle\n")
        assert ev.reply() == ["OK"]
        assert ev.cmd("ping") == ["OK"]

        lines = [watch.stdout.readline() for _ in range(7)]
        assert lines == [
            "playlist user stopped\n",
            "player user playing 1 Harder, Better, Faster, Stronger\n",
            "player user paused 1 Harder, Better, Faster, Stronger\n",
            "player user playing 2\n",
            f"player error playing 3 Digital Love ({bad}: HTTP status 404)\n",
            "player user playing 3 Digital Love\n",
            "player eof stopped\n",
        ]
    finally:
        watch.kill()
        watch.wait()

    def runs():
        return sorted(re.sub(r"^elapsed=.*", "elapsed=*", (hook_dir / f).read_text(), flags=re.M)
                      for f in os.listdir(hook_dir))
    assert wait_for(lambda: len(runs()) == 6 and all(r.endswith("\n") for r in runs()), timeout=10)
    kv = ["position=1", "songid=1", "length=3", "volume=100", "file=deezer:track:3135556",
          "title=Harder, Better, Faster, Stronger", "artist=Daft Punk", "album=Discovery", "elapsed=*", "duration=30.000"]
    third_kv = ["position=3", "songid=3", "length=3", "volume=100", "file=deezer:track:3135555",
                "title=Digital Love", "artist=Daft Punk", "album=Discovery", "elapsed=*", "duration=30.000"]
    expected = [
        ["event=player", "reason=user", "state=play", *kv],
        ["event=player", "reason=user", "state=pause", *kv],
        ["event=player", "reason=user", "state=play", "position=2", "songid=2", "length=3", "volume=100",
         f"file={bad}", "elapsed=*"],
        ["event=player", "reason=error", "state=play", *third_kv, f"error={bad}: HTTP status 404"],
        ["event=player", "reason=user", "state=play", *third_kv],
        ["event=player", "reason=eof", "state=stop", "length=3", "volume=100"],
    ]
    assert runs() == sorted("\n".join(e) + "\n" for e in expected)


def test_hooks_get_the_event_in_their_environment(daemon_factory, tmp_path):
    out = tmp_path / "env.txt"
    d = daemon_factory(output="null", extra=(
        "--on-event", f'mixer,options:echo "$PREVIEWD_EVENT $PREVIEWD_REASON $PREVIEWD_VOLUME" >> "{out}"'))
    c = d.client()
    assert c.cmd("setvol 40") == ["OK"]
    assert wait_for(lambda: out.exists() and out.read_text() == "mixer user 40\n", timeout=10)
    assert c.cmd("repeat 1") == ["OK"]
    assert wait_for(lambda: out.read_text() == "mixer user 40\noptions user 40\n", timeout=10)
    assert c.cmd("add deezer:track:3135556") == ["OK"]  # playlist: not in the filter
    time.sleep(0.5)  # fixed: a window in which a wrongly run hook would write its line
    assert out.read_text() == "mixer user 40\noptions user 40\n"


def test_a_slow_hook_never_delays_replies_and_a_hung_one_is_killed(daemon_factory, tmp_path):
    marker = tmp_path / "finished"
    d = daemon_factory(output="null", extra=("--on-event", f'sleep 10; touch "{marker}"', "--hook-timeout", "1"))
    c = d.client()
    c.sock.settimeout(3)  # a reply held back by the 10 s hook would time out here
    assert c.cmd("setvol 50") == ["OK"]
    assert c.fields("status")["volume"] == "50"
    assert wait_for(lambda: "hook still running after 1 s, killed" in d.log(), timeout=10)
    time.sleep(0.5)  # fixed: a window in which a surviving shell would run `touch`
    assert not marker.exists(), "the whole process group was killed"
    ps = subprocess.run(["pgrep", "-f", f"touch {marker}"], capture_output=True, text=True)
    assert ps.stdout == ""


def test_ticks_and_bad_intervals(daemon_factory):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"]
    assert c.cmd("play") == ["OK"]
    ev = d.client()
    assert ev.cmd("events 0") == ["ACK [2@0] {events} tick interval must be seconds from 0.1 to 3600: 0"]
    ev.send("events 0.2\n")
    assert record(ev)[:3] == ["event: player", "reason: subscribed", "state: play"]
    ticks = [record(ev) for _ in range(3)]
    assert all(t[:3] == ["event: tick", "reason: tick", "state: play"] for t in ticks), ticks
    ev.send("status\n")  # anything but noidle ends the connection, as in idle
    rest = b""
    while chunk := ev.sock.recv(65536):
        rest += chunk
    assert b"playlistlength" not in rest, "closed, not answered"
