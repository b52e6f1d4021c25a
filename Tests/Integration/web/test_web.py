"""Issue 34, first part: previewweb, the web front end. Over real HTTP
(libmicrohttpd) against a real previewd: the page and its security headers,
the Host check (DNS rebinding), the token and Origin check (CSRF), the
status and commands over the MPD socket; and in a real headless Chromium
(selenium), the now-playing bar at phone and desktop size, a hostile title
shown as text, and a tap on Next."""
import json
import os
import re
import subprocess

import pytest

from helpers import BIN, stop_process, url, wait_for
from webui import Web, browser

HOSTILE = "<img src=x onerror=window.pwned=1>"


@pytest.fixture
def web(daemon_factory, http):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    for n in (1, 2):
        assert c.cmd(f'add "{url(http, n)}"') == ["OK"]
    assert c.cmd(f'addtagid 1 Title "{HOSTILE}"') == ["OK"]
    assert c.cmd("addtagid 1 Artist \"Someone & <b>Co</b>\"") == ["OK"]
    w = Web(d)
    yield d, w
    w.close()


def test_the_page_carries_a_strict_policy_and_a_token(web):
    _, w = web
    status, headers, page = w.request("GET", "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"].startswith("default-src 'none'; script-src 'self';")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert re.fullmatch(r"[0-9a-f]+-[0-9a-f]+", w.token())
    script = re.search(r'<script type="module" src="(/v/[0-9a-f]{16}/js/shell\.js)">', page)[1]
    assert w.request("GET", script)[1]["Content-Type"] == "text/javascript; charset=utf-8"
    assert w.request("GET", "/nothing")[0] == 404


def test_another_host_name_is_refused(web):
    _, w = web
    status, _, body = w.request("GET", "/", {"Host": f"evil.example:{w.port}"})
    assert (status, body) == (421, f"this server answers to 127.0.0.1:{w.port}, localhost:{w.port} only\n")
    assert w.request("GET", "/api/status", {"Host": f"localhost:{w.port}"})[0] == 200


def test_a_change_needs_the_token_and_this_origin(web):
    d, w = web
    c = d.client()
    assert w.request("POST", "/api/mpd?c=play")[:3:2] == (403, "a request that changes something needs the page's token\n")
    token = w.token()
    assert w.request("POST", "/api/mpd?c=play", {"X-Previewweb-Token": token, "Origin": "http://evil.example"})[0] == 403
    # A command that changes state is refused in a GET (which needs no token).
    assert w.request("GET", "/api/mpd?c=play")[:3:2] == (405, '{"error":"play changes state: send it with POST"}\n')
    assert c.fields("status")["state"] == "stop"
    status, _, body = w.request("POST", "/api/mpd?c=play", {"X-Previewweb-Token": token, "Origin": w.base})
    assert (status, body) == (200, '[[]]\n')
    assert wait_for(lambda: c.fields("status").get("state") == "play")
    status, _, body = w.request("GET", "/api/status")
    st = json.loads(body)
    assert (st["state"], st["song"]["title"], st["song"]["position"]) == ("play", HOSTILE, 1)
    assert w.request("POST", "/api/nosuch", {"X-Previewweb-Token": token})[0] == 405


def test_a_refusal_of_the_daemon_is_passed_on(web):
    d, w = web
    assert d.client().cmd("clear") == ["OK"]
    status, _, body = w.request("POST", "/api/mpd?c=next", {"X-Previewweb-Token": w.token()})
    assert (status, body) == (409, '{"error":"Not playing"}\n')


def test_beyond_loopback_is_refused_without_a_password(tmp_path):
    p = subprocess.run([os.path.join(BIN, "previewweb"), "--listen", "0.0.0.0:6680"], capture_output=True, text=True,
                       timeout=10)
    assert p.returncode == 64
    assert p.stderr.splitlines()[0] == ("previewweb: --listen 0.0.0.0: beyond loopback (127.x.x.x) a password is needed: "
                                        "--password-file FILE")
    empty = tmp_path / "empty"
    empty.write_text("\n")
    p = subprocess.run([os.path.join(BIN, "previewweb"), "--listen", "0.0.0.0:0", "--password-file", str(empty)],
                       capture_output=True, text=True, timeout=10)
    assert (p.returncode, p.stderr) == (66, f"previewweb: --password-file {empty}: the password file's first line is empty\n")


def curl(w, path, *options):
    """curl's (status, body) for `path` on `w` (curl 7.88 speaks digest with SHA-256)."""
    r = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", *options, f"http://127.0.0.1:{w.port}{path}"],
                       capture_output=True, text=True, timeout=30)
    body, _, status = r.stdout.rpartition("\n")
    return int(status), body


def test_beyond_loopback_every_request_needs_the_password(daemon, tmp_path):
    """On all addresses (for a phone), with a password: HTTP digest
    (SHA-256) before any route, the machine named by any IPv4 address, a
    name still refused; and a real Chromium gets the page with the
    credentials."""
    secret = tmp_path / "password"
    secret.write_text("correct horse\n")
    os.chmod(secret, 0o600)
    w = Web(daemon, extra=["--password-file", str(secret)], listen="0.0.0.0:0")
    try:
        assert w.notice == ('previewweb: a browser is asked for user "previewd" and the password (HTTP digest, SHA-256); '
                            "the rest of the traffic is not encrypted")
        status, headers, _ = w.request("GET", "/api/status")
        assert status == 401 and headers["WWW-Authenticate"].startswith('Digest realm="previewd"')
        assert "algorithm=sha-256" in headers["WWW-Authenticate"].lower().replace('"', "")
        assert curl(w, "/api/mpd?c=status", "--digest", "-u", "previewd:wrong")[0] == 401
        assert curl(w, "/api/mpd?c=status", "--digest", "-u", "someone:correct horse")[0] == 401
        status, body = curl(w, "/api/mpd?c=status", "--digest", "-u", "previewd:correct horse", "-D", str(tmp_path / "h"))
        assert status == 200 and ["state", "stop"] in json.loads(body)[0]
        # A session cookie then spares the digest (a browser's parallel requests).
        cookie = [line for line in (tmp_path / "h").read_text().splitlines() if line.lower().startswith("set-cookie:")]
        m = re.fullmatch(r"Set-Cookie: (previewweb-session=[0-9a-f]+-[0-9a-f]+); Path=/; HttpOnly; SameSite=Strict", cookie[0])
        assert m, cookie
        assert curl(w, "/api/mpd?c=status", "-H", f"Cookie: {m[1]}")[0] == 200
        assert curl(w, "/api/mpd?c=status", "-H", "Cookie: previewweb-session=0-0")[0] == 401
        # The machine's address on the network is a name this server answers to; a DNS name is not.
        assert curl(w, "/api/mpd?c=status", "--digest", "-u", "previewd:correct horse",
                    "-H", f"Host: 192.168.1.20:{w.port}")[0] == 200
        assert curl(w, "/api/mpd?c=status", "--digest", "-u", "previewd:correct horse",
                    "-H", f"Host: evil.example:{w.port}")[0] == 421
        # The token is still needed to change anything.
        assert curl(w, "/api/mpd?c=play", "--digest", "-u", "previewd:correct horse", "-X", "POST")[0] == 403
        driver = browser(1280, 800)
        try:
            # The credentials in the address, as no test can type into the
            # browser's own prompt; then the address without them, as a user
            # has it after the prompt: the browser answers each challenge
            # (the page's requests, its event stream, the manifest's fetch)
            # from its cache.
            driver.get(f"http://previewd:correct%20horse@127.0.0.1:{w.port}/")
            driver.get(f"http://127.0.0.1:{w.port}/")
            assert wait_for(lambda: driver.execute_script(
                "return document.getElementById('view').getAttribute('aria-busy')") == "false", timeout=10)
            assert driver.find_element("css selector", "#view h1").text == "Listen Now"
            assert wait_for(lambda: driver.execute_script("return document.body.dataset.live") == "true", timeout=10)
            assert driver.execute_cdp_cmd("Page.getInstallabilityErrors", {}) == {"installabilityErrors": []}
            assert [e["message"] for e in driver.get_log("browser") if "status of 401" in e["message"]
                    and "previewd:correct" not in e["message"]] == []
        finally:
            driver.quit()
    finally:
        w.close()


@pytest.mark.parametrize("size", [(375, 812), (1280, 800)])
def test_the_now_playing_bar_in_chromium(web, size, tmp_path, http):
    d, w = web
    c = d.client()
    assert c.cmd("play 0") == ["OK"]
    driver = browser(*size)
    try:
        driver.get(w.base + "/")
        assert wait_for(lambda: driver.find_element("id", "title").text == HOSTILE, timeout=10), driver.page_source
        # Shown as text: no element was made of it, and its script never ran.
        assert driver.find_element("id", "artist").text == "Someone & <b>Co</b>"
        assert driver.find_elements("css selector", "#title *, #artist *") == []
        assert driver.execute_script("return window.pwned === undefined") is True
        assert driver.find_element("id", "toggle").get_attribute("aria-label") == "Pause"
        bar = driver.find_element("id", "now-playing").rect
        assert bar["width"] <= size[0] and bar["y"] + bar["height"] <= size[1] + 1, bar
        driver.save_screenshot(str(tmp_path / "page.png"))
        # A tap on Next plays the second song, and the bar says so.
        driver.find_element("id", "next").click()
        assert wait_for(lambda: c.fields("status").get("song") == "1", timeout=10)
        # (A plain URL has no Title: the bar shows the URL.)
        assert wait_for(lambda: driver.find_element("id", "title").text == url(http, 2), timeout=10)
    finally:
        driver.quit()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to run previewweb as another user")
def test_a_socket_of_another_user_gets_no_command(tmp_path):
    """previewweb run by `nobody` against a socket root listens on (root
    plays the attacker, as in test_hostile.py): nothing is sent to it."""
    import pwd
    import shutil
    import socket
    import threading
    import pathlib
    import tempfile
    user = pwd.getpwnam("nobody")
    # Outside pytest's 0700 directory, so that `nobody` can reach it.
    home = pathlib.Path(tempfile.mkdtemp(prefix="previewweb-nobody-"))
    os.chmod(home, 0o755)
    shutil.copy(os.path.join(BIN, "previewweb"), home)
    path = str(home / "listener.sock")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    os.chmod(path, 0o777)
    listener.listen(4)
    received = []

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                conn.sendall(b"OK MPD 0.23.5\n")
                while chunk := conn.recv(4096):
                    received.append(chunk)
                    conn.sendall(b"OK\n")
            except OSError:
                pass
            conn.close()
    threading.Thread(target=serve, daemon=True).start()
    proc = subprocess.Popen([str(home / "previewweb"), "--socket", path, "--listen", "127.0.0.1:0"],
                            user=user.pw_uid, group=user.pw_gid, extra_groups=[], env={"PATH": "/usr/bin:/bin"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.match(r"previewweb: http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())[1])
        # The page's client is `nobody` too: previewweb serves its own user only.
        client = ("import http.client, sys; c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=10); "
                  "c.request('GET', '/api/status'); r = c.getresponse(); print(r.status, r.read().decode(), end='')")
        r = subprocess.run(["/usr/bin/python3", "-c", client, str(port)], user=user.pw_uid, group=user.pw_gid,
                           extra_groups=[], env={"PATH": "/usr/bin:/bin"}, cwd="/", capture_output=True, text=True,
                           timeout=30)
        status, _, body = r.stdout.partition(" ")
        assert (int(status), json.loads(body)) == (502, {"error": f"{path} is not served by this user's previewd"}), r.stderr
        assert received == []
    finally:
        stop_process(proc)
        listener.close()
        shutil.rmtree(home)
