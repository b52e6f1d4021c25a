"""Issue 43's "Play on this device" and the outputs panel, in a real
headless Chromium, each step checked against the daemon through the
protocol: previewd with a paced null output and an HTTP stream on
loopback, previewweb relaying that stream at /stream.mp3 through its own
origin; the page's <audio> element plays it, follows previewd's pause and
stops again; the outputs panel lists previewd's outputs and switches them
(enableoutput, disableoutput), live on idle `output`. Over plain HTTP:
the relay's answers, its refusals (no stream, another site) and its limit."""
import socket

import pytest

from helpers import control, wait_for
from webui import PHONE, Web, browser, script_errors, shoot, tap, text_of

ALBUM = "deezer:album:302127"
AUDIO = "const a = document.getElementById('device-audio'); return a && [a.paused, a.currentTime];"


@pytest.fixture
def streaming(daemon_factory, http):
    """`site` (test_web_flow.py) with an HTTP stream output beside the
    paced null output: previewd, previewweb, and the stream's address."""
    control(http, "web?on=1")
    d = daemon_factory(output="null", pace="realtime", extra=("--output", "http:127.0.0.1:0"))
    stream = [line for line in d.client().cmd("outputs") if line.startswith("attribute: stream=")]
    assert stream and stream[0].startswith("attribute: stream=http://127.0.0.1:"), stream
    w = Web(d)
    yield d, w, stream[0].split("=", 1)[1]
    w.close()
    control(http, "web?on=0")


def outputs(d):
    return d.client().cmd("outputs")


def expected_outputs(stream, null="1", httpd="1"):
    return ["outputid: 0", "outputname: null", "plugin: null", f"outputenabled: {null}",
            "outputid: 1", "outputname: httpd", "plugin: httpd", f"outputenabled: {httpd}",
            f"attribute: stream={stream}", "OK"]


def relay(w, headers=None, source=None):
    """A raw GET /stream.mp3 on previewweb: the socket and the answer's head
    (status line and headers), with the body's first bytes read after it."""
    s = socket.create_connection(("127.0.0.1", w.port), timeout=10, source_address=(source, 0) if source else None)
    lines = ["GET /stream.mp3 HTTP/1.1", f"Host: 127.0.0.1:{w.port}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, head
        head += chunk
    head, _, rest = head.partition(b"\r\n\r\n")
    return s, head.decode() + "\r\n\r\n" + rest.decode("latin-1")


def checked(driver, id):
    """aria-checked of switch `id`, or None; read in one script (the panel is redrawn on each change)."""
    return driver.execute_script("const b = document.getElementById(arguments[0]); return b && b.getAttribute('aria-checked')", id)


def open_panel(driver, w):
    """Loads the page and opens the outputs panel from the now-playing bar's speaker."""
    driver.get(w.base + "/")
    assert wait_for(lambda: driver.execute_script("return !document.getElementById('outputs-button').hidden"))
    tap(driver, "#outputs-button")
    assert wait_for(lambda: driver.execute_script("return document.getElementById('menu').open"))


def play_album(d):
    c = d.client()
    assert c.cmd(f"add {ALBUM}")[-1] == "OK"
    assert c.cmd("play 0") == ["OK"]
    d.wait_state(c, "play")
    return c


def test_the_page_plays_previewd_on_this_device_and_follows_it(streaming, tmp_path):
    d, w, stream = streaming
    c = play_album(d)
    driver = browser(*PHONE)
    try:
        open_panel(driver, w)
        assert wait_for(lambda: driver.find_elements("id", "device-play"))
        assert checked(driver, "device-play") == "false"
        # A real tap starts the element: a user's gesture, which lets the page play sound.
        tap(driver, "#device-play")
        assert wait_for(lambda: (driver.execute_script(AUDIO) or [True, 0])[1] > 1.5, timeout=20), \
            (driver.execute_script(AUDIO), d.log()[-2000:])
        assert driver.execute_script(AUDIO)[0] is False
        assert driver.execute_script("return document.getElementById('device-audio').currentSrc") == w.base + "/stream.mp3"
        assert checked(driver, "device-play") == "true"
        shoot(driver, tmp_path, "web-outputs-phone")
        tap(driver, "#menu .cancel")
        assert wait_for(lambda: driver.execute_script("return document.body.dataset.device") == "playing")
        # The lock screen's title, artist and cover: the Media Session, now that the page plays sound.
        song = c.fields("currentsong")
        session = "const m = navigator.mediaSession.metadata; return m && [m.title, m.artist, m.artwork[0].src]"
        assert wait_for(lambda: driver.execute_script(session) == [
            song["Title"], song["Artist"], w.base + "/cover?uri=" + song["file"].replace(":", "%3A")]), \
            driver.execute_script(session)
        shoot(driver, tmp_path, "web-playing-on-device-phone")
        # previewd paused elsewhere: the element pauses too; played again: it plays on.
        assert c.cmd("pause 1") == ["OK"]
        assert wait_for(lambda: driver.execute_script(AUDIO)[0] is True, timeout=10)
        assert c.cmd("pause 0") == ["OK"]
        at = driver.execute_script(AUDIO)[1]
        assert wait_for(lambda: driver.execute_script(AUDIO)[0] is False
                        and driver.execute_script(AUDIO)[1] > at + 1, timeout=20), driver.execute_script(AUDIO)
        # A long pause: the element lets the stream go (previewweb would close a
        # connection silent for 15 s), and takes it anew on play.
        assert c.cmd("pause 1") == ["OK"]
        assert wait_for(lambda: driver.execute_script(
            "return document.getElementById('device-audio').getAttribute('src')") is None, timeout=15)
        assert c.cmd("pause 0") == ["OK"]
        assert wait_for(lambda: driver.execute_script(AUDIO)[0] is False and driver.execute_script(AUDIO)[1] > 1,
                        timeout=20), driver.execute_script(AUDIO)
        # Off again: the element lets the stream go, and previewweb its relay to previewd.
        tap(driver, "#outputs-button")
        tap(driver, "#device-play")
        assert wait_for(lambda: driver.execute_script(
            "const a = document.getElementById('device-audio'); return a.paused && !a.getAttribute('src')"))
        assert driver.execute_script("return document.body.dataset.device") == "off"
        assert script_errors(driver) == []
    finally:
        driver.quit()


def test_the_outputs_panel_lists_and_switches_outputs_live(streaming, tmp_path):
    d, w, stream = streaming
    c = play_album(d)
    driver = browser(*PHONE)
    try:
        open_panel(driver, w)
        assert wait_for(lambda: len(driver.find_elements("css selector", "#menu .outputs button[role=switch]")) == 2)
        names = driver.execute_script(
            "return [...document.querySelectorAll('#menu .outputs .switch-row')].map((r) =>"
            " [r.querySelector('.name').textContent, r.querySelector('button').getAttribute('aria-checked')])")
        assert names == [["null", "true"], ["httpd", "true"]]
        # A tap on a switch: the desktop's speakers (here the null output) off.
        tap(driver, "#output-0")
        assert wait_for(lambda: outputs(d) == expected_outputs(stream, null="0")), outputs(d)
        assert wait_for(lambda: checked(driver, "output-0") == "false")
        # Switched elsewhere (mpc, another page): the open panel follows, pushed by idle `output`.
        assert c.cmd("disableoutput 1") == ["OK"]
        assert wait_for(lambda: checked(driver, "output-1") == "false", timeout=10)
        # Without an HTTP stream there is nothing to play here: the panel offers it no more.
        assert driver.find_elements("id", "device-play") == []
        tap(driver, "#output-1")
        assert wait_for(lambda: checked(driver, "output-1") == "true", timeout=10)
        tap(driver, "#output-0")
        assert wait_for(lambda: outputs(d) == expected_outputs(stream)), outputs(d)
        assert wait_for(lambda: driver.find_elements("id", "device-play"), timeout=10)
        assert script_errors(driver) == []
    finally:
        driver.quit()


def test_the_relay_answers_audio_to_this_origin_only(streaming):
    d, w, stream = streaming
    play_album(d)
    # An <audio> element's own request, from the page: the stream, as previewd sends it.
    s, head = relay(w, {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "audio",
                        "Range": "bytes=0-"})
    assert head.split("\r\n")[0] == "HTTP/1.1 200 OK"
    assert "Content-Type: audio/mpeg" in head and "Cache-Control: no-store" in head, head
    body = b""
    while len(body) < 20000:
        body += s.recv(65536)
    s.close()
    assert b"\xff\xfb" in body[:4000], body[:64]  # MPEG-1 Layer III frames
    # Another site's page (an <audio> of its own, or a fetch) is refused; a link to it is not.
    for site, mode in (("cross-site", "no-cors"), ("same-site", "no-cors"), ("cross-site", "cors")):
        status, _, text = w.request("GET", "/stream.mp3", {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode})
        assert (status, text) == (403, "requests from another site are refused\n")
    status, _, text = w.request("GET", "/stream.mp3", {"Origin": "http://evil.example"})
    assert (status, text) == (403, "requests from another site are refused\n")
    status, headers, _ = w.request("HEAD", "/stream.mp3")
    assert (status, headers["Content-Type"]) == (200, "audio/mpeg")
    # Off: 404, saying why.
    assert d.client().cmd("disableoutput 1") == ["OK"]
    status, _, text = w.request("GET", "/stream.mp3")
    assert (status, text) == (404, "previewd's HTTP stream output is disabled (enableoutput)\n")


def test_at_most_eight_relays_and_a_browser_that_leaves_frees_its_place(streaming):
    d, w, stream = streaming
    play_album(d)
    # From two loopback addresses: previewweb takes 16 connections from one.
    held = [relay(w, source=f"127.0.0.{2 + i % 2}") for i in range(8)]
    assert all(head.startswith("HTTP/1.1 200 OK") for _, head in held)
    status, _, text = w.request("GET", "/stream.mp3", source="127.0.0.4")
    assert (status, text) == (503, "at most 8 streams at once\n")
    held.pop()[0].close()
    # The relay sees its browser leave (its socket is watched) and lets previewd's stream go.
    held.append(relay(w, source="127.0.0.4"))
    assert held[-1][1].startswith("HTTP/1.1 200 OK"), held[-1][1]
    for s, _ in held:
        s.close()
    # Every place is free again (previewd's own 16 listeners free theirs
    # when it next writes to them: a moment later, hence the retries).

    def opened():
        s, head = relay(w, source="127.0.0.5")
        if head.startswith("HTTP/1.1 200 OK"):
            return s
        s.close()
    fresh = [wait_for(opened, timeout=10) for _ in range(8)]
    assert all(fresh)
    for s in fresh:
        s.close()


def test_without_an_http_stream_output_the_relay_answers_404(site):
    d, w = site
    status, _, text = w.request("GET", "/stream.mp3")
    assert (status, text) == (404, "previewd has no HTTP stream output (start it with --output http:127.0.0.1:PORT)\n")
    assert w.request("GET", "/stream.flac")[0] == 404
    # And the page offers no "Play on this device" (the outputs panel lists the null output alone).
    driver = browser(*PHONE)
    try:
        open_panel(driver, w)
        assert wait_for(lambda: text_of(driver, "#menu .outputs .name") == "null")
        assert driver.find_elements("id", "device-play") == []
    finally:
        driver.quit()
