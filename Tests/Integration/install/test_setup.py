"""contrib/setup: the run set alone unless the tests' set is asked for
(issue 47). `--simulate` asks apt what it would install on a machine that
has none of the packages (an empty package status), dependencies
included, so the answer is the same on any machine."""
import os
import re
import subprocess

from helpers import ROOT

SETUP = os.path.join(ROOT, "contrib", "setup")


def would_install(*args):
    p = subprocess.run([SETUP, "--simulate", *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return {m.group(1) for m in re.finditer(r"^Inst (\S+) ", p.stdout, re.M)}


def test_the_run_set_brings_no_test_tool_and_the_tests_set_does():
    run = would_install()
    # What running needs, and nothing the tests alone use (not even as a
    # dependency of something else).
    assert {"libmpg123-dev", "libpulse-dev", "libcurl4-openssl-dev", "pulseaudio", "curl", "iso-codes"} <= run
    assert {"chromium", "chromium-driver", "mpd", "cantata", "ncmpcpp", "snapserver", "pipewire", "ffmpeg", "lintian"} & run == set()
    tests = would_install("--tests")
    assert {"chromium", "mpd", "cantata", "snapserver", "lintian", "debhelper"} <= tests
    assert run < tests


def test_a_wrong_option_is_a_usage_error():
    p = subprocess.run([SETUP, "--frob"], capture_output=True, text=True)
    assert (p.returncode, p.stderr) == (64, 'setup: unknown option "--frob". See contrib/setup --help\n')
