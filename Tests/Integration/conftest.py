"""The pytest fixtures of the integration tests: the loopback catalog
server, previewd started per test in a temp dir, and Debian's mpd for the
differential tests. The helpers the tests import are in helpers.py."""
import os
import shutil
import signal
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# helpers.py's asserts explain their failures as the tests' own do.
pytest.register_assert_rewrite("helpers")
import catalog  # noqa: E402
from helpers import Client, Daemon, control, stop_process, wait_for  # noqa: E402


def pytest_assertrepr_compare(op, left, right):
    """Two long byte strings (PCM, a stream) that differ: where, not a
    difflib of megabytes, which took longer than the test's 300 s."""
    if op == "==" and isinstance(left, (bytes, bytearray)) and isinstance(right, (bytes, bytearray)) \
            and max(len(left), len(right)) > 4096:
        at = next((i for i, (a, b) in enumerate(zip(left, right)) if a != b), min(len(left), len(right)))
        return [f"{len(left)} bytes == {len(right)} bytes",
                f"first difference at byte {at} (frame {at // 4} of s16 stereo PCM, {at / 176400:.3f} s at 44.1 kHz)"]
    return None


def pytest_configure(config):
    config.addinivalue_line("markers", "alone: needs the machine to itself (contrib/test runs these after the rest, "
                                       "not beside them)")
    config.addinivalue_line("markers", "package: installs the Debian package PREVIEWD_DEB names on this machine "
                                       "(contrib/test runs these by themselves)")


@pytest.fixture(scope="session")
def http():
    """The loopback Deezer API + CDN stand-in; yields its base URL."""
    server = catalog.serve()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(autouse=True)
def fresh_stand_in(request):
    """Each test that reads the stand-in starts from its fresh state: a
    fault, a quota or a forged title that a test set and did not reset (or
    failed before resetting) must not change what the next test on the
    same worker reads."""
    if "http" in request.fixturenames:
        control(request.getfixturevalue("http"), "reset")


@pytest.fixture
def daemon_factory(tmp_path, http):
    made = []

    def make(**kw):
        d = Daemon(tmp_path / f"d{len(made)}", http, **kw)
        made.append(d)
        return d
    yield make
    for d in made:
        d.close()


@pytest.fixture
def site(daemon_factory, http):
    """previewd and previewweb on it (webui.Web), the stand-in in its web
    mode (catalog.synthetic_album, PNG covers) until the test ends."""
    from webui import Web
    control(http, "web?on=1")
    d = daemon_factory(output="null", pace="realtime")
    w = Web(d)
    yield d, w
    w.close()
    control(http, "web?on=0")


@pytest.fixture
def daemon(daemon_factory):
    return daemon_factory()


@pytest.fixture(scope="module")
def mpd(tmp_path_factory, http):
    """Debian's mpd with a null output, software mixer and a playlist
    directory; yields its socket path."""
    root = tmp_path_factory.mktemp("mpd")
    (root / "music").mkdir()
    for i in (1, 2, 3):  # local copies, only so the test can read their ID3 tags through mpd
        shutil.copy(os.path.join(catalog.CORPUS, f"preview-0{i}.mp3"), root / "music")
    (root / "playlists").mkdir()
    sock = root / "socket"
    (root / "mpd.conf").write_text(f"""
music_directory "{root}/music"
playlist_directory "{root}/playlists"
db_file "{root}/db"
sticker_file "{root}/sticker.sql"
log_file "{root}/log"
pid_file "{root}/pid"
bind_to_address "{sock}"
audio_output {{
  type "null"
  name "null"
  mixer_type "software"
}}
""")
    proc = subprocess.Popen([shutil.which("mpd"), "--no-daemon", str(root / "mpd.conf")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def answers():
        try:
            Client(str(sock)).close()
            return True
        except OSError:
            assert proc.poll() is None, (root / "log").read_text() if (root / "log").exists() else "mpd died"
            return False
    wait_for(answers, timeout=20, what="mpd to start")
    # The files in the database, for the sessions that name them (stickers).
    c = Client(str(sock))
    c.cmd("update")
    wait_for(lambda: "updating_db" not in c.fields("status"), timeout=10, what="mpd's database update")
    c.close()
    yield str(sock)
    stop_process(proc, signal.SIGTERM)
