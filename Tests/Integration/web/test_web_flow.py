"""Issue 34's user flow, step by step, in a real headless Chromium at a
phone's size and a desktop's: Listen Now's More like carousel, an album's
page, "+ Add" to Want to Listen, the Want to Listen carousel and its See
All list, the checkmark, and "Remove from Want to Listen" back to Listen
Now. After each step the daemon's state is read through the protocol and
previewctl: one state, many views.

The stand-in runs in its web mode (/_control/web): the albums of the
recorded charts have no recorded /album/ID body, so it builds one from the
listing's own fields (catalog.synthetic_album, five tracks of corpus
previews), and covers are small PNGs a browser can draw."""
import pytest

import catalog
from helpers import control, fixture, wait_for, without_locale
from webui import DESKTOP, PHONE, browser, click_text, drawn, script_errors, shoot, tap, text_of

CHART = fixture("chart-0-albums.json")["data"]
# Where More like starts: a saved album (Discovery), or for a new user with
# nothing saved or played, the chart's top album (`ListenNow.seed`; the
# stand-in's web mode gives it a page with no genre, so its More like is
# the chart of all genres without it).
STARTS = {"saved": ("Discovery", [a for a in CHART if a["id"] != 302127]),
          "fresh": (CHART[0]["title"], CHART[1:])}


@pytest.fixture
def saved(site):
    """`site` with an album in the Library, so that Listen Now has a More like carousel."""
    assert site[0].client().cmd("libraryadd deezer:album:302127")[-1] == "OK"
    return site


def wanted(d):
    """The want list as the protocol shows it: its URIs."""
    return [line.split(": ", 1)[1] for line in d.client().cmd("wantlist") if line.startswith(("album: ", "file: "))]


def sections(driver):
    return [s.get_attribute("data-section") for s in driver.find_elements("css selector", "#view section.shelf")]


@pytest.mark.parametrize("start", ["saved", "fresh"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_want_to_listen_flow(site, start, size, tmp_path):
    d, w = site
    if start == "saved":
        assert d.client().cmd("libraryadd deezer:album:302127")[-1] == "OK"
    seed, more_like = STARTS[start]
    name = "phone" if size == PHONE else "desktop"
    first = more_like[0]
    uri = f"deezer:album:{first['id']}"
    driver = browser(*size)
    try:
        # 1. Listen Now, scrolled to the More like carousel.
        driver.get(w.base + "/")
        drawn(driver, "/")
        assert sections(driver) == ["Top Picks", f'More like "{seed}"', "New Releases"]
        more = driver.find_element("css selector", "section[data-section^='More like']")
        driver.execute_script("arguments[0].scrollIntoView()", more)
        cards = more.find_elements("css selector", "a.card")
        assert [c.get_attribute("data-uri") for c in cards] == [f"deezer:album:{a['id']}" for a in more_like[:5]]
        assert cards[0].find_element("css selector", ".name").text == first["title"]
        shoot(driver, tmp_path, f"web-listen-now-{name}" + ("-fresh" if start == "fresh" else ""))
        assert wanted(d) == []

        # 2. Its first album: cover, title, artist, tracks, Play, Shuffle, "+ Add".
        cards[0].click()
        drawn(driver, f"/album/{first['id']}")
        page = driver.find_element("css selector", "article.detail")
        assert page.find_element("css selector", "h1").text == first["title"]
        assert page.find_element("css selector", ".hero .sub a").text == first["artist"]["name"]
        songs = page.find_elements("css selector", "ol.songs li")
        assert [s.find_element("css selector", ".name").text for s in songs] == [
            f"{first['title']} (preview {n})" for n in range(1, 6)]
        assert [b.text for b in page.find_elements("css selector", ".actions button")] == [
            "\u25B6 Play", "\u21C4 Shuffle", "Add to queue"]
        assert page.find_element("id", "add-menu").text == "+ Add"  # at the top right, as the seed has it
        # The cover came through previewweb's cache and was drawn.
        assert wait_for(lambda: driver.execute_script(
            "return document.querySelector('.hero img').naturalWidth"), timeout=10) == 160
        shoot(driver, tmp_path, f"web-album-{name}")

        # 3. "+ Add", then "Add to Want to Listen".
        tap(driver, "#add-menu")
        assert wait_for(lambda: driver.find_element("id", "menu").is_displayed(), timeout=10)
        click_text(driver, "#menu button", "Add to Want to Listen")
        assert wait_for(lambda: wanted(d) == [uri]), wanted(d)
        assert wait_for(lambda: text_of(driver, "#message") == "Added to Want to Listen", timeout=10)
        assert wait_for(lambda: text_of(driver, "#add-menu") == "\u2713", timeout=10)
        assert d.ctl("want").stdout.splitlines()[0].endswith(uri)

        # 4. Back to Listen Now: Want to Listen stands below Top Picks.
        driver.back()
        drawn(driver, "/")
        assert sections(driver)[:2] == ["Top Picks", "Want to Listen"], sections(driver)
        want = driver.find_element("css selector", "section[data-section='Want to Listen']")
        assert [c.get_attribute("data-uri") for c in want.find_elements("css selector", "a.card")] == [uri]

        # 5. "See All": a list view.
        want.find_element("css selector", "a.more").click()
        drawn(driver, "/want")
        rows = driver.find_elements("css selector", "#view ul.rows a")
        assert [r.get_attribute("data-uri") for r in rows] == [uri]
        assert rows[0].find_element("css selector", ".name").text == first["title"]
        shoot(driver, tmp_path, f"web-want-to-listen-{name}")

        # 6. The album again: "+ Add" is now a checkmark.
        rows[0].click()
        drawn(driver, f"/album/{first['id']}")
        mark = driver.find_element("id", "add-menu")
        assert (mark.text, mark.get_attribute("aria-label")) == ("\u2713", "In Want to Listen: change")

        # 7. The checkmark, "Remove from Want to Listen": back on Listen Now,
        # without the Want to Listen carousel (the list is empty).
        mark.click()
        click_text(driver, "#menu button", "Remove from Want to Listen")
        drawn(driver, "/")
        assert wait_for(lambda: wanted(d) == [])
        assert "Want to Listen" not in sections(driver), sections(driver)
        assert d.ctl("want").stdout == "the want list is empty\n"
        assert script_errors(driver) == []
    finally:
        driver.quit()


def test_every_album_of_listen_now_has_a_page_that_plays(saved, tmp_path):
    """Each album card of Listen Now opens a page whose Play queues the
    album and plays its first track."""
    d, w = saved
    c = d.client()
    driver = browser(*DESKTOP)
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        uris = [a.get_attribute("data-uri") for a in driver.find_elements("css selector", "#view a.card")]
        assert len(uris) == 15, uris
        for uri in uris:
            album_id = uri.rsplit(":", 1)[1]
            driver.get(w.base + f"/#/album/{album_id}")
            drawn(driver, f"/album/{album_id}")
            titles = [e.text for e in driver.find_elements("css selector", "ol.songs .name")]
            assert titles, uri
            click_text(driver, ".actions button", "\u25B6 Play")
            assert wait_for(lambda: c.fields("currentsong").get("Album") is not None and
                            c.fields("status").get("state") == "play" and
                            c.fields("currentsong").get("Title") == titles[0]), (uri, c.fields("currentsong"))
            assert int(c.fields("status")["playlistlength"]) == len(titles)
        assert script_errors(driver) == []
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_listen_now_opens_with_the_top_songs_of_your_country(daemon_factory, http, size, tmp_path):
    """LANG=de_DE.UTF-8: Listen Now's first shelf is Germany's chart (the
    stand-in's "Top Germany" playlist, not a recording:
    catalog.country_chart_tracks); a tap plays that song with the rest of
    the five queued around it; See All opens the whole chart."""
    from webui import Web
    control(http, "web?on=1")
    d = daemon_factory(output="null", pace="realtime", env=dict(without_locale(), LANG="de_DE.UTF-8"))
    w = Web(d)
    # The country page shows a chart's default page (20 songs, ChartFilter.defaultLimit).
    body = catalog.country_chart_tracks(catalog.COUNTRY_CHARTS["DE"], {"limit": ["20"], "index": ["0"]})
    germany = [f"deezer:track:{t['id']}" for t in body["data"]]
    driver = browser(*size)
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        assert sections(driver)[:2] == ["Top songs in Germany", "Top Picks"]
        shelf = driver.find_element("css selector", "section[data-section='Top songs in Germany']")
        rows = shelf.find_elements("css selector", "ol.songs li")
        assert [r.get_attribute("data-uri") for r in rows] == germany[:5]
        assert rows[1].find_element("css selector", ".name").text == body["data"][1]["title"]
        shoot(driver, tmp_path, f"web-top-songs-{'phone' if size == PHONE else 'desktop'}")
        tap(driver, rows[1].find_element("css selector", "button.song"))
        c = d.client()
        assert wait_for(lambda: c.fields("currentsong").get("file") == germany[1]), c.fields("currentsong")
        assert c.fields("status")["playlistlength"] == "5"
        # The fifth cannot be played here (its recorded track object says so): dimmed, and a tap says why.
        assert body["data"][4]["readable"] is False
        # The song playing is marked, in place.
        assert wait_for(lambda: [r.get_attribute("class") or "" for r in rows] == ["", "playing", "", "", "unplayable"]), \
            [r.get_attribute("class") for r in rows]
        tap(driver, rows[4].find_element("css selector", "button.song"))
        assert wait_for(lambda: (text_of(driver, "#message") or "").startswith(f"{body['data'][4]['title']} is not playable: "))
        assert c.fields("status")["playlistlength"] == "5" and c.fields("currentsong")["file"] == germany[1]
        tap(driver, shelf.find_element("css selector", "a.more"))
        drawn(driver, "/country/Germany")
        assert text_of(driver, "#view h1") == "Top tracks: Germany"
        listed = [r.get_attribute("data-uri") for r in driver.find_elements("css selector", "ol.songs li")]
        assert listed == germany
        assert script_errors(driver) == []
    finally:
        driver.quit()
        w.close()
        control(http, "web?on=0")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_one_failed_chart_leaves_the_rest_of_explore(site, http, size, tmp_path):
    """Deezer answers the album chart with HTTP 500 once: Explore shows that
    shelf's reason in its place and every other shelf as usual."""
    d, w = site
    control(http, "fault?path=/chart/0/albums&kind=500")
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/explore")
        drawn(driver, "/explore")
        assert sections(driver) == ["Top Tracks", "Top Albums", "Top Artists", "Top Playlists", "Genres",
                                    "Editorial Picks", "Radios"]
        failed = driver.find_elements("css selector", "#view section.shelf.failed")
        assert [f.get_attribute("data-section") for f in failed] == ["Top Albums"]
        assert failed[0].find_element("css selector", "p").text == (
            "Could not load Top Albums: /chart/0/albums: cannot reach the Deezer API: HTTP status 500")
        artists = catalog.discovery_body("/chart/0/artists", {"limit": ["20"], "index": ["0"]})["data"]
        cards = driver.find_elements("css selector", "section[data-section='Top Artists'] a.card")
        assert [c.get_attribute("data-uri") for c in cards] == [f"deezer:artist:{a['id']}" for a in artists]
        assert len(driver.find_elements("css selector", "section[data-section='Top Tracks'] ol.songs li")) == 10
        shoot(driver, tmp_path, f"web-explore-one-failed-{'phone' if size == PHONE else 'desktop'}")
        # The console notes the refused request (HTTP 409), and nothing else.
        assert all("409" in e for e in script_errors(driver)), script_errors(driver)
    finally:
        driver.quit()
