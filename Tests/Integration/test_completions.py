"""Completions load in bash, zsh and fish and complete subcommands."""
import subprocess

from conftest import PREVIEWCTL


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
