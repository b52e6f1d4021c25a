"""Deezer's share links (deezer.page.link, link.deezer.com) are resolved
when they are added, with HEAD requests that follow the redirects, and the
item they lead to is queued. The test catalog server stands in for the
short-link hosts as an HTTP proxy (http_proxy); the API stays direct."""
import os

import pytest

from helpers import album_tracks, control


@pytest.fixture
def proxied(daemon_factory, http):
    env = dict(os.environ, http_proxy=http, no_proxy="127.0.0.1,localhost")
    return daemon_factory(env=env)


def heads(http):
    return [p for p in control(http, "log") if "deezer.page.link" in p or "link.deezer.com" in p]


def test_a_share_link_queues_the_item_it_leads_to(proxied, http):
    c = proxied.client()
    assert c.cmd("addid http://deezer.page.link/hbfs") == ["Id: 1", "OK"]
    assert c.fields("playlistid 1")["file"] == "deezer:track:3135556"
    # Two hops: the short link, then a second one, then the album page.
    assert c.cmd("add http://deezer.page.link/two-hops") == ["OK"]
    files = [l for l in c.cmd("playlistinfo") if l.startswith("file: ")]
    assert files == ["file: deezer:track:3135556"] + [f"file: deezer:track:{t['id']}" for t in album_tracks()]
    assert heads(http)[-3:] == ["http://deezer.page.link/hbfs", "http://deezer.page.link/two-hops",
                                "http://link.deezer.com/s/discovery"]


def test_a_link_that_leads_nowhere_fails_when_added(proxied):
    c = proxied.client()
    link = "http://deezer.page.link"
    assert c.cmd(f"add {link}/elsewhere") == [
        f"ACK [50@0] {{add}} {link}/elsewhere: the share link leads to https://www.example.com/promo, not to a Deezer item"]
    assert c.cmd(f"add {link}/gone") == [f"ACK [50@0] {{add}} {link}/gone: the share link does not lead anywhere (HTTP 404)"]
    assert c.cmd(f"add {link}/loop") == [
        f"ACK [50@0] {{add}} {link}/loop: the share link leads to {link}/loop, not to a Deezer item"]
    assert c.fields("status")["playlistlength"] == "0"
    p = proxied.ctl("add", f"{link}/gone")
    assert (p.returncode, p.stderr) == (1, f"previewctl: add: {link}/gone: the share link does not lead anywhere (HTTP 404)\n")
