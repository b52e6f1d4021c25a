"""ncmpc 0.47 (Debian's) in tmux against previewd, driven by its keys as a
user would: browse the chart and add a song, search by Artist and by
Filename, play from the queue. Each step is checked on ncmpc's screen and
through the protocol."""
import os
import subprocess
import time

import pytest

from test_desktop_clients import wait_for

TRACK = 3135556  # Harder, Better, Faster, Stronger (recorded /track/3135556)


class Tmux:
    """A program on a private tmux server, driven by keys and read from its screen."""

    def __init__(self, env, argv, size=(120, 30)):
        self.server = f"previewd-tmux-{os.getpid()}-{id(self)}"
        self.env = env
        subprocess.run(["tmux", "-L", self.server, "new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]),
                        *argv], env=self.env, check=True)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.server, "capture-pane", "-p", "-t", "t"],
                              env=self.env, capture_output=True, text=True).stdout

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.server, "send-keys", "-t", "t", *keys], env=self.env, check=True)

    def shows(self, *texts, timeout=10):
        """The screen once it holds every text (asserts it does in time)."""
        text = wait_for(lambda: (lambda s: s if all(t in s for t in texts) else None)(self.screen()), timeout)
        assert text, f"never showed {texts}:\n{self.screen()}"
        return text

    def close(self):
        subprocess.run(["tmux", "-L", self.server, "kill-server"], env=self.env)


class Ncmpc(Tmux):
    """ncmpc on a private tmux server, 120x30."""

    def __init__(self, daemon, tmp_path):
        super().__init__(dict(os.environ, HOME=str(tmp_path), MPD_HOST=daemon.socket, TERM="xterm", LANG="C.UTF-8"),
                         ["ncmpc"])

    def search(self, mode_presses, query):
        """A new search on the Search screen after pressing `m` this many
        times (Title, Artist, Album, Filename, ...)."""
        self.keys("5")
        self.shows("Change search mode")
        for _ in range(mode_presses):
            self.keys("m")
            time.sleep(0.2)
        self.keys("5")
        self.shows("Search:")
        self.keys(query, "Enter")


@pytest.fixture
def ncmpc(daemon_factory, tmp_path):
    d = daemon_factory(output="null", pace="realtime")
    app = Ncmpc(d, tmp_path)
    app.shows("1:Help", "2:Queue")
    yield d, app
    app.close()


def queued_files(client):
    return [l.split(": ", 1)[1] for l in client.cmd("playlistinfo") if l.startswith("file: ")]


def test_browse_the_chart_and_add_a_song(ncmpc):
    d, app = ncmpc
    app.keys("3")
    app.shows("[deezer:chart]", "[deezer:wantlist]", "[deezer:library]", "[deezer:genres]", "[deezer:radios]")
    app.keys("Enter")
    app.shows("Browse: deezer:chart", "Vilma Palma e Vampiros - Bye Bye", "Claudio Baglioni - E Tu...")
    app.keys("Down", "Enter")
    app.shows("Adding 'Vilma Palma e Vampiros - Bye Bye' to queue")
    c = d.client()
    assert wait_for(lambda: queued_files(c) == ["deezer:track:1785698"]), queued_files(c)


def test_search_by_artist_shows_the_catalog_results(ncmpc):
    d, app = ncmpc
    app.search(1, "eminem")
    text = app.shows("Search 'eminem' [Artist]", "Eminem - ")
    # Every result the filter kept is by Eminem (Deezer's matching is looser).
    results = [l for l in text.splitlines() if " - " in l and "0:" in l]
    assert results and all(l.startswith("Eminem") for l in results), text


def test_search_by_filename_finds_a_catalog_uri_and_keeps_the_connection(ncmpc):
    d, app = ncmpc
    app.search(3, f"deezer:track:{TRACK}")
    app.shows(f"Search 'deezer:track:{TRACK}' [Filename]", "Daft Punk - Harder, Better, Faster, Stronger")
    # A word no URI holds: an empty result, not the ACK that made ncmpc reconnect.
    assert d.client().cmd('search file "eminem"') == ["OK"]


def test_play_from_the_queue_screen(ncmpc):
    d, app = ncmpc
    c = d.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    app.keys("2")
    app.shows("Daft Punk - One More Time", "Daft Punk - Too Long")
    app.keys("Down", "Enter")
    st = d.wait_state(c, "play")
    assert st["song"] == "1", st
    app.shows("Aerodynamic")
    assert wait_for(lambda: "Playing" in app.screen() or "playing" in app.screen().lower()), app.screen()
