"""The page's code as files (issue 44): its ES modules pass TypeScript's
checker (`tsc --checkJs`, Debian's node-typescript) and node's syntax check,
and a broken copy fails both; previewweb serves exactly those files, gzipped
to a browser that accepts it, under a versioned path kept for good."""
import gzip
import html.parser
import os
import re
import shutil
import subprocess

import pytest

from helpers import ROOT

PAGE = os.path.join(ROOT, "Sources", "PreviewWeb", "Page")
MODULES = sorted(f for f in os.listdir(os.path.join(PAGE, "js")) if f.endswith(".js"))


def tsc(config):
    return subprocess.run(["tsc", "-p", config], capture_output=True, text=True, timeout=300)


def test_the_modules_pass_tsc_check_js():
    r = tsc(os.path.join(ROOT, "Tests", "Web", "tsconfig.json"))
    assert (r.returncode, r.stdout) == (0, "")


@pytest.mark.parametrize("name", MODULES)
def test_each_module_parses_as_an_es_module(name):
    with open(os.path.join(PAGE, "js", name), "rb") as source:
        r = subprocess.run(["node", "--check", "--input-type=module"], stdin=source, capture_output=True, timeout=60)
    assert (r.returncode, r.stderr) == (0, b"")


def test_a_broken_module_fails_both_checks(tmp_path):
    """The checks can fail: a module with an unknown name and one with a syntax error."""
    shutil.copytree(os.path.join(PAGE, "js"), tmp_path / "js")
    (tmp_path / "js" / "queue.js").write_text((tmp_path / "js" / "queue.js").read_text().replace("records(", "recrods(", 1))
    (tmp_path / "tsconfig.json").write_text(open(os.path.join(ROOT, "Tests", "Web", "tsconfig.json")).read()
                                           .replace("../../Sources/PreviewWeb/Page/js/*.js", "js/*.js"))
    r = tsc(str(tmp_path / "tsconfig.json"))
    assert r.returncode != 0 and "Cannot find name 'recrods'" in r.stdout, r.stdout
    r = subprocess.run(["node", "--check", "--input-type=module"], input="export function f( {", capture_output=True,
                       text=True, timeout=60)
    assert r.returncode != 0 and "SyntaxError" in r.stderr


def without_comment_lines(source):
    """What previewweb serves of a style sheet or module: its lines but the
    comment lines, without indentation (`WebAssets.withoutCommentLines`,
    the same rule)."""
    kept, in_comment = [], False
    for line in source.decode().split("\n"):
        text = line.lstrip(" \t")
        if in_comment:
            in_comment = "*/" not in text
        elif text.startswith("//"):
            continue
        elif text.startswith("/*"):
            if "*/" not in text:
                in_comment = True
            elif text[text.index("*/") + 2:].strip(" "):
                kept.append(text)
        else:
            kept.append(text)
    return "\n".join(kept).encode()


class Links(html.parser.HTMLParser):
    """The addresses a page's <link href> and <script src> name."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("link", "script") and (a.get("href") or a.get("src")):
            self.found.append((tag, a.get("rel") or a.get("type"), a.get("href") or a.get("src")))


def test_previewweb_serves_the_files_versioned_and_gzipped(site):
    _, w = site
    status, headers, page = w.request("GET", "/", {"Accept-Encoding": "identity"})
    assert status == 200 and headers["Cache-Control"] == "no-store" and "Content-Encoding" not in headers
    links = Links()
    links.feed(page)
    versions = {re.match(r"/v/([0-9a-f]{16})/", path)[1] for _, _, path in links.found if path.startswith("/v/")}
    assert len(versions) == 1, links.found
    version = versions.pop()
    served = {path: kind for _, kind, path in links.found if path.startswith("/v/")}
    # The first view's modules are preloaded; the detail pages', the queue's, a live redraw's and the menus' load when needed.
    lazy = {"detail.js", "queue.js", "keep.js", "menu.js"}
    expected = {f"/v/{version}/app.css": "stylesheet", f"/v/{version}/js/shell.js": "module",
                **{f"/v/{version}/js/{m}": "modulepreload" for m in MODULES if m != "shell.js" and m not in lazy}}
    assert served == expected
    assert "Content-Security-Policy" in headers
    for path in list(served) + [f"/v/{version}/js/{m}" for m in lazy]:
        plain = w.raw("GET", path)
        zipped = w.raw("GET", path, {"Accept-Encoding": "gzip, deflate, br"})
        with open(os.path.join(PAGE, path.split("/", 3)[3]), "rb") as f:
            source = without_comment_lines(f.read())
        assert (plain[0], plain[2]) == (200, source) and "Content-Encoding" not in plain[1]
        assert zipped[1]["Content-Encoding"] == "gzip" and gzip.decompress(zipped[2]) == source
        # gzip's header and table weigh on a file under 1 KB (keep.js): smaller is all it can be there.
        assert len(zipped[2]) < (len(source) / 2 if len(source) >= 1024 else len(source)), \
            f"{path}: {len(zipped[2])} of {len(source)} bytes"
        if path.endswith(".js"):
            r = subprocess.run(["node", "--check", "--input-type=module"], input=source, capture_output=True, timeout=60)
            assert (r.returncode, r.stderr) == (0, b""), path
        for answer in (plain, zipped):
            assert answer[1]["Cache-Control"] == "public, max-age=31536000, immutable"
            assert answer[1]["Vary"] == "Accept-Encoding"
            assert "Content-Security-Policy" not in answer[1], "a policy is for documents"
    # q=0 refuses gzip; another version's path is no file.
    assert "Content-Encoding" not in w.raw("GET", f"/v/{version}/app.css", {"Accept-Encoding": "gzip;q=0"})[1]
    assert w.raw("GET", "/v/0000000000000000/app.css")[0] == 404
    assert w.raw("GET", "/app.js")[0] == 404


def test_large_api_answers_are_gzipped_small_ones_not(site):
    import json
    _, w = site
    plain = w.raw("GET", "/api/mpd?c=catalognow")
    zipped = w.raw("GET", "/api/mpd?c=catalognow", {"Accept-Encoding": "gzip"})
    assert plain[0] == zipped[0] == 200 and len(plain[2]) >= 1024
    assert "Content-Encoding" not in plain[1] and zipped[1]["Content-Encoding"] == "gzip"
    assert plain[1]["Vary"] == zipped[1]["Vary"] == "Accept-Encoding"
    assert json.loads(gzip.decompress(zipped[2])) == json.loads(plain[2])
    assert len(zipped[2]) < len(plain[2]) / 2, (len(zipped[2]), len(plain[2]))
    small = w.raw("GET", "/api/mpd?c=status", {"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small[1]
