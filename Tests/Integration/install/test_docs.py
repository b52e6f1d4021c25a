"""The protocol reference cannot drift from the command table: every
command the daemon lists (`commands`, made from Commands.list) is
documented in docs/protocol.md, the README stays a short tour, and
ARCHITECTURE.md's figures follow the code."""
import os
import re
import subprocess

from helpers import ROOT


def test_every_command_the_daemon_answers_is_in_the_protocol_reference(daemon):
    lines = daemon.client().cmd("commands")
    assert lines[-1] == "OK"
    names = [line.split(": ", 1)[1] for line in lines[:-1]]
    assert len(names) == 124, names
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as f:
        reference = f.read()
    assert [n for n in names if not re.search(r"`" + re.escape(n) + r"[ `]", reference)] == []


def test_the_readme_is_a_short_tour_with_the_two_commands():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert len(readme.splitlines()) <= 200
    assert "\n    contrib/demo\n" in readme and "\n    contrib/test\n" in readme
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        assert "exec contrib/test" in f.read()


def test_architecture_s_line_counts_follow_the_code():
    """ARCHITECTURE.md's lines of Swift per target are within 100 of the
    code's (contrib/architecture-figures --write rewrites them)."""
    r = subprocess.run([os.path.join(ROOT, "contrib", "architecture-figures"), "--check"],
                       capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
