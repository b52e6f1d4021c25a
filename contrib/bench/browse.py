#!/usr/bin/python3
"""API requests of a typical browse session (search, open an album, queue it,
go back) with the catalog cache on and off, and of Listen Now (`catalognow`)
cold and warm with a saved album and a wanted track. Prints figures only."""
import sys, json, time, subprocess, os, tempfile
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
import catalog
from conftest import Client
from urllib.request import urlopen
srv = catalog.serve(); http = f"http://127.0.0.1:{srv.server_port}"
for ttl in ("600", "0"):
    tmp = tempfile.mkdtemp(); sock = tmp + "/s"
    p = subprocess.Popen([os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug"), "previewd"), "--socket", sock, "--output", "null", "--api-base", http + "/api",
                          "--state-dir", tmp, "--catalog-cache-ttl", ttl], stderr=subprocess.DEVNULL)
    while not os.path.exists(sock): time.sleep(0.01)
    time.sleep(0.1)
    c = Client(sock)
    before = json.load(urlopen(http + "/_control/count"))["api_requests"]
    for line in ['catalogsearch albums "daft punk"', "cataloginfo deezer:album:302127", "lsinfo deezer:album:302127",
                 "add deezer:album:302127", 'catalogsearch albums "daft punk"', "cataloginfo deezer:album:302127", "lsinfo deezer:album:302127"]:
        assert c.cmd(line)[-1] == "OK"
    after = json.load(urlopen(http + "/_control/count"))["api_requests"]
    print(f"cache ttl {ttl}: {after - before} API requests for the browse session")
    assert c.cmd("libraryadd deezer:album:302127")[-1] == "OK" and c.cmd("wantadd deezer:track:3135556")[-1] == "OK"
    counts = []
    for _ in range(2):
        before = json.load(urlopen(http + "/_control/count"))["api_requests"]
        assert c.cmd("catalognow")[-1] == "OK"
        counts.append(json.load(urlopen(http + "/_control/count"))["api_requests"] - before)
    print(f"cache ttl {ttl}: Listen Now {counts[0]} API requests cold, {counts[1]} warm")
    p.terminate(); p.wait()
