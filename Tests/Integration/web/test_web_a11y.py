"""axe-core 4.12 (the copy PyPI's axe-playwright-python 0.1.8 carries,
fetched by contrib/fetch-axe) run in headless Chromium on every screen of
the page, at a phone's and a desktop's size, light and dark: WCAG 2.2 A
and AA, zero violations (issue 44)."""
import os
import subprocess

import pytest

from helpers import ROOT
from webui import DESKTOP, PHONE, browser, drawn, tap

SCREENS = ["/", "/picks", "/releases", "/want", "/explore", "/countries", "/chart/albums", "/search", "/search?q=daft%20punk",
           "/search?q=eminem&kind=tracks&dur_max=400", "/search?q=daft%20punk&kind=albums", "/library", "/playlists", "/stored/Mix", "/queue", "/album/302127",
           "/artist/27", "/track/3135556", "/playlist/908622995", "/radio/37151"]
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_source():
    path = os.environ.get("PREVIEWD_AXE") or subprocess.run(
        [os.path.join(ROOT, "contrib", "fetch-axe")], capture_output=True, text=True, check=True).stdout.strip()
    with open(path, encoding="utf-8") as f:
        return f.read()


def violations(driver, source):
    driver.execute_script(source)
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, { runOnly: { type: 'tag', values: arguments[0] } })"
        ".then((r) => done(r.violations.map((v) => [v.id, v.impact, v.nodes.length,"
        " v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join(''))])))"
        ".catch((e) => done([['axe failed', String(e)]]));", TAGS)
    return found


@pytest.fixture(scope="module")
def axe():
    return axe_source()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_screen_has_no_axe_violation(site, axe, size, scheme):
    d, w = site
    c = d.client()
    assert c.cmd('playlistadd Mix "deezer:track:3135556"') == ["OK"]
    assert c.cmd("libraryadd deezer:album:302127") == ["OK"] and c.cmd("wantadd deezer:album:302127") == ["OK"]
    assert c.cmd("add deezer:album:302127")[-1] == "OK" and c.cmd("play 1") == ["OK"] and c.cmd("pause 1") == ["OK"]
    driver = browser(*size)
    driver.set_script_timeout(60)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    found = {}
    try:
        for screen in SCREENS:
            driver.get(w.base + "/#" + screen)
            drawn(driver, screen.split("?")[0])
            v = violations(driver, axe)
            if v:
                found[screen] = v
        # The menu open, over an album.
        driver.get(w.base + "/#/album/302127")
        drawn(driver, "/album/302127")
        tap(driver, "#add-menu")
        driver.execute_script("return document.getElementById('menu').open")
        v = violations(driver, axe)
        if v:
            found["/album/302127 + menu"] = v
    finally:
        driver.quit()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
