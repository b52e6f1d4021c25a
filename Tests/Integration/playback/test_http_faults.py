"""HTTP faults from a loopback server built for it: each gives its documented
outcome (plays, plays partially, or is skipped with a reason naming the
fault), the daemon stays up, and the next song plays."""
import gzip
import os
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import catalog
from helpers import MANIFEST, md5, wait_for, wait_status, wav_pcm

with open(os.path.join(catalog.CORPUS, "preview-02.mp3"), "rb") as f:
    MP3 = f.read()


SERVED = set()  # paths that answer differently the second time


class Faults(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def head(self, status=200, ctype="audio/mpeg", length=None, extra=()):
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        if length is not None:
            self.send_header("Content-Length", str(length))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()

    def body(self, data, ctype="audio/mpeg", status=200, extra=()):
        self.head(status, ctype, len(data), extra)
        self.wfile.write(data)

    def do_GET(self):
        p = self.path
        if p == "/status/503-once":  # overloaded for a second, then fine
            if p not in SERVED:
                SERVED.add(p)
                return self.body(b"<html>busy</html>", "text/html", 503, [("Retry-After", "1")])
            return self.body(MP3, "audio/mpeg")
        if p.startswith("/status/"):
            code = int(p.split("/")[2])
            extra = [("Retry-After", "1")] if code == 503 else []
            return self.body(b"<html>no</html>", "text/html", code, extra)
        if p == "/trickle":  # 1 KB/s, never quite stalling
            self.head(length=len(MP3))
            for i in range(0, len(MP3), 100):
                self.wfile.write(MP3[i:i + 100])
                self.wfile.flush()
                time.sleep(0.1)  # fixed: the stand-in's slow rate is the fault simulated
            return
        if p == "/endless":  # a radio-like stream: the MP3 over and over, no length
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.end_headers()
            while True:
                self.wfile.write(MP3)
        if p == "/html":
            return self.body(b"<!doctype html><html><body>" + b"x" * 5000 + b"</body></html>", "text/html")
        if p == "/plain":
            return self.body(MP3, "text/plain")
        if p.startswith("/type/"):
            kind = {"audio-mpeg": "audio/mpeg", "audio-mp3": "audio/mp3", "octet": "application/octet-stream",
                    "none": None}[p.split("/")[2]]
            return self.body(MP3, kind)
        if p == "/reset":  # half the body, then a reset
            self.head(length=len(MP3))
            self.wfile.write(MP3[:len(MP3) // 2])
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            return
        if p == "/short":  # Content-Length promises more than comes
            self.head(length=len(MP3) + 10000)
            self.wfile.write(MP3)
            self.wfile.flush()
            self.close_connection = True
            return
        if p == "/long":  # more bytes than Content-Length: only those count
            self.head(length=len(MP3))
            self.wfile.write(MP3 + b"\0" * 5000)
            self.close_connection = True
            return
        if p == "/stall":
            self.head(length=len(MP3))
            self.wfile.write(MP3[:100000])
            self.wfile.flush()
            time.sleep(8)  # fixed: the stand-in's stall is the fault simulated
            self.close_connection = True
            return
        if p == "/gzip":
            return self.body(gzip.compress(MP3), "audio/mpeg", extra=[("Content-Encoding", "gzip")])
        if p == "/chunked":
            self.head(extra=[("Transfer-Encoding", "chunked")])
            for i in range(0, len(MP3), 7000):
                chunk = MP3[i:i + 7000]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
            return
        if p.startswith("/redirect/"):
            n = int(p.split("/")[2])
            return self.redirect(f"/redirect/{n - 1}" if n > 1 else "/type/audio-mpeg")
        if p == "/loop":
            return self.redirect("/loop")
        if p == "/to-file":
            return self.redirect("file:///etc/passwd")
        if p == "/to-ftp":
            return self.redirect("ftp://127.0.0.1/x.mp3")
        self.body(b"not found", "text/plain", 404)

    def redirect(self, where):
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture(scope="module")
def faults():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Faults)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


REF_02 = MANIFEST["preview-02.mp3"]
REF_01 = MANIFEST["preview-01.mp3"]

CASES = {  # path -> (outcome, error text the status shows, or None)
    "/type/audio-mpeg": ("plays", None),
    "/type/audio-mp3": ("plays", None),
    "/type/octet": ("plays", None),
    "/type/none": ("plays", None),
    "/gzip": ("plays", None),
    "/chunked": ("plays", None),
    "/long": ("plays", None),
    "/redirect/3": ("plays", None),
    "/status/403": ("skipped", "HTTP status 403"),
    "/status/404": ("skipped", "HTTP status 404"),
    "/status/410": ("skipped", "HTTP status 410"),
    "/status/500": ("skipped", "HTTP status 500"),
    # Retry-After is waited out once (at most 10 s), then the song is skipped.
    "/status/503": ("skipped", "HTTP status 503 (retry after 1 s)"),
    "/status/503-once": ("plays", None),
    "/html": ("skipped", "not audio: the server sent text/html"),
    "/plain": ("skipped", "not audio: the server sent text/plain"),
    "/loop": ("skipped", "network error: Number of redirects hit maximum amount"),
    "/to-file": ("skipped", "network error: redirected to a URL that is not http or https; refused"),
    "/to-ftp": ("skipped", "network error: redirected to a URL that is not http or https; refused"),
    "/reset": ("partial", "network error:"),
    # Every MP3 byte arrived, then the connection closed short of Content-Length:
    # all of it plays, and the error still names the fault.
    "/short": ("whole", "network error: Transferred a partial file"),
    "/stall": ("partial", "network error: no data for 2 s"),
    # Bytes keep coming, too slowly to play: judged by the total wait.
    # (At 1 KB/s the first 2 s may not even hold a whole frame after the tag.)
    "/trickle": ("at most partial", "network error: too slow ("),
}


@pytest.mark.parametrize("path", sorted(CASES))
def test_http_fault(daemon_factory, http, faults, path):
    outcome, error = CASES[path]
    d = daemon_factory(extra=("--stream-timeout", "2"))
    c = d.client()
    assert c.cmd(f'add "{faults}{path}"') == ["OK"]
    assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]
    st = d.wait_state(c, "stop", timeout=30)
    assert c.cmd("ping") == ["OK"]
    _, _, _, pcm = wav_pcm(d.wav)
    n01 = int(REF_01["pcm_frames"]) * 4
    assert md5(pcm[-n01:]) == REF_01["pcm_md5_s16"]  # the next song played, whole
    before = pcm[:-n01]
    if outcome == "plays":
        assert md5(before) == REF_02["pcm_md5_s16"]
        assert "error" not in st, st["error"]
    elif outcome == "skipped":
        assert before == b""
        assert st["error"].startswith(f"{faults}{path}: {error}"), st["error"]
    elif outcome == "whole":
        assert md5(before) == REF_02["pcm_md5_s16"]
        assert st["error"].startswith(f"{faults}{path}: {error}"), st["error"]
    elif outcome == "at most partial":
        assert len(before) < int(REF_02["pcm_frames"]) * 4
        assert st["error"].startswith(f"{faults}{path}: {error}"), st["error"]
    else:
        assert 0 < len(before) < int(REF_02["pcm_frames"]) * 4
        assert st["error"].startswith(f"{faults}{path}: {error}"), st["error"]


def test_an_endless_body_plays_like_a_radio_stream_until_skipped(daemon_factory, http, faults):
    d = daemon_factory(output="null", pace="realtime")
    c = d.client()
    assert c.cmd(f'add "{faults}/endless"') == ["OK"]
    assert c.cmd(f'add "{http}/corpus/preview-01.mp3"') == ["OK"]
    assert c.cmd("play") == ["OK"]

    def past_2_5_s_or_ended():
        st = c.fields("status")
        return st if (st["state"], st.get("song")) != ("play", "0") or float(st.get("elapsed", 0)) >= 2.5 else None
    st = wait_for(past_2_5_s_or_ended, timeout=15, what="2.5 s of the endless body played")
    assert (st["state"], st["song"]) == ("play", "0")
    assert float(st["elapsed"]) > 1.5
    assert c.cmd("next") == ["OK"]  # at once: the duration comes with the first audio
    st = wait_status(c, "duration", timeout=5)
    assert (st["state"], st["song"], st["duration"]) == ("play", "1", "30.000")
    assert "error" not in st
