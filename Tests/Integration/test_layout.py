"""The doors between targets are checked by the compiler (issue 31): code
outside PreviewPlayback, as a command handler is, cannot name the playback
owner's queue, player or streams; it reaches them through the verbs.
Each case type-checks a few lines against the debug build's modules, as a
file of another target of this package would be."""
import os
import re
import subprocess

import pytest

from helpers import ROOT

SWIFTC = "/opt/swift/usr/bin/swiftc" if os.path.exists("/opt/swift/usr/bin/swiftc") else "swiftc"
MODULES = os.path.join(ROOT, ".build", "debug", "Modules")


def package_name():
    """The -package-name SwiftPM gave the build (the checkout folder's name)."""
    with open(os.path.join(ROOT, ".build", "debug.yaml"), encoding="utf-8") as f:
        return re.search(r'"-package-name","([^"]+)"', f.read())[1]


def typecheck(tmp_path, body):
    """swiftc -typecheck of `body` in a file that imports the core and the
    playback target; (exit code, the error lines)."""
    source = tmp_path / "Handler.swift"
    source.write_text("import PreviewCore\nimport PreviewPlayback\n\n"
                      "func handler(_ c: PlayerController) throws {\n" + body + "\n}\n")
    r = subprocess.run([SWIFTC, "-typecheck", "-package-name", package_name(), "-I", MODULES,
                        "-I", os.path.join(ROOT, "Sources", "CSQLite"), "-I", os.path.join(ROOT, "Sources", "CMalloc"),
                        str(source)], capture_output=True, text=True, timeout=120)
    return r.returncode, re.findall(r"error: (.*)", r.stderr)


@pytest.mark.parametrize("member", ["queue", "player", "streams"])
def test_outside_the_playback_target_its_state_cannot_be_named(tmp_path, member):
    code, errors = typecheck(tmp_path, f"    _ = c.{member}")
    assert code != 0
    assert f"'{member}' is inaccessible due to 'internal' protection level" in errors


def test_the_verbs_are_what_it_offers(tmp_path):
    body = ("    _ = (c.queueLength, c.state, c.currentID)\n"
            "    try c.previous()\n"
            "    try c.seekCurrent(by: -5)\n"
            "    try c.setCrossfade(3)")
    assert typecheck(tmp_path, body) == (0, [])
