"""The man pages previewd(1), previewctl(1) and previewweb(1): clean under
`man --warnings`, and naming every option and command the programs' own
help lists."""
import os
import re
import subprocess

import pytest

from helpers import PREVIEWCTL, PREVIEWD, ROOT

MAN = os.path.join(ROOT, "contrib", "man")


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
    assert options == ["--cache-dir", "--help", "--listen", "--password-file", "--socket", "--version"], usage
    page = source("previewweb.1")
    # An option with a value is a .BI entry, a switch a .B one.
    assert [o for o in options if f"BI {o} " not in page and f"B {o}\n" not in page] == []


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


def man_options(page):
    """(synopsis) of each entry of a page's OPTIONS section, in order, roff
    set aside: `.BI \\-\\-prefetch " N"` is `--prefetch N`."""
    section = page[page.index(".SH OPTIONS\n"):]
    section = section[:section.index("\n.SH ", 5)]
    entries = []
    for head in re.findall(r"^\.TP\n\.B[IR]? (.*)$", section, re.M):
        text = re.sub(r"\\f[BIRP]", "", head).replace("\\-", "-")
        # Quoted pieces are words of their own; alternating fonts join the rest.
        words = re.findall(r'"([^"]*)"|(\S+)', text)
        entries.append(re.sub(r"\s+", " ", "".join(a or b for a, b in words)).strip())
    return entries


def test_previewd_options_agree_everywhere():
    """One declaration (DaemonOptionTable.swift) makes --help, the settings
    file's keys, --print-config and the completions; the man page's OPTIONS
    are checked against it here: the same options, in the same order, with
    the same value placeholders."""
    help_text = subprocess.run([PREVIEWD, "--help"], capture_output=True, text=True, check=True).stdout
    synopses = [line.split("  ")[1].strip() for line in help_text.splitlines() if line.startswith("  --")]
    assert len(synopses) > 25, help_text
    assert man_options(source("previewd.1")) == synopses
    names = [s.split()[0].rstrip(",") for s in synopses]
    actions = {"--config", "--print-config", "--completions", "--help", "--version"}
    # Every setting is a settings file key, and --print-config shows each one
    # (hooks only when there are some).
    printed = subprocess.run([PREVIEWD, "--print-config", "--on-event", "true"], capture_output=True, text=True, check=True,
                             env=dict(os.environ, XDG_CONFIG_HOME="/nonexistent")).stdout
    shown = {line.split(":")[0][2:] for line in printed.splitlines()[1:] if line.startswith("# ")}
    assert sorted("--" + k for k in shown) == sorted(set(names) - actions)
    # A file may set each setting and none of the actions.
    for name in names:
        r = subprocess.run([PREVIEWD, "--config", "/dev/stdin", "--print-config"], input=f"{name[2:]} = x\n",
                           capture_output=True, text=True)
        unknown = f'unknown key "{name[2:]}"' in r.stderr
        assert unknown == (name in actions), (name, r.stderr)
    # The completions of each shell offer exactly these options.
    bash = subprocess.run([PREVIEWD, "--completions", "bash"], capture_output=True, text=True, check=True).stdout
    assert re.search(r'compgen -W "(--[^"]+)" -- "\$cur"\)\)\n}', bash)[1].split() == names
    zsh = subprocess.run([PREVIEWD, "--completions", "zsh"], capture_output=True, text=True, check=True).stdout
    assert re.findall(r"^    '(--[a-z-]+)\[", zsh, re.M) == names
    fish = subprocess.run([PREVIEWD, "--completions", "fish"], capture_output=True, text=True, check=True).stdout
    assert ["--" + n for n in re.findall(r"^complete -c previewd -l ([a-z-]+)", fish, re.M)] == names
    r = subprocess.run([PREVIEWD, "--completions", "tcsh"], capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (64, 'previewd: --completions takes bash, zsh or fish, not "tcsh"\n')


def test_one_version_everywhere():
    """Version.swift sets it; the programs print it, each man page's .TH and
    debian/changelog's top entry (less the Debian revision) say the same."""
    version = re.search(r'previewVersion = "([^"]+)"',
                        open(os.path.join(ROOT, "Sources", "PreviewCore", "Support", "Version.swift")).read()).group(1)
    bin_dir = os.path.dirname(PREVIEWD)
    printed = [subprocess.run([os.path.join(bin_dir, p), *a], capture_output=True, text=True).stdout
               for p, a in (("previewd", ["--version"]), ("previewctl", ["version"]), ("previewweb", ["--version"]))]
    assert printed == [f"previewd {version}\n", f"previewctl {version}\n", f"previewweb {version}\n"]
    for page in ("previewd.1", "previewctl.1", "previewweb.1"):
        assert f'"previewd {version}"' in source(page).splitlines()[0], page
    top = open(os.path.join(ROOT, "debian", "changelog")).readline()
    assert re.match(rf"^previewd \({re.escape(version)}-\d+\) ", top), top
