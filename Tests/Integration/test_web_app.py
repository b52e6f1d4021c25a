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
