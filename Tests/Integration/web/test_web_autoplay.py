"""Autoplay on the web page (issue 45), in a real headless Chromium at a
phone's size and a desktop's: the queue's Autoplay button and the
now-playing bar's switch both say and change `autoplay`, follow a change
made elsewhere, and a song autoplay added says why it is there. Artist
lists come from `catalog.artist_list` (NOT A RECORDING, see there)."""
import pytest

from helpers import control, wait_for
from webui import DESKTOP, PHONE, browser, drawn, script_errors, shoot, tap, text_of

SEED = "deezer:track:3135556"  # Harder, Better, Faster, Stronger (Daft Punk)


def pressed(driver, selector):
    return driver.execute_script("return document.querySelector(arguments[0]).getAttribute('aria-pressed')", selector)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_autoplay_is_switched_from_the_queue_and_the_bar_and_says_why_a_song_is_there(site, http, size, tmp_path):
    d, w = site
    c = d.client()
    control(http, "artist-lists?on=1")
    driver = browser(*size)
    try:
        assert c.cmd(f"add {SEED}") == ["OK"] and c.cmd("rangeid 1 29:") == ["OK"]
        driver.get(w.base + "/#/queue")
        drawn(driver, "/queue")
        assert pressed(driver, "#queue-autoplay") == "false" and pressed(driver, "#autoplay") == "false"
        tap(driver, "#queue-autoplay")
        assert wait_for(lambda: c.fields("status")["autoplay"] == "1")
        assert wait_for(lambda: pressed(driver, "#queue-autoplay") == "true" and pressed(driver, "#autoplay") == "true",
                        timeout=10)
        # Off from elsewhere: both follow.
        assert d.ctl("autoplay", "off").returncode == 0
        assert wait_for(lambda: pressed(driver, "#queue-autoplay") == "false" and pressed(driver, "#autoplay") == "false",
                        timeout=10)
        # On from the bar (on a phone, in the player opened whole).
        if size == PHONE:
            tap(driver, "#song-now")
        tap(driver, "#autoplay")
        assert wait_for(lambda: c.fields("status")["autoplay"] == "1")
        if size == PHONE:
            tap(driver, "#np-close")
        # The seed's last second plays; the song autoplay adds says why.
        assert c.cmd("play") == ["OK"]
        reason = 'Autoplay, like "Harder, Better, Faster, Stronger"'
        assert wait_for(lambda: driver.execute_script(
            "return [...document.querySelectorAll('#queue li .sub')].map((s) => s.textContent)")[1:2] != [], timeout=15)
        sub = driver.execute_script("return document.querySelectorAll('#queue li .sub')[1].textContent")
        assert sub.endswith(" \u00B7 " + reason), sub
        assert text_of(driver, "#queue li:first-child .sub") == "Daft Punk"
        shoot(driver, tmp_path, "web-autoplay-" + ("phone" if size == PHONE else "desktop"))
        assert script_errors(driver) == []
    finally:
        driver.quit()
        control(http, "artist-lists?on=0")
