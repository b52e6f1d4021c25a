"""contrib/demo: its help and its reachability check need no build, and an
offline run plays the stand-in's chart on the default socket, which a
second previewctl reaches."""
import json
import os
import re
import signal
import subprocess
import urllib.request

import catalog
from helpers import BIN, ROOT

DEMO = os.path.join(ROOT, "contrib", "demo")
WEB_LINE = re.compile(r"demo: the web front end \(Listen Now, Explore, Search, the queue\): open "
                      r"(http://127\.0\.0\.1:\d+/) in a browser$")


def demo_env(tmp_path, **extra):
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREVIEWD_", "PULSE_", "DBUS_"))}
    env.update(HOME=str(tmp_path), XDG_RUNTIME_DIR=str(runtime), PULSE_SERVER="unix:/nonexistent/pulse",
               PREVIEWD_BIN_DIR=BIN, PREVIEWD_SHARED=catalog.SHARED, **extra)
    return env


def lines_until_playing(p):
    """The demo's output lines up to its first "playing: " line."""
    lines = []
    while not lines or not lines[-1].startswith("playing: "):
        line = p.stdout.readline()
        assert line, ("the demo ended early", lines, p.stderr.read())
        lines.append(line.rstrip("\n"))
    return lines


def test_help_and_bad_options_need_no_build(tmp_path):
    r = subprocess.run([DEMO, "--help"], capture_output=True, text=True, env=demo_env(tmp_path), timeout=30)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.startswith("Installs what is missing, builds, starts previewd")
    assert "contrib/demo --offline" in r.stdout
    r = subprocess.run([DEMO, "--frob"], capture_output=True, text=True, env=demo_env(tmp_path), timeout=30)
    assert (r.returncode, r.stderr) == (64, 'demo: unknown option "--frob". See contrib/demo --help\n')


def test_an_unreachable_api_is_said_before_any_build(tmp_path):
    env = demo_env(tmp_path, PREVIEWD_API_BASE="http://127.0.0.1:9")
    del env["PREVIEWD_BIN_DIR"]  # it would build now, were the check not first
    r = subprocess.run([DEMO], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 1
    assert "demo: cannot reach http://127.0.0.1:9: " in r.stderr
    assert "contrib/demo --offline" in r.stderr
    assert "building" not in r.stdout + r.stderr


def test_offline_demo_plays_the_chart_on_the_default_socket(tmp_path):
    env = demo_env(tmp_path)
    p = subprocess.Popen([DEMO, "--offline"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)
    first = json.load(open(os.path.join(catalog.FIXTURES, "chart-0-tracks.json"), encoding="utf-8"))["data"][0]
    try:
        lines = lines_until_playing(p)
        assert lines[-1] == f"playing: {first['artist']['name']} - {first['title']}", lines
        assert "demo: no PulseAudio server was running; started a private one with a null sink (silent)" in lines
        assert ("demo: in a second terminal, 'previewctl status' (or next, pause, volume +5, ...) reaches this previewd"
                in lines)
        # A second terminal: the printed line puts previewctl on PATH, and it
        # finds the demo's daemon with no option.
        export = lines[lines.index("demo: this build's previewctl is not on your PATH; in that terminal first run "
                                   "(or contrib/install, into ~/.local/bin):") + 1]
        assert export == f'  export PATH="{BIN}:$PATH"', lines
        st = subprocess.run(["bash", "-c", export + "; previewctl status --json"], capture_output=True, text=True,
                            env=env, timeout=30)
        doc = json.loads(st.stdout)
        assert doc["state"] == "play" and doc["song"]["title"] == first["title"], doc
        # The web front end's address is printed, and it shows the same song.
        web = [m for m in map(WEB_LINE.match, lines) if m]
        assert web, lines
        with urllib.request.urlopen(web[0][1] + "api/mpd?c=currentsong", timeout=10) as r:
            assert ["Title", first["title"]] in json.load(r)[0]
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(20)
    assert not (tmp_path / "run" / "previewd" / "socket").exists(), "the demo stops what it started"


def test_ctrl_c_says_interrupted_stops_everything_and_exits_130(tmp_path):
    env = demo_env(tmp_path)
    # As from a terminal, where Ctrl-C is not ignored: a runner that starts
    # this suite in the background hands it SIGINT ignored, and bash cannot
    # trap a signal ignored when it started.
    p = subprocess.Popen([DEMO, "--offline"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines = lines_until_playing(p)
    os.killpg(p.pid, signal.SIGINT)  # what Ctrl-C sends: the whole foreground group
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, (out, err)
    assert out.splitlines()[-1] == "demo: interrupted", out
    assert "the queue ended" not in out
    assert not (tmp_path / "run" / "previewd" / "socket").exists(), "the demo stops what it started"
    st = subprocess.run([os.path.join(BIN, "previewctl"), "status"], capture_output=True, text=True, env=env,
                        timeout=30)
    assert (st.returncode, st.stderr.startswith("previewctl: cannot reach previewd at ")) == (69, True), st


def test_the_offline_demo_s_page_draws_covers_and_opens_its_albums(tmp_path):
    """A new user's first look (issue 44): Listen Now's covers draw, and an
    album of it opens on its songs, not on "not found"."""
    from webui import browser, drawn, script_errors, tap
    env = demo_env(tmp_path)
    p = subprocess.Popen([DEMO, "--offline"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True)
    driver = None
    try:
        lines = lines_until_playing(p)
        address = [m for m in map(WEB_LINE.match, lines) if m][0][1]
        driver = browser(375, 812)
        driver.get(address)
        drawn(driver, "/")
        # Covers off screen load lazily; a screenful drew, and each one that
        # did not is of an album Deezer has no cover of (recorded: null).
        covers = lambda: driver.execute_script(
            "const done = [...document.querySelectorAll('#view img')].filter((i) => i.complete);"
            "return [done.filter((i) => i.naturalWidth > 0).length,"
            " [...document.querySelectorAll('#view .art.missing')].map((a) => a.closest('[data-uri]').dataset.uri)];")
        from helpers import fixture, wait_for
        assert wait_for(lambda: covers()[0] >= 8), covers()
        coverless = {f"deezer:album:{a['id']}" for a in fixture("editorial-0-selection.json")["data"] if not a["cover_xl"]}
        assert set(covers()[1]) <= coverless, covers()
        album = driver.execute_script(
            "return [...document.querySelectorAll('#view a.card')].map((a) => a.getAttribute('href')).find((h) => h.startsWith('#/album/'))")
        assert album, "no album on Listen Now"
        tap(driver, f"#view a.card[href='{album}']")
        drawn(driver, album[1:])
        songs = driver.execute_script("return document.querySelectorAll('#view .song, #view li').length")
        assert songs > 0 and "not found" not in driver.find_element("id", "view").text, driver.find_element("id", "view").text[:300]
        assert script_errors(driver) == []
    finally:
        if driver:
            driver.quit()
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(20)
