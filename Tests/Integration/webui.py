"""previewweb for the web tests: started against a test's previewd on a
free loopback port, and a headless Chromium (Debian's chromium and
chromium-driver, through python3-selenium) at a phone's or a desktop's
size. Screenshots go to $PREVIEWD_SCREENSHOTS when it is set (how the
ones under docs/ are made), else to the test's own temporary directory."""
import atexit
import http.client
import os
import re
import subprocess

from helpers import BIN, stop_process, wait_for

PHONE = (375, 812)
DESKTOP = (1280, 800)


class Web:
    """previewweb on a free loopback port, for `daemon`, its covers in `cache`."""

    def __init__(self, daemon, cache=None, listen="127.0.0.1:0", extra=()):
        cache = cache or os.path.join(daemon.tmp, "covers")
        self.cache = cache
        self.proc = subprocess.Popen([os.path.join(BIN, "previewweb"), "--socket", daemon.socket,
                                      "--listen", listen, "--cache-dir", cache, *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.match(r"previewweb: http://[0-9.]+:(\d+)/ \(previewd at (.*)\)$", line.strip())
        assert m, (line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        # What it says on stderr at start beyond the address (the password's notice).
        self.notice = self.proc.stderr.readline().strip() if extra else None
        self.port = int(m[1])
        self.base = f"http://127.0.0.1:{self.port}"

    def request(self, method, path, headers=None, source=None, timeout=10):
        """(status, headers, body) of one request, sent from the loopback
        address `source` (127.0.0.1 unless given: previewweb takes at most
        16 connections from one address), waiting `timeout` s at most."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                       source_address=(source, 0) if source else None)
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        body = r.read()
        c.close()
        kind = r.getheader("Content-Type") or ""
        return r.status, dict(r.getheaders()), body if kind.startswith("image/") else body.decode()

    def raw(self, method, path, headers=None):
        """(status, headers, body bytes) of one request, the body as sent
        (still gzipped when it was)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, dict(r.getheaders()), body

    def token(self):
        _, _, page = self.request("GET", "/")
        return re.search(r'<meta name="previewweb-token" content="([^"]+)">', page)[1]

    def close(self):
        stop_process(self.proc)
        assert self.proc.returncode == 0, self.proc.stderr.read()


# Chromium started once per test process and handed to test after test:
# starting one costs a second or more of CPU, and the browser tests are
# many (docs/performance.md, "The test suite"). A test still calls quit()
# when done: that hands the browser back, reset (below), or ends it when
# the reset fails. Each test's page is on its own port, so its origin's
# storage and cache are its own.
_idle = []


def _launch(width, height):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={max(width, 500)},{height}"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    end = driver.quit
    driver.end = end
    driver.quit = lambda: _hand_back(driver)
    return driver


def _hand_back(driver):
    """What a test may have changed, undone; the browser kept for the next."""
    try:
        driver.get("about:blank")
        for command, args in (("Emulation.clearDeviceMetricsOverride", {}),
                              ("Emulation.setEmulatedMedia", {"features": []}),
                              ("Emulation.setTouchEmulationEnabled", {"enabled": False})):
            driver.execute_cdp_cmd(command, args)
        driver.set_script_timeout(30)
        driver.implicitly_wait(0)
        driver.delete_all_cookies()
        driver.get_log("browser")  # read, so the next test sees only its own
        if len(driver.window_handles) != 1:
            raise RuntimeError("a test left a window open")
        _idle.append(driver)
    except Exception:  # noqa: BLE001 - a browser in a state we cannot undo is ended
        driver.end()


def _end_all():
    while _idle:
        _idle.pop().end()


atexit.register(_end_all)


def browser(width, height):
    """Headless Chromium showing `width`x`height` CSS pixels (a phone's
    viewport is set as DevTools sets it: a window is at least 500 px wide).
    Call quit() when done (it hands the browser to the next test)."""
    driver = _idle.pop() if _idle else _launch(width, height)
    driver.set_window_size(max(width, 500), height)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
    return driver


def shoot(driver, tmp_path, name):
    """Saves a screenshot NAME.png (see the module's doc for where)."""
    folder = os.environ.get("PREVIEWD_SCREENSHOTS") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    driver.save_screenshot(os.path.join(folder, name + ".png"))


def drawn(driver, route, timeout=15):
    """Waits until the page shows ROUTE (`/album/302127`) drawn whole."""
    assert wait_for(lambda: driver.execute_script(
        "const v = document.getElementById('view');"
        "return v !== null && v.dataset.path === arguments[0] && v.getAttribute('aria-busy') === 'false';", route),
        timeout=timeout), \
        (driver.current_url, driver.find_element("id", "view").text[:500])


def script_errors(driver):
    """The page's console errors, but for covers the stand-in has none of."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and "/cover?" not in e["message"]]


def text_of(driver, selector):
    """The text of the first element of `selector`, or None; read in one
    script, as a live page may redraw between finding and reading."""
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", selector)


def tap(driver, target):
    """Clicks `target` (an element, or a CSS selector found anew) as a user
    would: scrolled to the middle of the screen first, clear of the fixed
    bars (WebDriver's own scrolling puts it at the bottom edge, under
    them). A live page may redraw between finding and clicking: a selector
    is then found again."""
    from selenium.common.exceptions import StaleElementReferenceException
    for _ in range(20):
        element = driver.find_element("css selector", target) if isinstance(target, str) else target
        try:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return
        except StaleElementReferenceException:
            if not isinstance(target, str):
                raise
    raise AssertionError(f"{target} kept being redrawn")


def click_text(driver, selector, text):
    """Clicks the element of `selector` whose text is `text`, once shown."""
    def find():
        found = [e for e in driver.find_elements("css selector", selector) if e.is_displayed() and e.text == text]
        return found[0] if found else None
    element = wait_for(lambda: find(), timeout=10)
    assert element, [e.text for e in driver.find_elements("css selector", selector)]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
