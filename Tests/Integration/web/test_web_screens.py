"""Issue 34's screens in a real headless Chromium, each checked against
the daemon's state through the protocol: search and play, the queue's
reorder (a real pointer drag, and the Move buttons), a stored playlist's
whole life, a change made with mpc showing on an open page (pushed over
Server-Sent Events), hostile catalog text, the keys, the Media Session
and the PWA manifest; and over plain HTTP the event stream, the covers'
cache and the command relay's refusals. The stand-in runs in its web mode
(see test_web_flow.py)."""
import http.client
import json
import os
import socket

import pytest

from helpers import control, fixture, run_mpc, url, wait_for
from webui import DESKTOP, PHONE, browser, drawn, script_errors, shoot, tap, text_of

DISCOVERY = fixture("album-302127-tracks.json")["data"]
EMINEM = fixture("search-eminem.json")["data"]
HOSTILE = "<img src=x onerror=window.pwned=1>"


def queue_uris(d):
    return [line.split(": ", 1)[1] for line in d.client().cmd("playlistinfo") if line.startswith("file: ")]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_search_and_play_at_a_tap(site, size, tmp_path):
    d, w = site
    c = d.client()
    driver = browser(*size)
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        # `/` opens Search with the cursor in the field.
        driver.find_element("css selector", "body").send_keys("/")
        drawn(driver, "/search")
        assert wait_for(lambda: driver.execute_script("return document.activeElement.id") == "search-input")
        driver.find_element("id", "search-input").send_keys("eminem\n")
        drawn(driver, "/search")
        # All kinds first: the top result and the first songs; the Songs kind lists them all.
        songs = driver.find_elements("css selector", "section[data-section='Songs'] li")
        assert [r.get_attribute("data-uri") for r in songs] == [f"deezer:track:{t['id']}" for t in EMINEM[:5]]
        tap(driver, "nav.kinds a[href$='kind=tracks']")
        drawn(driver, "/search")
        assert wait_for(lambda: text_of(driver, "#results .count") == f"{fixture('search-eminem.json')['total']} found")
        rows = driver.find_elements("css selector", "#results li")
        assert [r.get_attribute("data-uri") for r in rows] == [f"deezer:track:{t['id']}" for t in EMINEM]
        shoot(driver, tmp_path, f"web-search-{'phone' if size == PHONE else 'desktop'}")
        tap(driver, rows[1].find_element("css selector", "button.song"))
        assert wait_for(lambda: c.fields("status").get("state") == "play"
                        and c.fields("currentsong").get("file") == f"deezer:track:{EMINEM[1]['id']}"), c.fields("status")
        assert wait_for(lambda: text_of(driver, "#title") == EMINEM[1]["title"], timeout=10)
        # Another kind, from the address: albums as cards.
        driver.get(w.base + "/#/search?q=daft%20punk&kind=albums")
        drawn(driver, "/search")
        cards = driver.find_elements("css selector", "#results a.card")
        assert [a.get_attribute("data-uri") for a in cards] == [
            f"deezer:album:{a['id']}" for a in fixture("search-album-daft-punk.json")["data"]]
        assert script_errors(driver) == []
    finally:
        driver.quit()


def test_the_queue_reorders_by_drag_and_by_button(site, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    d, w = site
    c = d.client()
    assert c.cmd("add deezer:album:302127")[-1] == "OK"
    uris = [f"deezer:track:{t['id']}" for t in DISCOVERY]
    assert queue_uris(d) == uris
    driver = browser(*DESKTOP)
    try:
        driver.get(w.base + "/#/queue")
        drawn(driver, "/queue")
        rows = driver.find_elements("css selector", "#queue li")
        assert len(rows) == len(uris)
        # Drag the first song's handle to below the third song.
        handle = rows[0].find_element("css selector", ".handle")
        ActionChains(driver).click_and_hold(handle).move_to_element_with_offset(rows[2], 0, 10) \
            .pause(0.1).release().perform()
        expected = uris[1:3] + [uris[0]] + uris[3:]
        assert wait_for(lambda: queue_uris(d) == expected), queue_uris(d)
        # The page follows (pushed by idle playlist).
        assert wait_for(lambda: driver.execute_script(
            "return [...document.querySelectorAll('#queue li')].map((li) => li.dataset.uri)") == expected, timeout=10)
        # "Move down" on the first row, then remove the last one.
        tap(driver, "#queue li:first-child button.move[aria-label$=' down']")
        expected = [expected[1], expected[0]] + expected[2:]
        assert wait_for(lambda: queue_uris(d) == expected), queue_uris(d)
        wait_for(lambda: driver.execute_script(
            "return [...document.querySelectorAll('#queue li')].map((li) => li.dataset.uri)") == expected, timeout=10)
        tap(driver, "#queue li:last-child button[aria-label^='Remove ']")
        assert wait_for(lambda: queue_uris(d) == expected[:-1]), queue_uris(d)
        # Repeat and shuffle, then clear.
        tap(driver, "#queue-repeat")
        assert wait_for(lambda: c.fields("status")["repeat"] == "1")
        assert wait_for(lambda: driver.execute_script(
            "return document.getElementById('queue-repeat').getAttribute('aria-pressed')") == "true", timeout=10)
        tap(driver, "#queue-shuffle")
        assert wait_for(lambda: sorted(queue_uris(d)) == sorted(expected[:-1]) and queue_uris(d) != expected[:-1])
        shoot(driver, tmp_path, "web-queue-desktop")
        tap(driver, "#queue-clear")
        assert wait_for(lambda: queue_uris(d) == [])
        assert wait_for(lambda: text_of(driver, "#view .empty") is not None, timeout=10)
        assert script_errors(driver) == []
    finally:
        driver.quit()


def test_a_stored_playlist_from_creation_to_deletion(site, tmp_path):
    d, w = site
    c = d.client()
    track = DISCOVERY[3]
    driver = browser(*PHONE)
    try:
        driver.get(w.base + "/#/album/302127")
        drawn(driver, "/album/302127")
        # A song's menu: a new playlist, named in the menu.
        tap(driver, f"li[data-uri='deezer:track:{track['id']}'] button[aria-label^='More for']")
        assert wait_for(lambda: driver.find_elements("id", "new-playlist"))
        driver.find_element("id", "new-playlist").send_keys("Road trip \"1\"\n")
        assert wait_for(lambda: c.cmd('listplaylist "Road trip \\"1\\""') == [f"file: deezer:track:{track['id']}", "OK"])
        # The whole album added to it from the album's "+ Add".
        tap(driver, "#add-menu")
        button = wait_for(lambda: [b for b in driver.find_elements("css selector", "#menu button.playlist")
                                   if b.text == 'Road trip "1"'], timeout=10)
        assert button, driver.find_element("id", "menu").get_attribute("outerHTML")
        button[0].click()
        assert wait_for(lambda: len(c.cmd('listplaylist "Road trip \\"1\\""')) == 1 + 1 + len(DISCOVERY))
        # The Playlists screen lists it; its page removes a song and renames it.
        driver.get(w.base + "/#/playlists")
        drawn(driver, "/playlists")
        driver.find_element("css selector", "#view a[data-name='Road trip \"1\"']").click()
        drawn(driver, "/stored/" + "Road%20trip%20%221%22")
        assert len(driver.find_elements("css selector", "ol.songs li")) == 1 + len(DISCOVERY)
        tap(driver, "ol.songs li:first-child button[aria-label^='Remove ']")
        assert wait_for(lambda: c.cmd('listplaylist "Road trip \\"1\\""')[:-1] == [
            f"file: deezer:track:{t['id']}" for t in DISCOVERY])
        assert wait_for(lambda: driver.execute_script("return document.querySelectorAll('ol.songs li').length")
                        == len(DISCOVERY), timeout=10)
        tap(driver, "#playlist-rename")  # renaming is behind a button
        field = wait_for(lambda: driver.find_elements("id", "ask-name"))[0]
        assert field.get_attribute("value") == 'Road trip "1"'
        field.clear()
        field.send_keys("Sunday\n")
        assert wait_for(lambda: c.cmd("listplaylists")[0] == "playlist: Sunday"), c.cmd("listplaylists")
        drawn(driver, "/stored/Sunday")
        shoot(driver, tmp_path, "web-playlist-phone")
        # Play loads it.
        tap(driver, ".actions button.primary")
        assert wait_for(lambda: queue_uris(d) == [f"deezer:track:{t['id']}" for t in DISCOVERY]
                        and c.fields("status")["state"] == "play")
        # Delete asks first.
        tap(driver, "#playlist-delete")
        wait_for(lambda: driver.find_elements("id", "ask-yes"))
        driver.find_element("id", "ask-yes").click()
        drawn(driver, "/playlists")
        assert c.cmd("listplaylists") == ["OK"]
        assert script_errors(driver) == []
    finally:
        driver.quit()


def test_a_change_made_with_mpc_shows_on_every_open_page(site, http):
    d, w = site
    c = d.client()
    assert c.cmd("add deezer:album:302127")[-1] == "OK"
    pages = [browser(*PHONE), browser(*DESKTOP)]
    try:
        for driver, route in zip(pages, ("/queue", "/")):
            driver.get(w.base + "/#" + route)
            drawn(driver, route)
            assert wait_for(lambda: driver.execute_script("return document.body.dataset.live") == "true", timeout=10)
        assert run_mpc(d, "play", "3").returncode == 0
        for driver in pages:
            assert wait_for(lambda: text_of(driver, "#title") == DISCOVERY[2]["title"], timeout=10)
            assert driver.find_element("id", "toggle").get_attribute("aria-label") == "Pause"
        assert run_mpc(d, "volume", "35").returncode == 0
        for driver in pages:
            assert wait_for(lambda: driver.execute_script("return document.getElementById('volume').value") == "35", timeout=10)
        # The open queue page follows a deletion made elsewhere.
        assert run_mpc(d, "del", "1").returncode == 0
        assert wait_for(lambda: pages[0].execute_script("return document.querySelectorAll('#queue li').length")
                        == len(DISCOVERY) - 1, timeout=10)
        # Nothing was polled: the page asked for status only after events.
        for driver in pages:
            assert script_errors(driver) == []
    finally:
        for driver in pages:
            driver.quit()


def test_hostile_catalog_text_is_shown_as_text_on_every_screen(site, tmp_path, http):
    d, w = site
    c = d.client()
    # A plain URL's song has no title of its own: a client may give it one.
    song = c.fields(f'addid "{url(http, 1)}"')["Id"]
    assert c.cmd(f'addtagid {song} Title "{HOSTILE}"') == ["OK"]
    assert c.cmd(f'playlistadd "{HOSTILE}" deezer:track:3135556') == ["OK"]
    assert c.cmd("play 0") == ["OK"]
    driver = browser(*DESKTOP)
    try:
        for route in ("/queue", "/playlists"):
            driver.get(w.base + "/#" + route)
            drawn(driver, route)
            assert HOSTILE in driver.find_element("id", "view").text
        assert wait_for(lambda: text_of(driver, "#title") == HOSTILE, timeout=10)
        assert driver.execute_script("return window.pwned") is None
        # Every image on the page is one the script made, from this origin.
        sources = driver.execute_script("return [...document.images].map((i) => i.getAttribute('src'))")
        assert all(s is None or s.startswith("/cover?uri=deezer%3A") for s in sources), sources
        assert driver.execute_script("return document.title") == HOSTILE + " \u2014 Playlists \u2014 previewd"
    finally:
        driver.quit()


def test_keys_media_session_and_installable(site):
    d, w = site
    c = d.client()
    assert c.cmd("add deezer:album:302127")[-1] == "OK"
    driver = browser(*DESKTOP)
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        body = driver.find_element("css selector", "body")
        body.send_keys(" ")
        assert wait_for(lambda: c.fields("status").get("state") == "play")
        body.send_keys("\ue014")  # ArrowRight: the next song
        assert wait_for(lambda: c.fields("status").get("song") == "1")
        # ↓ scrolls and leaves the volume alone; `-` turns it down.
        volume = int(c.fields("status")["volume"])
        body.send_keys("\ue015")
        body.send_keys("-")
        assert wait_for(lambda: int(c.fields("status")["volume"]) == volume - 5), c.fields("status")
        body.send_keys(" ")
        assert wait_for(lambda: c.fields("status").get("state") == "pause")
        session = ("const m = navigator.mediaSession.metadata; return m && [m.title, m.artist, m.album,"
                   " m.artwork[0].src, navigator.mediaSession.playbackState]")
        expected = [DISCOVERY[1]["title"], "Daft Punk", "Discovery",
                    f"{w.base}/cover?uri=deezer%3Atrack%3A{DISCOVERY[1]['id']}", "paused"]
        assert wait_for(lambda: driver.execute_script(session) == expected, timeout=10), driver.execute_script(session)
        # Light and dark follow the system.
        background = "return getComputedStyle(document.body).backgroundColor"
        for scheme, colour in (("dark", "rgb(0, 0, 0)"), ("light", "rgb(255, 255, 255)")):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            assert driver.execute_script(background) == colour
        # A card is a link: the keyboard opens it.
        driver.execute_script("document.querySelector('#view a.card').focus()")
        uri = driver.execute_script("return document.activeElement.dataset.uri")
        driver.switch_to.active_element.send_keys("\ue007")  # Enter
        drawn(driver, "/album/" + uri.rsplit(":", 1)[1])
        # Installable as a PWA: Chromium finds nothing missing.
        assert driver.execute_cdp_cmd("Page.getInstallabilityErrors", {}) == {"installabilityErrors": []}
        manifest = json.loads(w.request("GET", "/manifest.webmanifest")[2])
        assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
        # Every button has a name for a screen reader.
        unnamed = driver.execute_script(
            "return [...document.querySelectorAll('button')].filter((b) => !(b.getAttribute('aria-label') ||"
            " b.textContent.trim())).map((b) => b.outerHTML)")
        assert unnamed == []
    finally:
        driver.quit()


class EventReader:
    """/api/events through a raw socket, to see each event as it comes:
    (event, data) pairs, the chunked framing's size lines left out; sent
    from the loopback address `source`."""

    def __init__(self, w, source="127.0.0.1"):
        self.socket = socket.create_connection(("127.0.0.1", w.port), timeout=10, source_address=(source, 0))
        self.socket.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{w.port}\r\n\r\n".encode())
        self.buffer = b""

    def next(self):
        while True:
            text = self.buffer.replace(b"\r\n", b"\n")
            if b"\n\n" in text:
                block, _, self.buffer = text.partition(b"\n\n")
                fields = dict(line.split(": ", 1) for line in block.decode().split("\n") if ": " in line)
                if "event" in fields:
                    return fields["event"], fields.get("data")
                continue
            chunk = self.socket.recv(4096)
            assert chunk, self.buffer
            self.buffer += chunk


def test_the_event_stream_pushes_idle_changes(site):
    d, w = site
    stream = EventReader(w)
    try:
        assert stream.next() == ("ready", "")
        assert d.client().cmd("setvol 40") == ["OK"]
        assert stream.next() == ("idle", "mixer")
        assert d.client().cmd("add deezer:track:3135556") == ["OK"]
        assert stream.next() == ("idle", "playlist")
    finally:
        stream.socket.close()
    # A rebinding Host gets no stream.
    status, _, body = w.request("GET", "/api/events", {"Host": "attacker.example"})
    assert status == 421


def test_covers_come_from_this_origin_through_a_bounded_cache(site, http):
    d, w = site
    status, headers, image = w.request("GET", "/cover?uri=deezer:album:302127")
    assert (status, headers["Content-Type"], image[:8]) == (200, "image/png", b"\x89PNG\r\n\x1a\n")
    assert headers["Cache-Control"] == "private, max-age=86400"
    assert os.path.exists(os.path.join(w.cache, "album-302127"))
    fetched = [p for p in control(http, "log") if p.startswith("/cover/")]
    # Again: from the cache, nothing asked of the daemon's image host.
    assert w.request("GET", "/cover?uri=deezer:album:302127")[2] == image
    assert [p for p in control(http, "log") if p.startswith("/cover/")] == fetched
    # An artist's picture too; a URI with no cover, and a bad one.
    assert w.request("GET", "/cover?uri=deezer:artist:27")[0] == 200
    assert w.request("GET", "/cover?uri=deezer:album:-1")[:3:2] == (400, "uri must be deezer:album:ID (track, artist, playlist, radio)\n")
    assert w.request("GET", "/cover?uri=deezer:album:999")[0] == 404
    assert w.request("GET", "/cover?uri=../../etc/passwd")[0] == 400


def test_the_relay_refuses_what_it_does_not_carry(site):
    d, w = site
    token = {"X-Previewweb-Token": w.token()}
    cases = [
        ("GET", "/api/mpd", 400, "no command (c=LINE)"),
        ("GET", "/api/mpd?c=kill", 400, "kill is not relayed by previewweb"),
        ("POST", "/api/mpd?c=kill", 400, "kill is not relayed by previewweb"),
        ("GET", "/api/mpd?c=status%0Akill", 400, "a command holds a control character"),
        ("GET", "/api/mpd?c=clear", 405, "clear changes state: send it with POST"),
        ("GET", "/api/mpd?" + "&".join(["c=status"] * 129), 400, "at most 128 commands at once"),
        ("GET", '/api/mpd?c=lsinfo%20%22open', 400, None),
    ]
    for method, path, status, reason in cases:
        got, _, body = w.request(method, path, token if method == "POST" else None)
        assert got == status, (path, body)
        if reason:
            assert json.loads(body) == {"error": reason}, path
    # A command list runs in order; its replies come one array each.
    got, _, body = w.request("POST", "/api/mpd?c=add%20deezer:track:3135556&c=status", token)
    assert got == 200
    replies = json.loads(body)
    assert replies[0] == [] and ["playlistlength", "1"] in replies[1]
    # Arguments are quoted anew: a quote inside one stays inside it.
    got, _, body = w.request("POST", "/api/mpd?c=" + "save%20%22a%5C%22%20b%22", token)
    assert got == 200 and d.client().cmd("listplaylists")[0] == 'playlist: a" b'


def test_the_tabs_of_one_browser_share_one_event_stream(site):
    """30 of the 32 event stream places taken elsewhere: four tabs of one
    browser still all follow a change, as one tab holds the stream for all
    (Web Locks, BroadcastChannel). The 30 come from two other addresses
    (one address gets at most 16 connections)."""
    d, w = site
    taken = [EventReader(w, f"127.0.0.{n % 2 + 2}") for n in range(30)]
    try:
        for stream in taken:
            assert stream.next() == ("ready", "")
        driver = browser(*DESKTOP)
        try:
            for n in range(4):
                if n:
                    driver.switch_to.new_window("tab")
                driver.get(w.base + "/")
                drawn(driver, "/")
            assert d.client().cmd("setvol 23") == ["OK"]
            for handle in driver.window_handles:
                driver.switch_to.window(handle)
                assert wait_for(lambda: driver.execute_script("return document.getElementById('volume').value") == "23",
                                timeout=10), handle
                assert driver.execute_script("return document.body.dataset.live") == "true"
        finally:
            driver.quit()
    finally:
        for stream in taken:
            stream.socket.close()
