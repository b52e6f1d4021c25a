"""The Debian package (contrib/deb), installed as a user installs it:
`apt-get install ./previewd_*.deb`, checked where Debian puts each piece,
run with the Swift toolchain out of sight, and purged.

PREVIEWD_DEB names the .deb (contrib/test builds it and sets it). The tests
install it on this machine, so they need root and run by themselves
(marker `package`, contrib/test's first phase); the last one purges it."""
import os
import re
import subprocess

import pytest

from helpers import CTL_MODES, Daemon, wait_for

DEB = os.environ.get("PREVIEWD_DEB")
PROGRAMS = ("previewd", "previewctl", "previewweb")

pytestmark = [
    pytest.mark.package,
    pytest.mark.skipif(not DEB, reason="no package to check: PREVIEWD_DEB is unset (contrib/test builds one with contrib/deb)"),
    pytest.mark.skipif(os.geteuid() != 0, reason="installing a package needs root (CI runs as root)"),
]


def run(*argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, **kw)


def deb_field(name):
    return run("dpkg-deb", "-f", DEB, name).stdout.strip()


@pytest.fixture(scope="module")
def installed():
    """The package installed with apt-get; (its file list)."""
    p = run("apt-get", "install", "-y", DEB, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    assert p.returncode == 0, p.stdout + p.stderr
    listed = run("dpkg", "-L", "previewd").stdout.split()
    yield listed
    # The purge test removes it; a failure before that must not leave it.
    if run("dpkg-query", "-W", "-f", "${Status}", "previewd").stdout.startswith("install"):
        run("apt-get", "purge", "-y", "previewd")


def test_lintian_reports_no_error_and_no_warning():
    p = run("lintian", "--fail-on", "error,warning", DEB)
    tags = [line for line in p.stdout.splitlines() if re.match(r"^[EW]: ", line)]
    assert (p.returncode, tags) == (0, [])


def test_depends_come_from_the_libraries_the_programs_link():
    # The version is checked where it is printed (the toolchain-hidden test)
    # and in the tree (test_manpages.py::test_one_version_everywhere).
    depends = deb_field("Depends")
    # dh_shlibdeps's work: the libraries the binaries link, with versions.
    for library in ("libcurl4 (>=", "libmpg123-0 (>=", "libpulse0 (>=", "libc6 (>="):
        assert library in depends
    assert "libswift" not in depends


def test_each_piece_is_where_debian_looks_for_it(installed):
    expected = [f"/usr/bin/{p}" for p in PROGRAMS] + [
        "/usr/lib/systemd/user/previewd.service", "/usr/lib/systemd/user/previewd.socket",
        "/usr/lib/systemd/user/previewweb.service", "/usr/lib/systemd/user/previewd-snapserver.service",
        "/usr/share/man/man1/previewd.1.gz", "/usr/share/man/man1/previewctl.1.gz", "/usr/share/man/man1/previewweb.1.gz",
        "/usr/share/bash-completion/completions/previewctl", "/usr/share/bash-completion/completions/previewd",
        "/usr/share/zsh/vendor-completions/_previewctl", "/usr/share/zsh/vendor-completions/_previewd",
        "/usr/share/fish/vendor_completions.d/previewctl.fish", "/usr/share/fish/vendor_completions.d/previewd.fish",
        "/usr/share/doc/previewd/README.md.gz", "/usr/share/doc/previewd/copyright",
        "/usr/share/doc/previewd/changelog.Debian.gz"]
    assert [f for f in expected if f not in installed] == []
    assert [f for f in expected if not os.path.exists(f)] == []
    units = "/usr/lib/systemd/user/"
    assert "ExecStart=/usr/bin/previewd\n" in open(units + "previewd.service").read()
    assert "ExecStart=/usr/bin/previewweb --listen 127.0.0.1:6680\n" in open(units + "previewweb.service").read()
    # Installed, not enabled for every user: each user enables it.
    assert not os.path.exists("/etc/systemd/user/sockets.target.wants/previewd.socket")
    p = run("man", "-w", "previewctl")
    assert (p.returncode, p.stdout) == (0, "/usr/share/man/man1/previewctl.1.gz\n")


def test_the_binaries_need_only_debian_s_libraries(installed):
    for program in PROGRAMS:
        path = f"/usr/bin/{program}"
        dynamic = run("readelf", "-d", path).stdout
        assert not re.search(r"\((RUNPATH|RPATH)\)", dynamic), dynamic
        p = run("ldd", path)
        if program == "previewctl":
            assert "not a dynamic executable" in p.stdout + p.stderr
            continue
        assert p.returncode == 0
        libraries = p.stdout
        assert "libswift" not in libraries and "/opt" not in libraries and "not found" not in libraries, libraries


def test_each_program_starts_with_the_toolchain_hidden(installed):
    upstream = deb_field("Version").rsplit("-", 1)[0]
    # A mount namespace where /opt is empty, and a PATH without the toolchain.
    script = ("mount -t tmpfs none /opt && ! ls /opt/swift 2>/dev/null && "
              "previewd --version && previewctl version && previewweb --version")
    p = run("unshare", "--mount", "--propagation", "private", "sh", "-c", script,
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"})
    assert (p.returncode, p.stdout, p.stderr) == (
        0, f"previewd {upstream}\npreviewctl {upstream}\npreviewweb {upstream}\n", "")


def test_installed_previewd_plays_a_stand_in_song_and_previewctl_reaches_it(installed, tmp_path, http):
    d = Daemon(tmp_path / "d", http, output="null", pace="realtime", binary="/usr/bin/previewd")
    try:
        c = d.client()
        assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]
        assert c.cmd("play") == ["OK"]
        st = wait_for(lambda: (lambda s: s if float(s.get("elapsed", 0)) > 0.3 else None)(c.fields("status")),
                      what="elapsed past 0.3 s")
        assert (st["state"], st["audio"], "error" in st) == ("play", "44100:16:2", False)
        p = run("/usr/bin/previewctl", "--socket", d.socket, "status")
        assert p.returncode == 0, p.stderr
        assert p.stdout.splitlines()[1].startswith("[playing] #1/1 "), p.stdout
        c.close()
    finally:
        d.close()


def test_the_installed_units_verify_and_start_previewd_on_the_first_client(installed, tmp_path, http):
    units = "/usr/lib/systemd/user/"
    p = run("systemd-analyze", "--user", "verify", units + "previewd.socket", units + "previewd.service",
            units + "previewweb.service", env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)))
    assert (p.returncode, p.stderr) == (0, "")
    # The socket held as systemd holds it (systemd-socket-activate, systemd's
    # own tool): previewd starts on the first client and answers it.
    path = str(tmp_path / "socket")
    holder = subprocess.Popen(
        ["systemd-socket-activate", "-l", path, "/usr/bin/previewd", "--output", "null",
         "--api-base", http + "/api", "--state-dir", str(tmp_path / "state")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: os.path.exists(path), what="the held socket")
        # Until a client comes, the holder waits; then it becomes previewd (exec).
        exe = f"/proc/{holder.pid}/exe"
        assert os.readlink(exe) == "/usr/bin/systemd-socket-activate"
        p = run("/usr/bin/previewctl", "--socket", path, "status")
        assert (p.returncode, p.stdout.splitlines()[-1], p.stderr) == (0, CTL_MODES, "")
        assert os.readlink(exe) == "/usr/bin/previewd"
    finally:
        holder.terminate()
        holder.wait(10)


def test_purge_takes_every_file_of_the_package_away(installed):
    files = [f for f in installed if os.path.isfile(f) or os.path.islink(f)]
    assert len(files) > 20
    p = run("apt-get", "purge", "-y", "previewd", env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert [f for f in files if os.path.lexists(f)] == []
    assert [d for d in ("/usr/share/doc/previewd",) if os.path.exists(d)] == []
    assert run("dpkg-query", "-W", "-f", "${Status}", "previewd").stdout in ("", "unknown ok not-installed")
