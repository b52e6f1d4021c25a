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


def swift_files(folder):
    for parent, _, names in os.walk(os.path.join(ROOT, "Sources", folder)):
        yield from (os.path.join(parent, n) for n in names if n.endswith(".swift"))


def imports(folder):
    """The modules the Swift files under Sources/FOLDER import."""
    found = set()
    for path in swift_files(folder):
        with open(path, encoding="utf-8") as f:
            found |= set(re.findall(r"^(?:@testable )?import (\w+)", f.read(), re.M))
    return found


def test_no_target_is_over_5000_lines():
    """Issue 46: a target a newcomer can hold in mind."""
    sizes = {t: sum(sum(1 for _ in open(p, encoding="utf-8")) for p in swift_files(t))
             for t in os.listdir(os.path.join(ROOT, "Sources")) if t.startswith("Preview")}
    assert {t: n for t, n in sizes.items() if n > 5000} == {}
    assert sizes["PreviewCore"] > 1000, sizes  # the count does read the code


# Each program's code is in its own target; the core imports no other
# target, and previewctl links no daemon or web code.
@pytest.mark.parametrize("folder,allowed", [
    ("PreviewCore", {"Glibc", "Synchronization"}),
    ("PreviewControl", {"PreviewCore"}),
    ("previewctl", {"PreviewControl", "PreviewClient", "PreviewCore", "PreviewPlatform", "Glibc"}),
    ("PreviewClient", {"PreviewCore", "PreviewPlatform"}),
    ("PreviewWeb", {"PreviewControl", "PreviewClient", "PreviewCore", "PreviewPlatform", "PreviewHTTP", "Glibc", "Synchronization",
                    "FoundationEssentials"}),
    ("PreviewHTTP", {"PreviewCore", "PreviewPlatform", "CMicrohttpd", "CZlib", "Glibc", "Synchronization", "Dispatch"}),
    ("PreviewDBus", {"PreviewPlatform", "CSystemd", "Glibc"}),
])
def test_each_program_imports_only_its_own_and_the_shared_targets(folder, allowed):
    assert imports(folder) - allowed == set()
