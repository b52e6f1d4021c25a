"""What the benchmark scripts share: the checkout's root, the integration
tests' helpers on the import path (the loopback catalog stand-in), and the
command line `[BIN_DIR] [--NAME N ...]`."""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))


def arguments(**defaults):
    """(BIN_DIR, {name: int}) from sys.argv: `--runs 5` sets defaults["runs"],
    `--delay-ms 0` sets defaults["delay_ms"]; BIN_DIR defaults to the
    release build."""
    argv = sys.argv[1:]
    values = dict(defaults)
    for name in defaults:
        flag = "--" + name.replace("_", "-")
        if flag in argv:
            i = argv.index(flag)
            values[name] = int(argv[i + 1])
            del argv[i:i + 2]
    return (argv[0] if argv else os.path.join(ROOT, ".build", "release")), values
