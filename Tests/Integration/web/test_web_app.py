"""The web front end as an app people keep open (issue 44), in headless
Chromium at a phone's and a desktop's size: each test here failed on the
page before that issue."""
import os
import signal

import pytest

from helpers import Daemon, wait_for
from webui import DESKTOP, PHONE, browser, click_text, drawn, script_errors, shoot, tap, text_of


def stop(d):
    """Stops previewd `d` (SIGTERM) as a crash or a restart would leave the page."""
    d.proc.send_signal(signal.SIGTERM)
    assert d.proc.wait(10) == 0
    d.log_file.close()
    os.rename(d.log_path, d.log_path + ".1")


def banner(driver):
    """The offline banner's text, or None while it is hidden."""
    return driver.execute_script("const b = document.getElementById('offline'); return b.hidden ? null : b.textContent;")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_previewd_away_is_said_the_clock_stops_and_the_page_comes_back_by_itself(site, http, size, tmp_path):
    d, w = site
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"] and c.cmd("play") == ["OK"]
    driver = browser(*size)
    late = None
    again = None
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        assert wait_for(lambda: driver.execute_script("return document.body.dataset.live") == "true")
        driver.execute_script("window.sameDocument = 1")
        assert banner(driver) is None
        stop(d)
        assert wait_for(lambda: banner(driver), timeout=10)
        assert banner(driver).startswith("previewd is not reachable. Trying again"), banner(driver)
        shoot(driver, tmp_path, f"web-offline-{size[0]}")
        # The clock in the bar stops with previewd.
        first = text_of(driver, "#elapsed")
        assert wait_for(lambda: text_of(driver, "#elapsed") != first, timeout=1.5) == False  # noqa: E712
        # A page opened now says previewd is away, in words, with a Retry.
        late = browser(*size)
        late.get(w.base + "/")
        assert wait_for(lambda: text_of(late, "#view h1") == "previewd is away", timeout=10), text_of(late, "#view")
        assert text_of(late, "#view p.error") == "previewd is not running, or not reachable."
        assert banner(late)
        again = Daemon(d.tmp, http, output="null", pace="realtime")
        # Both pages come back without a reload: the banner goes, the
        # screen is drawn, the bar shows what plays.
        for page in (driver, late):
            assert wait_for(lambda: banner(page) is None and text_of(page, "#view h1") == "Listen Now", timeout=30), \
                (banner(page), text_of(page, "#view h1"))
        assert driver.execute_script("return window.sameDocument") == 1
        # The browser logs each refused request of the outage; nothing else went wrong.
        for page in (driver, late):
            assert [e for e in script_errors(page) if "status of 502" not in e] == []
    finally:
        driver.quit()
        if late:
            late.quit()
        if again:
            again.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_screen_is_named_in_the_title_focus_goes_to_its_heading_and_a_skip_link_leads_there(site, size):
    from selenium.webdriver.common.keys import Keys
    d, w = site
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/explore")
        drawn(driver, "/explore")
        # The first Tab from the top reaches the skip link; Enter takes the keyboard to the screen.
        focused = "const e = document.activeElement; return [e.tagName, e.textContent];"
        driver.find_element("css selector", "body").send_keys(Keys.TAB)
        assert driver.execute_script(focused) == ["A", "Skip to content"]
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        assert driver.execute_script(focused) == ["H1", "Explore"]
        assert driver.current_url.endswith("#/explore")
        tap(driver, "#nav a[data-nav='now']")
        drawn(driver, "/")
        assert driver.title == "Listen Now \u2014 previewd"
        tap(driver, "#nav a[data-nav='explore']")
        drawn(driver, "/explore")
        assert driver.title == "Explore \u2014 previewd"
        assert driver.execute_script(focused) == ["H1", "Explore"]
        # While a song plays, the title names it first.
        c = d.client()
        assert c.cmd("add deezer:track:3135556") == ["OK"] and c.cmd("play") == ["OK"]
        title = c.fields("playlistid 1")["Title"]
        assert wait_for(lambda: driver.title == f"{title} \u2014 Explore \u2014 previewd"), driver.title
    finally:
        driver.quit()


def test_a_slow_screen_shows_that_it_loads(site, http):
    """With Deezer slow, a tap on an album takes the old screen away at once
    and shows a loading one until the album is drawn."""
    from helpers import control
    d, w = site
    driver = browser(*PHONE)
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        album = driver.execute_script(
            "return [...document.querySelectorAll('#view a.card')].map((a) => a.getAttribute('href')).find((h) => h.startsWith('#/album/'))")
        control(http, "delay?ms=2000")
        tap(driver, f"#view a.card[href='{album}']")
        assert wait_for(lambda: driver.execute_script(
            "const s = document.querySelector('#view .loading-screen');"
            "return s !== null && document.getElementById('view').getAttribute('aria-busy') === 'true'"
            " && s.getAttribute('role') === 'status' && s.textContent === 'Loading\u2026'"), timeout=1.9)
        assert not driver.execute_script("return document.querySelector('#view section.shelf')")
        control(http, "delay?ms=0")
        drawn(driver, album[1:])
        assert not driver.execute_script("return document.querySelector('#view .loading-screen')")
    finally:
        control(http, "delay?ms=0")
        driver.quit()


def scroll_y(driver):
    return driver.execute_script("return Math.round(window.scrollY)")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_back_returns_to_the_place_left_and_never_leaves_the_app(site, size):
    d, w = site
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/explore")
        drawn(driver, "/explore")
        assert not driver.find_elements("id", "back"), "a section's own screen has no Back"
        tap(driver, "#nav a[data-nav='now']")
        drawn(driver, "/")
        tap(driver, "section[data-section='New Releases'] a.more")
        drawn(driver, "/releases")
        # Far down the list, an album; its page has a Back control.
        card = driver.execute_script(
            "const rows = [...document.querySelectorAll('#view a.card[href^=\"#/album/\"]')];"
            "const r = rows[rows.length - 1]; r.scrollIntoView({ block: 'center' }); return r.getAttribute('href');")
        y = scroll_y(driver)
        assert y > 200, y
        driver.execute_script("document.querySelector(arguments[0]).click()", f"#view a.card[href='{card}']")
        drawn(driver, card[1:])
        assert scroll_y(driver) == 0
        back = driver.find_element("id", "back")
        assert back.get_attribute("aria-label") == "Back"
        tap(driver, "#back")
        drawn(driver, "/releases")
        assert abs(scroll_y(driver) - y) <= 2, (scroll_y(driver), y)
        # The browser's Forward and Back keep the places too.
        driver.forward()
        drawn(driver, card[1:])
        driver.back()
        drawn(driver, "/releases")
        assert abs(scroll_y(driver) - y) <= 2, (scroll_y(driver), y)
        # An album opened from a link (no screen of the app before it): Back goes up to Listen Now, not out of the app.
        driver.get("about:blank")
        driver.get(w.base + "/#" + card[1:])
        drawn(driver, card[1:])
        tap(driver, "#back")
        drawn(driver, "/")
        assert driver.current_url == w.base + "/#/"
    finally:
        driver.quit()


def test_after_removing_from_want_to_listen_back_skips_the_album(site):
    """The seed's flow ends on Listen Now after "Remove from Want to Listen";
    Back from there goes to the screen before the album, not to the album."""
    d, w = site
    c = d.client()
    driver = browser(*PHONE)
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        album = driver.execute_script(
            "return [...document.querySelectorAll('#view a.card')].map((a) => a.getAttribute('href')).find((h) => h.startsWith('#/album/'))")
        assert c.cmd(f"wantadd deezer:album:{album.rsplit('/', 1)[1]}") == ["OK"]
        tap(driver, "#nav a[data-nav='explore']")
        drawn(driver, "/explore")
        driver.get(w.base + "/#" + album[1:])
        drawn(driver, album[1:])
        tap(driver, "#add-menu")
        click_text(driver, "#menu button", "Remove from Want to Listen")
        drawn(driver, "/")
        assert c.cmd("wantlist") == ["OK"]
        driver.back()
        drawn(driver, "/explore")
    finally:
        driver.quit()


def queue_files(c):
    return [l.split(": ", 1)[1] for l in c.cmd("playlistinfo") if l.startswith("file: ")]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_song_leads_to_its_page_album_and_artist_and_a_tap_plays_its_list(site, size, tmp_path):
    from helpers import fixture
    d, w = site
    c = d.client()
    eminem = [f"deezer:track:{t['id']}" for t in fixture("search-eminem.json")["data"]]
    driver = browser(*size)
    try:
        # One rule for a tap on a song: it plays with its list queued around it.
        driver.get(w.base + "/#/search?q=eminem&kind=tracks")
        drawn(driver, "/search")
        tap(driver, f"#results li[data-uri='{eminem[2]}'] button.song")
        assert wait_for(lambda: queue_files(c) == eminem and c.fields("currentsong").get("file") == eminem[2]), queue_files(c)
        # Each song row shows its cover, and the playing one is marked in place.
        row = driver.find_element("css selector", f"#results li[data-uri='{eminem[2]}']")
        assert wait_for(lambda: "playing" in row.get_attribute("class").split())
        assert len(driver.find_elements("css selector", "#results li .art img")) == len(eminem)
        assert driver.execute_script("return document.querySelectorAll('#results li.playing').length") == 1
        # The ⋯ menu of a song on the album's page: its page, its album, its artist.
        driver.get(w.base + "/#/album/302127")
        drawn(driver, "/album/302127")
        assert driver.find_elements("css selector", "ol.songs.numbered .pos"), "an album's list keeps its numbers"
        tap(driver, "li[data-uri='deezer:track:3135556'] button[aria-label^='More for']")
        links = lambda: driver.execute_script(
            "return [...document.querySelectorAll('#menu nav.go-to a')].map((a) => [a.textContent, a.getAttribute('href')])")
        assert wait_for(lambda: len(links()) == 3), links()
        assert links() == [["Song details", "#/track/3135556"], ["Go to album: Discovery", "#/album/302127"],
                           ["Go to artist: Daft Punk", "#/artist/27"]]
        shoot(driver, tmp_path, f"web-song-menu-{size[0]}")
        tap(driver, "#menu nav.go-to a[href='#/artist/27']")
        drawn(driver, "/artist/27")
        assert not driver.execute_script("return document.getElementById('menu').open")
        assert text_of(driver, "#view h1") == "Daft Punk"
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_add_sits_top_right_its_menu_is_a_sheet_on_a_phone_and_a_tap_outside_closes_it(site, size):
    d, w = site
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/album/302127")
        drawn(driver, "/album/302127")
        box = driver.execute_script(
            "const a = document.getElementById('add-menu').getBoundingClientRect();"
            "const v = document.getElementById('view').getBoundingClientRect();"
            "const t = document.querySelector('#view .hero h1').getBoundingClientRect();"
            "return [a.top, a.right, v.right, t.top, a.height, a.width]")
        top, right, view_right, title_top, height, width = box
        assert right >= view_right - 20 and top < title_top and top < 120, box
        assert height >= 44 and width >= 44, box
        assert driver.find_element("id", "add-menu").text == "+ Add"
        tap(driver, "#add-menu")
        assert wait_for(lambda: driver.execute_script("return document.getElementById('menu').open"))
        sheet = driver.execute_script(
            "const r = document.getElementById('menu').getBoundingClientRect(); return [r.left, r.right, r.bottom, innerWidth, innerHeight]")
        if size == PHONE:
            assert (round(sheet[0]), round(sheet[1]), round(sheet[2])) == (0, sheet[3], sheet[4]), sheet
        else:
            assert sheet[0] > 100 and sheet[2] < sheet[4] - 50, sheet
        # A tap on the backdrop, outside the menu, closes it.
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(driver).move_by_offset(5, 5).click().perform()
        assert wait_for(lambda: not driver.execute_script("return document.getElementById('menu').open"))
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_song_already_in_a_playlist_is_added_again_only_when_asked(site, size):
    d, w = site
    c = d.client()
    assert c.cmd('playlistadd Mix "deezer:track:3135556"') == ["OK"]
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/album/302127")
        drawn(driver, "/album/302127")
        for answer, count in (("Cancel", 1), ("Add again", 2)):
            tap(driver, "li[data-uri='deezer:track:3135556'] button[aria-label^='More for']")
            click_text(driver, "#menu button.playlist", "Mix")
            assert wait_for(lambda: text_of(driver, "#menu h2") ==
                            "\u201CHarder, Better, Faster, Stronger\u201D is already in Mix. Add it again?"), text_of(driver, "#menu")
            click_text(driver, "#menu button", answer)
            assert wait_for(lambda: c.cmd("listplaylist Mix") == ["file: deezer:track:3135556"] * count + ["OK"]), \
                c.cmd("listplaylist Mix")
    finally:
        driver.quit()


def queue_state(c):
    st = c.fields("status")
    return queue_files(c), st.get("song"), st.get("state")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_clear_and_remove_are_undone_by_undo(site, size):
    d, w = site
    c = d.client()
    assert c.cmd("add deezer:album:302127")[-1] == "OK" and c.cmd("play 2") == ["OK"]
    before = queue_files(c)
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/queue")
        drawn(driver, "/queue")
        # ✕ on the fourth song, then Undo: the same song back at the same place.
        tap(driver, "#queue li:nth-child(4) button[aria-label^='Remove ']")
        assert wait_for(lambda: len(queue_files(c)) == len(before) - 1)
        assert wait_for(lambda: (text_of(driver, "#toast span") or "").startswith("Removed \u201C"))
        tap(driver, "#toast button")
        assert wait_for(lambda: queue_files(c) == before), queue_files(c)
        # Clear, then Undo: the queue back, playing the same song.
        drawn(driver, "/queue")
        tap(driver, "#queue-clear")
        assert wait_for(lambda: queue_files(c) == [])
        assert wait_for(lambda: text_of(driver, "#toast span") == "Queue cleared"), text_of(driver, "#toast")
        tap(driver, "#toast button")
        assert wait_for(lambda: queue_state(c) == (before, "2", "play")), queue_state(c)
        assert driver.execute_script("return document.getElementById('toast').hidden")
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_playlists_has_new_and_rename_is_behind_a_button(site, size):
    d, w = site
    c = d.client()
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/playlists")
        drawn(driver, "/playlists")
        tap(driver, "#playlist-new")
        field = wait_for(lambda: driver.find_elements("id", "ask-name"))[0]
        assert text_of(driver, "#menu .fine") == "It starts empty: add songs from their \u22EF menu."
        field.send_keys("Evening\n")
        drawn(driver, "/stored/Evening")
        assert c.cmd("listplaylists")[0] == "playlist: Evening" and c.cmd("listplaylist Evening") == ["OK"]
        assert text_of(driver, "#view p.empty") == "No songs yet: add songs from their \u22EF menu."
        # Renaming shows no field until asked.
        assert not driver.find_elements("css selector", "#view input")
        tap(driver, "#playlist-rename")
        field = wait_for(lambda: driver.find_elements("id", "ask-name"))[0]
        field.clear()
        field.send_keys("Night\n")
        drawn(driver, "/stored/Night")
        assert [l for l in c.cmd("listplaylists") if l.startswith("playlist: ")] == ["playlist: Night"]
    finally:
        driver.quit()


def boxes(driver, *selectors):
    """Each selector's first element's [left, top, right, bottom, width, height] in CSS pixels, or None."""
    return driver.execute_script(
        "return arguments[0].map((s) => { const e = document.querySelector(s); if (!e) return null;"
        " const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, r.width, r.height]; })", list(selectors))


def test_a_phone_s_bars_are_compact_with_icons_and_the_player_opens_whole(site, tmp_path):
    d, w = site
    c = d.client()
    assert c.cmd("add deezer:track:3135556") == ["OK"] and c.cmd("play") == ["OK"]
    driver = browser(*PHONE)
    try:
        driver.get(w.base + "/")
        drawn(driver, "/")
        assert wait_for(lambda: text_of(driver, "#title") == "Harder, Better, Faster, Stronger")
        nav, bar, title = boxes(driver, "#nav", "#now-playing", "#title")
        assert nav[5] + bar[5] <= 122, (nav, bar)  # 176 px before: 21.7 % of the screen, now under 15 %
        assert len(driver.find_elements("css selector", "#nav a svg")) == 6
        # The title has room for about 18 characters beside the speaker, play and next (135 px before: 12).
        assert title[4] >= 150, title
        shoot(driver, tmp_path, "web-bars-phone")
        # Play and Next stay on the screen at 200 % text.
        driver.execute_script("document.documentElement.style.fontSize = '200%'")
        for box in boxes(driver, "#toggle", "#next"):
            assert box[0] >= 0 and box[2] <= 375 and box[3] <= 812 and box[4] >= 44, box
        driver.execute_script("document.documentElement.style.fontSize = ''")
        # A tap on the song opens the whole player: the position, previous, volume; the chevron closes it.
        tap(driver, "#song-now")
        assert driver.find_element("id", "song-now").get_attribute("aria-expanded") == "true"
        assert all(driver.find_element("id", i).is_displayed() for i in ("progress", "previous", "volume", "np-close"))
        assert boxes(driver, "#now-playing")[0][5] == 812
        shoot(driver, tmp_path, "web-player-phone")
        tap(driver, "#np-close")
        assert driver.find_element("id", "song-now").get_attribute("aria-expanded") == "false"
        assert not driver.find_element("id", "progress").is_displayed()
        assert driver.current_url == w.base + "/", "the tap opened the player, it did not leave the screen"
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_tap_targets_are_44_px_at_least(site, size):
    d, w = site
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/explore")
        drawn(driver, "/explore")
        if size == PHONE:
            tap(driver, "#song-now")  # the sliders are in the opened player
        found = boxes(driver, "#view a.more", "#view a.chip", "#song-now", "#progress", "#volume", "#toggle", "#next",
                      "#nav a")
        for selector, box in zip(["See All", "chip", "song", "position", "volume", "play", "next", "tab"], found):
            assert box and box[4] >= 44 and box[5] >= 44, (selector, box)
    finally:
        driver.quit()


def test_carousels_have_arrows_for_a_mouse_and_none_for_a_finger(site):
    d, w = site
    driver = browser(*DESKTOP)
    try:
        driver.get(w.base + "/#/explore")
        drawn(driver, "/explore")
        shelf = "section[data-section='Top Albums']"
        left = lambda: driver.execute_script(f"return document.querySelector(\"{shelf} .carousel\").scrollLeft")
        assert driver.find_element("css selector", f"{shelf} button[aria-label='Scroll back: Top Albums']").get_attribute("disabled")
        tap(driver, f"{shelf} button[aria-label='Scroll on: Top Albums']")
        assert wait_for(lambda: left() > 500), left()
        assert wait_for(lambda: not driver.find_element(
            "css selector", f"{shelf} button[aria-label='Scroll back: Top Albums']").get_attribute("disabled"))
    finally:
        driver.quit()
    driver = browser(*PHONE)
    try:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        driver.get(w.base + "/#/explore")
        drawn(driver, "/explore")
        assert not driver.find_element("css selector", "section[data-section='Top Albums'] .arrows").is_displayed()
    finally:
        driver.quit()


def test_lists_cut_short_have_more_and_see_all(site, http):
    """Search pages on ("Show more"), chart shelves and More like open their
    whole list, and a long queue jumps to the song playing. The stand-in
    answers every search page with the one recorded page (no other page of
    it was recorded): the test checks that the next page was asked for
    from index 25 and added below the first."""
    from helpers import control, fixture
    d, w = site
    c = d.client()
    assert c.cmd("libraryadd deezer:album:302127") == ["OK"]
    driver = browser(*PHONE)
    try:
        driver.get(w.base + "/#/search?q=eminem&kind=tracks")
        drawn(driver, "/search")
        total = fixture("search-eminem.json")["total"]
        rows = lambda: driver.execute_script("return document.querySelectorAll('#results li').length")
        assert rows() == 25 and text_of(driver, "#results .show-more") == f"Show more (25 of {total})"
        control(http, "reset")
        tap(driver, "#results .show-more")
        assert wait_for(lambda: rows() == 50), rows()
        assert any("/search" in p and "index=25" in p for p in control(http, "log")), control(http, "log")
        # More like's See All: its genre's album chart, whole.
        driver.get(w.base + "/#/")
        drawn(driver, "/")
        more = driver.find_element("css selector", "section[data-section='More like \"Discovery\"'] a.more")
        assert more.get_attribute("href").endswith("#/chart/albums?genre=0")
        tap(driver, more)
        drawn(driver, "/chart/albums")
        assert text_of(driver, "#view h1") == "Top Albums"
        albums = [f"deezer:album:{a['id']}" for a in fixture("chart-0-albums.json")["data"]]
        assert [a.get_attribute("data-uri") for a in driver.find_elements("css selector", "#view a.card")] == albums
        # Explore's chart shelves: See All on each.
        driver.get(w.base + "/#/explore")
        drawn(driver, "/explore")
        links = driver.execute_script("return [...document.querySelectorAll('#view section.shelf a.more')].map((a) => a.getAttribute('href'))")
        assert {"#/chart/tracks?genre=0", "#/chart/albums?genre=0", "#/chart/artists?genre=0",
                "#/chart/playlists?genre=0"} <= set(links), links
        # A queue of 60 songs: Now Playing brings the song playing into view.
        for _ in range(4):
            assert c.cmd("add deezer:album:302127")[-1] == "OK"
        assert c.cmd("play 50") == ["OK"]
        driver.get(w.base + "/#/queue")
        drawn(driver, "/queue")
        tap(driver, "#queue-now")
        assert wait_for(lambda: driver.execute_script(
            "const r = document.querySelector('#queue li.current').getBoundingClientRect();"
            "return r.top > 0 && r.bottom < innerHeight && document.activeElement.closest('li.current') !== null"))
    finally:
        driver.quit()


def test_the_queue_follows_changes_elsewhere_in_place_by_plchanges(site):
    d, w = site
    c = d.client()
    assert c.cmd("add deezer:album:302127")[-1] == "OK" and c.cmd("play 2") == ["OK"]
    driver = browser(*DESKTOP)
    shown = lambda: driver.execute_script(
        "return [...document.querySelectorAll('#queue li')].map((li) => [li.dataset.uri, li.querySelector('.pos').textContent,"
        " li.classList.contains('current')])")
    expected = lambda: [[f, str(i + 1), i == int(c.fields("status")["song"])] for i, f in enumerate(queue_files(c))]
    try:
        driver.get(w.base + "/#/queue")
        drawn(driver, "/queue")
        assert shown() == expected()
        driver.execute_script("document.querySelector('#queue li:nth-child(5)').kept = 1")
        # A song added elsewhere: one more row, the others the same elements.
        assert c.cmd("add deezer:track:3135556") == ["OK"]
        assert wait_for(lambda: shown() == expected()), (shown(), expected())
        assert driver.execute_script("return document.querySelector('#queue li:nth-child(5)').kept") == 1
        sizes = driver.execute_script(
            "return performance.getEntriesByType('resource').filter((e) => e.name.includes('c=plchanges'))"
            ".map((e) => e.transferSize)")
        assert sizes and sizes[-1] < 2048, sizes
        # The first song removed and a move elsewhere: numbers and order follow, the current mark too.
        assert c.cmd("delete 0") == ["OK"] and c.cmd("move 0 5") == ["OK"] and c.cmd("next") == ["OK"]
        assert wait_for(lambda: shown() == expected()), (shown(), expected())
        assert driver.execute_script("return document.querySelectorAll('#queue li.current').length") == 1
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_search_shows_every_kind_at_once_with_typed_filters(site, size, tmp_path):
    from helpers import fixture
    d, w = site
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/search")
        drawn(driver, "/search")
        driver.find_element("id", "search-input").send_keys("daft punk\n")
        drawn(driver, "/search")
        # The artist named as asked comes first, then a shelf of each kind, each with its See All.
        assert driver.execute_script(
            "return document.querySelector(\"section[data-section='Top Result'] a.card\").getAttribute('href')") == "#/artist/27"
        assert [s for s in driver.execute_script(
            "return [...document.querySelectorAll('#results section.shelf')].map((s) => s.dataset.section)")] == [
            "Top Result", "Artists", "Albums", "Playlists"]
        artists = [f"deezer:artist:{a['id']}" for a in fixture("search-artist-daft-punk.json")["data"]][:12]
        assert [a.get_attribute("data-uri") for a in driver.find_elements(
            "css selector", "section[data-section='Artists'] a.card")] == artists
        shoot(driver, tmp_path, f"web-search-all-{size[0]}")
        assert driver.find_element("css selector", "section[data-section='Albums'] a.more").get_attribute("href").endswith(
            "#/search?q=daft+punk&kind=albums")
        # The Songs kind has filters typed as what they hold: ranges of numbers.
        driver.get(w.base + "/#/search?q=eminem&kind=tracks")
        drawn(driver, "/search")
        tap(driver, "form.search summary")
        kinds = driver.execute_script(
            "return [...document.querySelectorAll('.filters input')].map((i) => [i.name, i.type, i.min, i.max])")
        assert kinds == [["artist", "text", "", ""], ["album", "text", "", ""], ["track", "text", "", ""], ["label", "text", "", ""],
                         ["dur_min", "number", "0", "3600"], ["dur_max", "number", "0", "3600"],
                         ["bpm_min", "number", "0", "300"], ["bpm_max", "number", "0", "300"]]
        driver.find_element("css selector", "input[name='dur_max']").send_keys("240")
        driver.find_element("id", "search-input").send_keys("\n")
        assert wait_for(lambda: driver.current_url.endswith("#/search?q=eminem&kind=tracks&dur_max=240")), driver.current_url
    finally:
        driver.quit()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_change_elsewhere_keeps_the_rows_that_did_not_change(site, size):
    """A stored playlist and Want to Listen redrawn for a change made by
    another client keep each row that came out the same (the element
    itself, so focus stays on it); new rows act on the
    list they are now in."""
    from helpers import album_tracks
    d, w = site
    c = d.client()
    tracks = [f"deezer:track:{t['id']}" for t in album_tracks()[:4]]
    for uri in tracks[:2]:
        assert c.cmd(f'playlistadd Mix "{uri}"') == ["OK"]
    rows = "[...document.querySelectorAll('#view ol.songs li')]"
    driver = browser(*size)
    try:
        driver.get(w.base + "/#/stored/Mix")
        drawn(driver, "/stored/Mix")
        driver.execute_script(f"{rows}.forEach((li, i) => li.kept = i); {rows}[1].querySelector('button.song').focus()")
        assert c.cmd(f'playlistadd Mix "{tracks[2]}"') == ["OK"]
        assert wait_for(lambda: driver.execute_script(f"return {rows}.map((li) => [li.dataset.uri, li.kept ?? null])")
                        == [[tracks[0], 0], [tracks[1], 1], [tracks[2], None]]), \
            driver.execute_script(f"return {rows}.map((li) => [li.dataset.uri, li.kept ?? null])")
        assert driver.execute_script("return document.activeElement.closest('li').dataset.uri") == tracks[1]
        # The new row plays the list as it is now: the third song, the three queued.
        tap(driver, f"#view li[data-uri='{tracks[2]}'] button.song")
        assert wait_for(lambda: c.fields("status").get("song") == "2" and queue_files(c) == tracks[:3]), queue_files(c)
        # The first song removed elsewhere: the rows after it moved up and
        # their ✕ removes what it shows (the kept rows' positions changed, so they are new).
        assert c.cmd("playlistdelete Mix 0") == ["OK"]
        assert wait_for(lambda: driver.execute_script(f"return {rows}.map((li) => li.dataset.uri)") == tracks[1:3])
        tap(driver, f"#view li[data-uri='{tracks[2]}'] button[aria-label^='Remove']")
        assert wait_for(lambda: c.cmd("listplaylist Mix") == [f"file: {tracks[1]}", "OK"]), c.cmd("listplaylist Mix")
        # Want to Listen's list: an album wanted elsewhere joins, the rows before it stay.
        assert c.cmd("wantadd deezer:album:302127") == ["OK"]
        driver.get(w.base + "/#/want")
        drawn(driver, "/want")
        want = "[...document.querySelectorAll('#view ul.rows li')]"
        driver.execute_script(f"{want}.forEach((li) => li.kept = 1)")
        assert c.cmd(f"wantadd {tracks[3]}") == ["OK"]
        assert wait_for(lambda: driver.execute_script(f"return {want}.map((li) => li.kept ?? 0)") in ([1, 0], [0, 1])), \
            driver.execute_script(f"return {want}.map((li) => [li.dataset.key, li.kept ?? 0])")
        assert script_errors(driver) == []
    finally:
        driver.quit()
