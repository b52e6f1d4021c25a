"""Completions load in bash, zsh and fish and complete subcommands and their arguments."""
import os
import subprocess

from helpers import PREVIEWCTL


def script(shell, tmp_path):
    p = subprocess.run([PREVIEWCTL, "completions", shell], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    path = tmp_path / f"previewctl.{shell}"
    path.write_text(p.stdout)
    return path


def test_bash(tmp_path):
    path = script("bash", tmp_path)
    out = subprocess.run(["bash", "-c", f'source {path}; COMP_WORDS=(previewctl pa); COMP_CWORD=1; _previewctl; '
                          'printf "%s\\n" "${COMPREPLY[@]}"'], capture_output=True, text=True)
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout.split() == ["pause", "pause-if-playing"]


def test_zsh(tmp_path):
    path = script("zsh", tmp_path)
    out = subprocess.run(["zsh", "-f", "-c", f"autoload -Uz compinit; compinit -u; source {path}; "
                          "print -r -- ${_comps[previewctl]}"], capture_output=True, text=True, env={"HOME": str(tmp_path)})
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout.strip() == "_previewctl"


def test_fish(tmp_path):
    path = script("fish", tmp_path)
    out = subprocess.run(["fish", "--no-config", "-c", f"source {path}; complete -C 'previewctl wan'"],
                         capture_output=True, text=True, env={"HOME": str(tmp_path)})
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout.splitlines() == ["want\tthe Want to Listen list"]


def test_unknown_shell():
    p = subprocess.run([PREVIEWCTL, "completions", "tcsh"], capture_output=True, text=True)
    assert p.returncode == 64
    assert p.stderr.startswith('previewctl: completions are for bash, zsh and fish, not "tcsh"')


def complete_in(shell_command, daemon, tmp_path):
    """Runs a shell line with the test's previewctl first on PATH and the daemon's socket."""
    env = dict(os.environ, PATH=os.path.dirname(PREVIEWCTL) + ":" + os.environ["PATH"], PREVIEWD_SOCKET=daemon.socket,
               HOME=str(tmp_path))
    out = subprocess.run(shell_command, capture_output=True, text=True, env=env)
    assert (out.returncode, out.stderr) == (0, "")
    return out.stdout


def test_arguments_complete_from_the_daemon_in_bash_zsh_and_fish(daemon, tmp_path):
    c = daemon.client()
    assert c.cmd("add deezer:album:302127") == ["OK"]
    assert c.cmd("save mine") == ["OK"] and c.cmd("save other") == ["OK"]
    assert daemon.ctl("want", "add", "deezer:album:302127").returncode == 0
    bash = script("bash", tmp_path)

    def in_bash(*words):
        line = " ".join(words)
        return complete_in(["bash", "-c", f"source {bash}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _previewctl; "
                            'printf "%s\\n" "${COMPREPLY[@]}"'], daemon, tmp_path).splitlines()
    assert in_bash("previewctl", "load", "m") == ["mine"]
    assert in_bash("previewctl", "play", "1") == ["1", "10", "11", "12", "13", "14"]
    assert in_bash("previewctl", "want", "rm", "d") == ["deezer:album:302127"]
    assert in_bash("previewctl", "random", "o") == ["on", "off"]
    # Genre names come quoted for the shell: "R&B" would end the command line.
    assert in_bash("previewctl", "chart", "--genre", "R") == ["Rap/Hip\\ Hop", "Rock", "R\\&B", "Reggae"]
    assert in_bash("previewctl", "he") == ["help"]
    fish = script("fish", tmp_path)
    assert complete_in(["fish", "--no-config", "-c", f"source {fish}; complete -C 'previewctl rmplaylist o'"],
                       daemon, tmp_path).splitlines() == ["other"]
    zsh = script("zsh", tmp_path)
    # zsh's completion needs a terminal to draw on; its helper call is what it completes from.
    assert complete_in(["zsh", "-f", "-c", f"source {zsh} 2>/dev/null; previewctl __complete playlist"],
                       daemon, tmp_path).splitlines() == ["mine", "other"]


def test_no_daemon_completes_nothing_quietly(tmp_path):
    p = subprocess.run([PREVIEWCTL, "--socket", str(tmp_path / "none"), "__complete", "load"],
                       capture_output=True, text=True)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
