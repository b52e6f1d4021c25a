"""contrib/install: what it puts where, that each piece works from there
(units, man pages, completions, the autostart entry), and that --uninstall
removes exactly what it installed."""
import os
import re
import shlex
import signal
import socket
import subprocess

from helpers import BIN, ROOT, Client, wait_for

INSTALL = os.path.join(ROOT, "contrib", "install")
FILES = ["bin/previewd", "bin/previewctl", "bin/previewweb", "share/systemd/user/previewd.service",
         "share/systemd/user/previewd.socket", "share/systemd/user/previewweb.service",
         "share/systemd/user/previewd-snapserver.service",
         "share/bash-completion/completions/previewctl",
         "share/zsh/site-functions/_previewctl", "share/fish/vendor_completions.d/previewctl.fish",
         "share/bash-completion/completions/previewd", "share/zsh/site-functions/_previewd",
         "share/fish/vendor_completions.d/previewd.fish",
         "share/man/man1/previewd.1", "share/man/man1/previewctl.1",
         "share/man/man1/previewweb.1"]


def tree(root):
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, dirs, files in os.walk(root) for n in dirs + files)


def run_install(home, *args):
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return subprocess.run(["bash", INSTALL, "--bin-dir", BIN, *args], env=env, capture_output=True, text=True, timeout=120)


def test_install_puts_each_piece_where_it_is_looked_for_and_uninstall_removes_them(tmp_path):
    home = tmp_path / "home"
    (home / ".local" / "share" / "man" / "man1").mkdir(parents=True)
    own = home / ".local" / "share" / "man" / "man1" / "mine.1"
    own.write_text(".TH MINE 1\n")
    before = tree(home)
    r = run_install(home)
    assert r.returncode == 0, r.stderr
    prefix = home / ".local"
    manifest = (prefix / "share" / "previewd" / "install-manifest").read_text().splitlines()
    desktop = home / ".config" / "autostart" / "previewd.desktop"
    assert manifest == [f"file\t{prefix / f}" for f in FILES] + [f"file\t{desktop}"]
    for f in FILES[:3]:
        assert os.stat(prefix / f).st_mode & 0o777 == 0o755
        assert open(prefix / f, "rb").read() == open(os.path.join(BIN, os.path.basename(f)), "rb").read()
    service = (prefix / "share" / "systemd" / "user" / "previewd.service").read_text()
    assert f"\nExecStart={prefix}/bin/previewd\n" in service
    web = (prefix / "share" / "systemd" / "user" / "previewweb.service").read_text()
    assert f"\nExecStart={prefix}/bin/previewweb --listen 127.0.0.1:6680\n" in web
    # The units verify where they were put, with ExecStart at the prefix.
    units = prefix / "share" / "systemd" / "user"
    v = subprocess.run(["systemd-analyze", "--user", "verify", "previewd.socket", "previewd.service", "previewweb.service"], cwd=units,
                       env=dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(tmp_path)), capture_output=True, text=True)
    assert (v.returncode, v.stderr) == (0, "")
    assert subprocess.run([prefix / "bin" / "previewctl", "--help"], capture_output=True).returncode == 0
    m = subprocess.run(["man", "--warnings", "-l", prefix / "share" / "man" / "man1" / "previewctl.1"],
                       capture_output=True, text=True)
    assert (m.returncode, m.stderr) == (0, "")
    b = subprocess.run(["bash", "-c", f"source {prefix}/share/bash-completion/completions/previewctl && complete -p previewctl"],
                       capture_output=True, text=True)
    assert b.stdout == "complete -F _previewctl previewctl\n"
    # previewd's: after --log-level, its levels; else its options.
    b = subprocess.run(["bash", "-c", f"source {prefix}/share/bash-completion/completions/previewd && "
                        "COMP_WORDS=(previewd --log-level d); COMP_CWORD=2; _previewd; echo ${COMPREPLY[@]}; "
                        "COMP_WORDS=(previewd --pre); COMP_CWORD=1; _previewd; echo ${COMPREPLY[@]}"],
                       capture_output=True, text=True)
    assert b.stdout == "debug\n--previous-restart --prefetch --prefetch-memory\n", b.stderr
    # Again: the same files, nothing twice.
    assert run_install(home).returncode == 0
    assert (prefix / "share" / "previewd" / "install-manifest").read_text().splitlines() == manifest
    r = run_install(home, "--uninstall")
    assert (r.returncode, r.stdout) == (0, f"previewd uninstalled from {prefix}\n"), r.stderr
    assert tree(home) == before, "exactly what it installed is gone; the user's own page stays"
    r = run_install(home, "--uninstall")
    assert r.returncode == 1 and "nothing to uninstall" in r.stderr


def test_autostart_entry_starts_the_daemon_without_a_user_manager(tmp_path, http):
    home = tmp_path / "home"
    home.mkdir()
    assert run_install(home, "--prefix", str(tmp_path / "usr")).returncode == 0
    entry = (tmp_path / "usr" / "etc" / "xdg" / "autostart" / "previewd.desktop").read_text()
    assert "\nType=Application\n" in entry and "\nNoDisplay=true\n" in entry
    command = re.search(r"^Exec=(.*)$", entry, re.M)[1]
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(runtime), PREVIEWD_API_BASE=http + "/api",
               XDG_CONFIG_HOME=str(home / ".config"))
    (home / ".config" / "previewd").mkdir(parents=True)
    (home / ".config" / "previewd" / "previewd.conf").write_text("output = null\n")
    # What a desktop session runs: no user manager here, so previewd starts.
    p = subprocess.Popen(shlex.split(command), env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        socket_path = runtime / "previewd" / "socket"
        # The socket's file exists from bind(2); it answers from listen(2).
        assert wait_for(lambda: answers(socket_path), timeout=5, interval=0.01)
        assert Client(str(socket_path)).cmd("ping") == ["OK"]
        st = subprocess.run([tmp_path / "usr" / "bin" / "previewctl", "status"], env=env, capture_output=True, text=True)
        assert st.returncode == 0, st.stderr
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        assert p.wait(10) == 0


def answers(path):
    """Whether a server accepts connections on the Unix socket at `path`."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        s.close()
