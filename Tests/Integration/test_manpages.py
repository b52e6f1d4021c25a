"""The man pages previewd(1), previewctl(1) and previewweb(1): clean under
`man --warnings`, and naming every option and command the programs' own
help lists."""
import os
import re
import subprocess

import pytest

from helpers import PREVIEWCTL, PREVIEWD

MAN = os.path.join(os.path.dirname(__file__), "..", "..", "contrib", "man")


def source(page):
    """The page's roff source, with roff's escaped hyphens as plain ones."""
    with open(os.path.join(MAN, page), encoding="utf-8") as f:
        return f.read().replace("\\-", "-")


@pytest.mark.parametrize("page", ["previewd.1", "previewctl.1", "previewweb.1"])
def test_page_renders_without_warnings(page):
    r = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", os.path.join(MAN, page)],
                       capture_output=True, text=True, env=dict(os.environ, MANWIDTH="80"))
    assert (r.returncode, r.stderr) == (0, "")
    text = re.sub(".\b", "", r.stdout)  # without the overstrikes of bold and underline
    assert "EXIT STATUS" in text and "ENVIRONMENT" in text and "EXAMPLES" in text


def test_previewd_page_names_every_option_of_its_help():
    help_text = subprocess.run([PREVIEWD, "--help"], capture_output=True, text=True, check=True).stdout
    options = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", help_text)))
    assert len(options) > 20, options
    page = source("previewd.1")
    assert [o for o in options if f"B {o}" not in page and f"BI {o}" not in page and f"BR {o}" not in page] == []


def test_previewweb_page_names_every_option_of_its_usage():
    usage = subprocess.run([os.path.join(os.path.dirname(PREVIEWD), "previewweb"), "--frob"], capture_output=True,
                           text=True).stderr
    options = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", usage)) - {"--frob"})
    assert options == ["--cache-dir", "--listen", "--password-file", "--socket"], usage
    page = source("previewweb.1")
    assert [o for o in options if f"BI {o}" not in page] == []


def test_previewd_page_names_every_settings_file_key():
    page = source("previewd.1")
    r = subprocess.run([PREVIEWD, "--print-config"], capture_output=True, text=True, check=True,
                       env=dict(os.environ, XDG_CONFIG_HOME="/nonexistent"))
    keys = sorted({line.split(" = ")[0] for line in r.stdout.splitlines() if " = " in line and not line.startswith("#")})
    assert [k for k in keys if f"--{k}" not in page] == []


def test_previewctl_page_names_every_command():
    script = subprocess.run([PREVIEWCTL, "completions", "bash"], capture_output=True, text=True, check=True).stdout
    words = re.search(r'compgen -W "([^"]+)"', script)[1].split()
    commands = [w for w in words if not w.startswith("-")]
    assert len(commands) > 40, commands
    page = source("previewctl.1")
    # Each command is set in bold where the page describes it.
    assert [c for c in commands if not re.search(rf'^\.B[IR]? "?{re.escape(c)}\b|\| "? ?{re.escape(c)}\b| " {re.escape(c)}\b',
                                                 page, re.M)] == []
    for option in ["--socket", "--help", "--json", "--format", "--interval", "--add", "--play", "--limit", "--page"]:
        assert option in page, option


def test_previewctl_page_commands_are_the_ones_previewctl_parses():
    """The COMMANDS section is previewctl's own table (`previewctl __man`,
    written by contrib/man/update): no command missing, none extra."""
    section = subprocess.run([PREVIEWCTL, "__man"], capture_output=True, text=True, check=True).stdout
    section = section.replace("\\-", "-")
    page = source("previewctl.1")
    start, end = page.index(".SH COMMANDS\n"), page.index(".SH EXIT STATUS\n")
    assert page[start:end] == section
    script = subprocess.run([PREVIEWCTL, "completions", "bash"], capture_output=True, text=True, check=True).stdout
    completed = [w for w in re.search(r'compgen -W "([^"]+)"', script)[1].split() if not w.startswith("-")]
    in_page = re.findall(r'^\.B "([a-z-]+)', section, re.M)
    assert sorted(set(in_page)) == sorted(completed)
