"""systemd integration: the units verify, socket activation and readiness
notification work the way systemd drives them."""
import os
import shutil
import signal
import socket
import subprocess

from helpers import PREVIEWD, ROOT, Client


def test_units_pass_systemd_analyze_verify(tmp_path):
    home = tmp_path / "home"
    (home / ".local" / "bin").mkdir(parents=True)
    os.symlink(PREVIEWD, home / ".local" / "bin" / "previewd")
    os.symlink(os.path.join(os.path.dirname(PREVIEWD), "previewweb"), home / ".local" / "bin" / "previewweb")
    units = tmp_path / "units"
    units.mkdir()
    for name in ("previewd.service", "previewd.socket", "previewweb.service", "previewd-snapserver.service"):
        shutil.copy(os.path.join(ROOT, "systemd", name), units / name)
    env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(tmp_path))
    p = subprocess.run(["systemd-analyze", "--user", "verify", "previewd.socket", "previewd.service", "previewweb.service",
                        "previewd-snapserver.service"],
                       cwd=units, env=env, capture_output=True, text=True)
    assert (p.returncode, p.stderr) == (0, "")


def test_socket_activation_and_readiness(tmp_path, http):
    path = str(tmp_path / "run" / "socket")
    os.makedirs(os.path.dirname(path), mode=0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    notify_path = str(tmp_path / "notify")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.settimeout(10)
    fd = listener.fileno()
    env = dict(os.environ, LISTEN_FDS="1", NOTIFY_SOCKET=notify_path)
    # As systemd does: the socket as fd 3, and LISTEN_PID naming the process
    # that reads it (the shell execs previewd, keeping its pid).
    proc = subprocess.Popen(
        ["bash", "-c", f'exec 3<&{fd}; LISTEN_PID=$$ exec "$0" "$@"', PREVIEWD, "--output", "null", "--socket", path,
         "--api-base", http + "/api", "--state-dir", str(tmp_path / "state")],
        env=env, pass_fds=(fd,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        try:
            ready = notify.recv(64)
        except OSError:
            proc.kill()
            raise AssertionError(proc.communicate()[1].decode())
        assert ready == b"READY=1"
        c = Client(path)
        assert c.greeting == "OK MPD 0.23.5"
        assert c.cmd("ping") == ["OK"]
        assert c.cmd("add deezer:track:3135556") == ["OK"]
        proc.send_signal(signal.SIGTERM)
        assert notify.recv(64) == b"STOPPING=1"
        assert proc.wait(10) == 0
        assert os.path.exists(path)  # the socket is systemd's to remove
    finally:
        if proc.poll() is None:
            proc.kill()
        listener.close()
        notify.close()
