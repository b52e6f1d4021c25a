"""The loopback stand-in for the Deezer API and CDN used by every test.

Serves ../shared/fixtures/deezer under /api (preview URLs rewritten to this
server, signed with an expiry 15 minutes ahead like Deezer's), corpus files
under /corpus, previews under /preview/ID.mp3, and a small control surface
under /_control for fault injection and request logs.
"""
import hashlib
import json
import os
import re
import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("PREVIEWD_SHARED") or os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared"))
FIXTURES = os.path.join(SHARED, "fixtures", "deezer")
CORPUS = os.path.join(SHARED, "corpus", "mp3")
PREVIEWS = sorted(f for f in os.listdir(CORPUS) if f.startswith("preview-")) if os.path.isdir(CORPUS) else []
NO_DATA = {"error": {"type": "DataException", "message": "no data", "code": 800}}


def png_cover(path):
    """The web tests' stand-in image for a cover URL path: a 160x160 PNG, a
    diagonal blend of two colours from the path's hash. No image body was
    recorded (Deezer's are JPEG); a browser must be able to draw this one."""
    digest = hashlib.sha256(path.encode()).digest()
    first, second, size = digest[0:3], digest[3:6], 160
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            t = (x + y) / (2 * size - 2)
            rows.extend(int(a + (b - a) * t) for a, b in zip(first, second))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b""))


def cover_bytes(path):
    """The stand-in image served for a cover URL path (about 12 KiB, JPEG markers)."""
    return b"\xff\xd8\xff\xe0" + hashlib.sha256(path.encode()).digest() * 400 + b"\xff\xd9"


SEARCHES = {  # endpoint -> [(words all present in the lower-cased query, fixture)]
    "track": [
        (("not afraid", "eminem"), "search-advanced-not-afraid-artist-eminem-index10-limit15.json"),
        (("not afraid",), "search-not-afraid-strict-on.json"),
        (("billy jean",), "search-billy-jean-index1-limit4.json"),
        (("eminem",), "search-eminem.json"),
    ],
    "album": [
        (("king", "eminem"), "search-album-king-artist-eminem-order-rating-desc.json"),
        (("daft punk",), "search-album-daft-punk.json"),
    ],
    "artist": [
        (("daft punk",), "search-artist-daft-punk.json"),
        (("cat",), "search-artist-cat-order-artist-desc.json"),
    ],
    "playlist": [
        (("daft punk",), "search-playlist-daft-punk.json"),
    ],
    "radio": [
        (("electro",), "search-radio-electro.json"),
        (("daft punk",), "search-radio-daft-punk-limit1-no-results.json"),
    ],
}


def preview_file_for(track_id):
    """The corpus preview served for a track id (stable, spread over all nine)."""
    return PREVIEWS[abs(int(track_id)) % len(PREVIEWS)]


def _load(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
        return json.load(f)


def _index_tracks():
    """Every track object in any fixture, by id (for /track/ID synthesis)."""
    tracks = {}

    def walk(node, album=None):
        if isinstance(node, dict):
            if node.get("type") == "track" and "id" in node and "title" in node:
                t = dict(node)
                if album and "album" not in t:
                    t["album"] = album
                tracks.setdefault(t["id"], t)
            alb = album
            if node.get("type") == "album" and "title" in node:
                alb = {"id": node["id"], "title": node["title"], "type": "album"}
            for v in node.values():
                walk(v, alb)
        elif isinstance(node, list):
            for v in node:
                walk(v, album)

    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith(".json") and not name.startswith("error"):
            # An album's track listing names no album in its entries; Deezer's
            # own /track/ID bodies always carry it (see track-3135556.json).
            m = re.fullmatch(r"album-(\d+)-tracks.*\.json", name)
            album = None
            if m and os.path.exists(os.path.join(FIXTURES, f"album-{m[1]}.json")):
                a = _load(f"album-{m[1]}.json")
                album = {"id": a["id"], "title": a["title"], "type": "album"}
            walk(_load(name), album)
    return tracks


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.log = []
        self.fail_once = {}  # track id -> HTTP status for the next preview fetch
        self.expiry = 900  # seconds of life given to signed preview URLs
        self.api_requests = 0  # /api requests answered, for rate and cache checks
        self.api_times = []  # monotonic arrival time of each /api request
        self.quota_left = 0  # the next N API requests answer "quota exceeded"
        self.faults = {}  # API path (or "/lastfm") -> "500" | "malformed" | "nocode" | "slow" | "deep" | "huge-title" | "escape-title" | "crlf-title" | "bidi-title", once
        self.padding = 0  # bytes of padding in every API answer (/_control/padding)
        self.slow_seconds = 0.0
        self.old_track = False  # serve the 2019 recording of /track/3135556
        self.delay = 0.0  # seconds every non-control response waits
        self.slow_rate = 0  # bytes/s for whole (non-Range) preview bodies; 0: full speed
        self.cut_at_expiry = False  # close a slow preview body once its URL expires
        self.ranges = []  # (path, Range header) of each ranged request
        self.sent = []  # [path, bytes written so far] of each slow preview body, in order (/_control/sent)
        self.range_shift = 0  # bytes added to a Range request's start when answering it
        self.content_range = None  # the Content-Range text of a 206 instead of the true one
        self.ignore_range = False  # answer Range requests with the whole body
        self.preview_files = {}  # track id -> path of the file served as its preview instead
        self.endless_album = None  # album id whose track list never ends (/_control/endless-album)
        self.endless_search = False  # every track search answers 3,000 a page, without end (/_control/endless-search)
        self.web = False  # the web tests' mode (/_control/web): PNG covers, synthetic_album()
        self.artist_lists = False  # artist_list() for artists without a recording (/_control/artist-lists)
        # Every recorded track by id; tests add to `tracks` (synthetic
        # albums, made-up chart entries), and a reset takes it back to this.
        self.recorded_tracks = _index_tracks()
        self.tracks = dict(self.recorded_tracks)


def _listed_albums():
    """Albums as the recorded listings show them (charts, editorial
    selections, searches), by id: title, covers, artist, record type."""
    albums = {}

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "album" and "id" in node and "cover_big" in node and "artist" in node:
                albums.setdefault(node["id"], node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith(".json") and not name.startswith("error"):
            walk(_load(name))
    return albums


LISTED_ALBUMS = _listed_albums()


def album_genre(album_id):
    """The Deezer genre id of an album as recorded: its /album/ID body's
    `genre_id`, else a recorded listing's; None where nothing recorded it
    (autoplay's bench counts the genres it reached with this)."""
    if os.path.exists(os.path.join(FIXTURES, f"album-{album_id}.json")):
        genre = _load(f"album-{album_id}.json").get("genre_id")
    else:
        genre = LISTED_ALBUMS.get(album_id, {}).get("genre_id")
    return genre if genre and genre > 0 else None


def synthetic_album(album_id):
    """The web tests' `/album/ID` where no body was recorded for that album
    but a recorded listing names it (only with /_control/web on). NOT a
    recording: the listing's own fields (title, covers, artist, record
    type) in the shape of album-302127.json, with five tracks in the shape
    of album-302127-tracks.json, titled "TITLE (preview N)", whose previews
    are the corpus's. Without it, the albums of Listen Now's carousels have
    no page in the stand-in."""
    listed = LISTED_ALBUMS.get(album_id)
    if listed is None:
        return None
    artist = {"id": listed["artist"]["id"], "name": listed["artist"]["name"], "type": "artist"}
    tracks = [{"id": 9_000_000_000 + album_id * 10 + n, "readable": True, "title": f"{listed['title']} (preview {n})",
               "title_short": f"{listed['title']} (preview {n})", "duration": 180 + n, "track_position": n,
               "disk_number": 1, "rank": 500000, "explicit_lyrics": False,
               "preview": f"https://cdnt-preview.dzcdn.net/api/1/1/synthetic/{album_id}/{n}.mp3", "artist": artist,
               "type": "track"} for n in range(1, 6)]
    body = {key: listed[key] for key in ("id", "title", "link", "cover", "cover_small", "cover_medium", "cover_big",
                                         "cover_xl", "md5_image", "record_type", "explicit_lyrics") if key in listed}
    body.update({"genre_id": listed.get("genre_id", 0), "genres": {"data": []}, "nb_tracks": len(tracks),
                 "duration": sum(t["duration"] for t in tracks), "fans": 0, "available": True, "artist": artist,
                 "type": "album", "tracks": {"data": tracks}})
    if "release_date" in listed:
        body["release_date"] = listed["release_date"]
    with STATE.lock:
        for t in tracks:
            STATE.tracks.setdefault(t["id"], dict(t, album={"id": album_id, "title": listed["title"], "type": "album"}))
    return body


STATE = State()
ROUTES = [
    (r"/album/(-?\d+)", lambda m, q: f"album-{m[1]}.json"),
    (r"/artist/(\d+)/albums", lambda m, q: f"artist-{m[1]}-albums-index{q['index'][0]}-last-page.json"
        if q.get("index", ["0"])[0] not in ("0", "") else f"artist-{m[1]}-albums.json"),
    (r"/radio/(\d+)/tracks", lambda m, q: f"radio-{m[1]}-tracks.json"),
    (r"/track/isrc:(\w+)", lambda m, q: f"track-isrc-{m[1]}.json"),
    (r"/genre", lambda m, q: "genre.json"),
    (r"/infos", lambda m, q: "infos.json"),
    (r"/album/(-?\d+)/tracks", lambda m, q: f"album-{m[1]}-tracks-index{q.get('index', ['0'])[0]}-empty-page.json"
        if q.get("index", ["0"])[0] not in ("0", "") else f"album-{m[1]}-tracks.json"),
    (r"/artist/(\d+)", lambda m, q: f"artist-{m[1]}.json"),
    (r"/artist/(\d+)/top", lambda m, q: f"artist-{m[1]}-top.json"),
    (r"/chart", lambda m, q: "chart.json"),
    (r"/chart/0/tracks", lambda m, q: "chart-0-tracks.json"),
    (r"/playlist/(\d+)", lambda m, q: f"playlist-{m[1]}.json"),
    (r"/playlist/(\d+)/tracks", lambda m, q: f"playlist-{m[1]}-tracks.json"),
]


# The discovery endpoints (issue 16): path -> fixture name. A list recorded
# with a `total` is paged as Deezer pages it (`index`, `limit` cut the
# recorded items; past them the page is empty); one recorded as `{data}`
# alone is served whole, whatever the query, as Deezer serves such lists.
DISCOVERY = [
    (r"/genre/(\d+)", lambda m, q: f"genre-{m[1]}.json"),
    (r"/genre/(\d+)/(radios|artists)", lambda m, q: f"genre-{m[1]}-{m[2]}-index0.json"
        if q.get("index") == ["0"] else f"genre-{m[1]}-{m[2]}.json"),
    (r"/chart/(\d+)", lambda m, q: f"chart-{m[1]}.json"),
    (r"/editorial", lambda m, q: "editorial.json"),
    (r"/editorial/(\d+)", lambda m, q: f"editorial-{m[1]}.json"),
    (r"/editorial/(\d+)/(selection|releases|charts)", lambda m, q: f"editorial-{m[1]}-{m[2]}.json"),
    (r"/radio", lambda m, q: "radio.json"),
    (r"/radio/(top|genres|lists)", lambda m, q: f"radio-{m[1]}.json"),
    (r"/radio/(\d+)", lambda m, q: f"radio-{m[1]}.json"),
    (r"/artist/(\d+)/(related|radio|playlists)", lambda m, q: f"artist-{m[1]}-{m[2]}.json"),
]


HUGE_TITLE = "Harder " * ((1 << 20) // 7) + "end"
HOSTILE_TITLE = "One\x1b]0;pwned\x07 More\x1b[2J Time\x9b2J\x7f"
# A title whose line breaks would forge a playlist line, a hook's record
# and an `events` field; and an artist with the other break forms.
CRLF_TITLE = "Evil\r\nhttp://127.0.0.1:9/injected.mp3\r\nstate=hacked\nfile: forged"
CRLF_ARTIST = "A\u2028B\u2029C\u0085D\rE\x0bF\x0cG"
# U+202E turns the rest of a line around on a terminal: "evil" then "3pm.exe" shows "evilexe.mp3".
BIDI_TITLE = "evil\u202e3pm.exe\u2066x\u2069\u200by\ufeff"


def deep_json(levels=100_000):
    """A hostile answer: an object whose value nests `levels` arrays (no
    recorded body is like it; Deezer's and Last.fm's nest a few levels)."""
    return b'{"data": ' + b"[" * levels + b"]" * levels + b"}"


# Deezer's "Top COUNTRY" chart playlists (previewd's DeezerCountryCharts),
# by alpha-2 code. No body of these was recorded: see country_chart_tracks.
COUNTRY_CHARTS = {"AU": 1313616925, "BR": 1111141961, "CA": 1652248171, "CO": 1116188451, "DE": 1111143121,
                  "ES": 1116190041, "FR": 1109890291, "GB": 1111142221, "IT": 1116187241, "JP": 1362508955,
                  "KR": 1362510315, "MX": 1111142361, "US": 1313621735}


def country_chart_tracks(playlist_id, query):
    """NOT A RECORDING: `/playlist/ID/tracks` for a country's chart playlist,
    which no fixture holds. It keeps the recorded shape of a playlist's
    track page ({data, total}, as playlist-9200461-tracks.json) and lists
    recorded track objects: those of playlist-908622995.json, rotated by
    the country's place in COUNTRY_CHARTS so each country's chart differs."""
    tracks = _load("playlist-908622995.json")["tracks"]["data"]
    shift = sorted(COUNTRY_CHARTS.values()).index(playlist_id) * 3
    return _paged({"data": tracks[shift:] + tracks[:shift], "total": len(tracks)}, query)


def artist_list(artist_id, kind, query):
    """NOT A RECORDING: `/artist/ID/top` and `/artist/ID/radio` for an
    artist no fixture recorded them for (only artist 27's were), served
    with /_control/artist-lists on (autoplay's tests, which follow one
    artist to the next). They keep the recorded shapes
    (artist-27-top.json: {data, total}; artist-27-radio.json: {data}) and
    list recorded track objects only: the top, the artist's own tracks
    from every fixture, by rank; the radio, those and, after them, 20
    tracks of other artists taken from the recorded tracks in id order,
    from a place the artist's id decides. None when nothing was recorded
    of the artist."""
    with STATE.lock:
        tracks = sorted(STATE.tracks.values(), key=lambda t: t["id"])
    own = sorted((t for t in tracks if t.get("artist", {}).get("id") == artist_id), key=lambda t: -t.get("rank", 0))
    if not own:
        return None
    if kind == "top":
        body = _paged({"data": own, "total": len(own)}, query)
    else:
        others = [t for t in tracks if t.get("artist", {}).get("id") != artist_id]
        start = (artist_id * 7919) % len(others)
        body = {"data": own[:5] + (others[start:] + others[:start])[:20]}
    return json.loads(json.dumps(body))  # the index's objects stay as recorded


def discovery_body(api, query):
    """The recorded body for a discovery endpoint, paged as described
    above; NO_DATA (Deezer's recorded answer) where nothing was recorded;
    None when `api` is no discovery endpoint."""
    m = re.fullmatch(r"/chart/(\d+)/(tracks|albums|artists|playlists)", api)
    if m:
        # `/chart/G/KIND` where only `/chart/G` was recorded: its KIND
        # section is what Deezer answered for that list.
        if os.path.exists(os.path.join(FIXTURES, f"chart-{m[1]}-{m[2]}.json")):
            body = _load(f"chart-{m[1]}-{m[2]}.json")
        elif os.path.exists(os.path.join(FIXTURES, f"chart-{m[1]}.json")):
            body = _load(f"chart-{m[1]}.json")[m[2]]
        else:
            return NO_DATA
        return _paged(body, query)
    m = re.fullmatch(r"/playlist/(\d+)/tracks", api)
    if m and int(m[1]) in COUNTRY_CHARTS.values():
        return country_chart_tracks(int(m[1]), query)
    m = re.fullmatch(r"/artist/(\d+)/albums", api)
    if m and query.get("limit") == ["1"] and "index" not in query:
        name = f"artist-{m[1]}-albums-limit1.json"
        return _load(name) if os.path.exists(os.path.join(FIXTURES, name)) else NO_DATA
    for pattern, name in DISCOVERY:
        m = re.fullmatch(pattern, api)
        if m:
            fname = name(m, query)
            if not os.path.exists(os.path.join(FIXTURES, fname)):
                return NO_DATA
            return _paged(_load(fname), query)
    return None


def _paged(body, query):
    if "total" not in body or not isinstance(body.get("data"), list):
        return body
    index = int(query.get("index", ["0"])[0])
    limit = int(query.get("limit", ["0"])[0]) or len(body["data"])
    return dict(body, data=body["data"][index:index + limit])


# Last.fm's recorded top lists (../shared/fixtures/lastfm/SOURCES.md):
# (method, lower-cased country or tag, page) -> body.
LASTFM_RECORDED = {
    ("geo.gettoptracks", "canada", "1"): "geo-gettoptracks-canada-limit10.json",
    ("geo.gettoptracks", "united states", "2"): "geo-gettoptracks-united-states-limit5-page2.json",
    ("geo.gettopartists", "canada", "1"): "geo-gettopartists-canada-limit10.json",
    ("geo.gettopartists", "united states", "1"): "geo-gettopartists-united-states-limit20.json",
    ("tag.gettoptracks", "dream pop", "1"): "tag-gettoptracks-dream-pop-limit20.json",
    ("tag.gettoptracks", "rock", "1"): "tag-gettoptracks-rock-2016.json",
    ("tag.gettoptracks", "pop", "2"): "tag-gettoptracks-pop-limit5-page2.json",
    ("tag.gettopartists", "dream pop", "1"): "tag-gettopartists-dream-pop-limit20.json",
    ("tag.gettopartists", "dream pop", "2"): "tag-gettopartists-dream-pop-limit5-page2.json",
    ("tag.gettopartists", "rock", "1"): "tag-gettopartists-rock-2016.json",
    ("tag.gettopalbums", "dream pop", "1"): "tag-gettopalbums-dream-pop-limit20.json",
    ("tag.gettopalbums", "pop", "2"): "tag-gettopalbums-pop-limit5-page2.json",
    ("tag.gettopalbums", "rock", "1"): "tag-gettopalbums-rock-2016.json",
}

# The artists of the recorded Last.fm artist charts, lower-cased: the names
# the stand-in's Deezer artist search makes artists up for.
def _lastfm_artists():
    names = set()
    for (method, _, _), name in LASTFM_RECORDED.items():
        if method.endswith("topartists"):
            with open(os.path.join(SHARED, "fixtures", "lastfm", name), encoding="utf-8") as f:
                names |= {a["name"].lower() for a in json.load(f)["topartists"]["artist"]}
    return names


LASTFM_ARTISTS = _lastfm_artists()


# Deezer share links, reached through this server as an HTTP proxy (the
# tests set http_proxy): where each one redirects. No recorded bodies: these
# are redirects only (302 with a Location, as the short-link hosts answer).
SHARE_LINKS = {
    "deezer.page.link/hbfs": "https://www.deezer.com/track/3135556?utm_source=deezer&utm_medium=share",
    "deezer.page.link/two-hops": "http://link.deezer.com/s/discovery",
    "link.deezer.com/s/discovery": "https://www.deezer.com/en/album/302127",
    "deezer.page.link/elsewhere": "https://www.example.com/promo",
    "deezer.page.link/loop": "http://deezer.page.link/loop",
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without this, Nagle plus
    # the client's delayed ACK adds 40 ms to every reused connection.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def _send(self, status, body, ctype):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, obj):
        body = json.dumps(obj).encode()
        pad = STATE.padding  # one int, read without the lock: callers may hold it
        if pad and body.startswith(b"{"):
            # A hostile API's answer: the recorded body with a field no
            # client reads, grown to `pad` bytes.
            body = b'{"padding": "' + b"x" * pad + b'", ' + body[1:]
        self._send(200, body, "application/json; charset=utf-8")

    def _rewrite(self, obj):
        host = f"http://127.0.0.1:{self.server.server_port}"
        exp = int(time.time()) + STATE.expiry

        def walk(node):
            if isinstance(node, dict):
                if node.get("type") == "track" and isinstance(node.get("preview"), str) and node["preview"]:
                    node["preview"] = f"{host}/preview/{node['id']}.mp3?hdnea=exp={exp}~acl=/x*~hmac=0"
                for k, v in node.items():
                    if isinstance(v, str):
                        m = re.match(r"https://(?:cdn-images\.dzcdn\.net|e-cdns-images\.dzcdn\.net)(/images/.*)", v)
                        if m:
                            node[k] = f"{host}/cover{m[1]}"
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)
        walk(obj)
        return obj

    def do_HEAD(self):
        url = urlsplit(self.path)
        with STATE.lock:
            STATE.log.append(self.path)
        target = SHARE_LINKS.get(f"{url.hostname}{url.path}")
        if url.hostname not in ("deezer.page.link", "link.deezer.com"):
            self.send_response(405)
        elif target is None:
            self.send_response(404)
        else:
            self.send_response(302)
            self.send_header("Location", target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        with STATE.lock:
            STATE.log.append(self.path)
            delay = STATE.delay
            if self.headers.get("Range"):
                STATE.ranges.append((self.path, self.headers["Range"]))
        path = url.path
        if path.startswith("/_control/"):
            return self._control(path, query)
        if delay:
            time.sleep(delay)
        if path.startswith("/corpus/"):
            return self._file(os.path.join(CORPUS, os.path.basename(path)))
        m = re.fullmatch(r"/preview/(-?\d+)\.mp3", path)
        if m:
            with STATE.lock:
                status = STATE.fail_once.pop(int(m[1]), None)
            if status:
                return self._send(status, b"<html>denied</html>", "text/html")
            exp = re.search(r"exp=(\d+)", url.query)
            if exp and int(exp[1]) < time.time():
                # Signed CDN URLs are refused once expired, as Deezer's are.
                return self._send(403, b"<html>URL expired</html>", "text/html")
            with STATE.lock:
                served = STATE.preview_files.get(int(m[1])) or os.path.join(CORPUS, preview_file_for(m[1]))
            return self._file(served, expires=int(exp[1]) if exp else None)
        if path.startswith("/lastfm/"):
            return self._lastfm(query)
        if path.startswith("/cover/"):
            if STATE.web:
                return self._send(200, png_cover(path), "image/png")
            return self._send(200, cover_bytes(path), "image/jpeg")
        if not path.startswith("/api/"):
            return self._send(404, b"not found", "text/plain")
        api = path[len("/api"):]
        with STATE.lock:
            STATE.api_requests += 1
            STATE.api_times.append(time.monotonic())
            quota = STATE.quota_left > 0
            if quota:
                STATE.quota_left -= 1
            fault = STATE.faults.pop(api, None)
        if quota:
            return self._json(_load("error-4-quota-limit-exceeded.json"))
        if fault == "500":
            return self._send(500, b"<html>Internal Server Error</html>", "text/html")
        if fault == "malformed":
            return self._send(200, b'{"id": 1, "title": ', "application/json")
        if fault == "deep":
            return self._send(200, deep_json(), "application/json")
        if fault == "escape-title":
            # A recorded track body whose title a hostile catalog filled with
            # terminal escapes (OSC, BEL, CSI, C1 CSI, DEL).
            body = self._rewrite(_load(f"track-{api.rsplit('/', 1)[1]}.json"))
            body["title"] = HOSTILE_TITLE
            return self._json(body)
        if fault == "many-genres":
            # A recorded album whose genre list a hostile catalog filled:
            # 100 genres of 1,000 bytes.
            body = self._rewrite(_load(f"album-{api.rsplit('/', 1)[1]}.json"))
            body["genres"]["data"] = [{"id": n, "name": f"Genre {n} " + "x" * 990, "type": "genre"} for n in range(100)]
            return self._json(body)
        if fault in ("crlf-title", "bidi-title"):
            body = self._rewrite(_load(f"track-{api.rsplit('/', 1)[1]}.json"))
            body["title"] = CRLF_TITLE if fault == "crlf-title" else BIDI_TITLE
            if fault == "crlf-title":
                body["artist"]["name"] = CRLF_ARTIST
            return self._json(body)
        if fault == "huge-title":
            # A recorded track body whose title a hostile catalog made 1 MiB long.
            body = self._rewrite(_load(f"track-{api.rsplit('/', 1)[1]}.json"))
            body["title"] = HUGE_TITLE
            return self._json(body)
        if fault == "nocode":
            return self._json(_load("error-nocode-episode-minus1.json"))
        if fault == "slow":
            time.sleep(STATE.slow_seconds)
        if api == "/track/3135556" and STATE.old_track:
            return self._json(self._rewrite(_load("track-3135556-recorded-2019.json")))
        m = re.fullmatch(r"/track/(-?\d+)", api)
        if m:
            tid = int(m[1])
            if os.path.exists(os.path.join(FIXTURES, f"track-{tid}.json")):
                return self._json(self._rewrite(_load(f"track-{tid}.json")))
            if tid in STATE.tracks:
                return self._json(self._rewrite(json.loads(json.dumps(STATE.tracks[tid]))))
            return self._json(NO_DATA)
        m = re.fullmatch(r"/search(?:/(track|album|artist|playlist|radio))?", api)
        if m and STATE.endless_search and m[1] in (None, "track"):
            # NOT A RECORDING: a lying catalog's search, 3,000 copies of a
            # recorded track a page (30 times what was asked) and always a next page.
            index = int(query.get("index", ["0"])[0])
            track = self._rewrite(_load("track-3135556.json"))
            return self._json({"data": [track] * 3000, "total": 10 ** 9,
                               "next": f"https://api.deezer.com/search?q=x&index={index + 3000}&limit=100"})
        if m:
            q = query.get("q", [""])[0].lower()
            for words, fname in SEARCHES[m[1] or "track"]:
                if all(w in q for w in words):
                    return self._json(self._rewrite(_load(fname)))
            found = self._lastfm_style_lookup(query.get("q", [""])[0], m[1] or "track")
            if found is not None:
                return self._json(self._rewrite(found))
            return self._json(_load("search-artist-no-results.json"))
        m = re.fullmatch(r"/artist/(\d+)/(top|radio)", api)
        if m and STATE.artist_lists and not os.path.exists(os.path.join(FIXTURES, f"artist-{m[1]}-{m[2]}.json")):
            body = artist_list(int(m[1]), m[2], query)
            return self._json(self._rewrite(body) if body is not None else NO_DATA)
        body = discovery_body(api, query)
        if body is not None:
            return self._json(self._rewrite(body))
        m = re.fullmatch(r"/playlist/(\d+)/tracks", api)
        if m and not os.path.exists(os.path.join(FIXTURES, f"playlist-{m[1]}-tracks.json")) \
                and os.path.exists(os.path.join(FIXTURES, f"playlist-{m[1]}.json")):
            tracks = _load(f"playlist-{m[1]}.json")["tracks"]
            return self._json(self._rewrite({"data": tracks["data"], "total": len(tracks["data"])}))
        m = re.fullmatch(r"/album/(\d+)/tracks", api)
        if m and int(m[1]) == STATE.endless_album:
            # NOT A RECORDING: a lying catalog's album, 2,000 copies of a
            # recorded track a page and always a next page, without total.
            index = int(query.get("index", ["0"])[0])
            track = self._rewrite(_load("track-3135556.json"))
            return self._json({"data": [track] * 2000,
                               "next": f"https://api.deezer.com/album/{m[1]}/tracks?index={index + 2000}&limit=2000"})
        m = re.fullmatch(r"/album/(\d+)(/tracks)?", api)
        if m and STATE.web and not os.path.exists(os.path.join(FIXTURES, f"album-{m[1]}.json")):
            body = synthetic_album(int(m[1]))
            if body is not None:
                return self._json(self._rewrite({"data": body["tracks"]["data"], "total": 5} if m[2] else body))
        for pattern, name in ROUTES:
            m = re.fullmatch(pattern, api)
            if m:
                fname = name(m, query)
                if os.path.exists(os.path.join(FIXTURES, fname)):
                    return self._json(self._rewrite(_load(fname)))
                return self._json(NO_DATA)
        return self._json({"error": {"type": "DataException", "message": "no data", "code": 800}})

    def _lastfm_style_lookup(self, q, kind="track"):
        """`artist:"A" track:"T"` finds a made-up track, except for about a
        quarter of the names (a stable choice), which Deezer "does not have".
        No Deezer search for the artists and albums of Last.fm's recorded
        charts was recorded either, so `artist:"A" album:"T"` finds a
        made-up album, and a plain artist search for a name in a recorded
        Last.fm artist chart a made-up artist, missing for the same quarter.
        An artist's first hit is another artist ("NAME Tribute"), then NAME
        upper-cased, as Deezer's fuzzy search can answer."""
        if kind == "artist":
            return self._made_up_artist(q)
        a = re.search(r'artist:"([^"]*)"', q)
        t = re.search(r'(track|album):"([^"]*)"', q)
        if not (a and t) or t[1] != ("album" if kind == "album" else "track"):
            return None
        artist, title = a[1], t[2]
        h = int(hashlib.sha256(f"{artist.lower()}|{title.lower()}".encode()).hexdigest(), 16)
        if h % 4 == 0:
            return {"data": [], "total": 0}
        if kind == "album":
            return {"data": [{"id": 800000000 + h % 1000000, "title": title, "type": "album", "record_type": "album",
                              "artist": {"id": 2, "name": artist, "type": "artist"}}], "total": 1}
        tid = 900000000 + h % 1000000
        track = {"id": tid, "readable": True, "title": title, "duration": 200, "preview": "x", "type": "track",
                 "artist": {"id": 1, "name": artist, "type": "artist"},
                 "album": {"id": 1, "title": "Charts", "type": "album"}}
        with STATE.lock:
            STATE.tracks[tid] = dict(track)
        return {"data": [track], "total": 1}

    def _made_up_artist(self, name):
        if name.lower() not in LASTFM_ARTISTS:
            return None
        h = int(hashlib.sha256(name.lower().encode()).hexdigest(), 16)
        if h % 4 == 0:
            return {"data": [], "total": 0}
        aid = 700000000 + h % 1000000
        return {"data": [{"id": aid + 1, "name": name + " Tribute", "type": "artist"},
                         {"id": aid, "name": name.upper(), "nb_fan": 1000, "type": "artist"}], "total": 2}

    def _lastfm(self, query):
        """Last.fm from its recorded bodies: LASTFM_RECORDED by (method,
        country or tag, page), whatever the limit (a body holds what was
        recorded). A country or tag page not recorded gets the recorded
        answer for one Last.fm does not know (error 6 for a country, the
        empty list for a tag); a method Last.fm lacks (geo.gettopalbums),
        the recorded error 3."""
        lastfm_dir = os.path.join(SHARED, "fixtures", "lastfm")

        def send(name, status=200):
            with open(os.path.join(lastfm_dir, name), "rb") as f:
                self._send(status, f.read(), "application/json")
        with STATE.lock:
            fault = STATE.faults.pop("/lastfm", None)
        if fault == "deep":
            return self._send(200, deep_json(), "application/json")
        if query.get("api_key", [""])[0] != "test-key":
            return send("error-10-invalid-api-key.json", 403)
        method = query.get("method", [""])[0].lower()
        page = query.get("page", ["1"])[0]
        if method in ("geo.gettoptracks", "geo.gettopartists"):
            country = query.get("country", [""])[0].lower()
            if not country:
                return send(f"error-6-{method.replace('.', '-')}-country-param-invalid.json")
            return send(LASTFM_RECORDED.get((method, country, page), f"error-6-{method.replace('.', '-')}-country-texas.json"))
        if method in ("tag.gettoptracks", "tag.gettopartists", "tag.gettopalbums"):
            tag = query.get("tag", [""])[0].lower()
            return send(LASTFM_RECORDED.get((method, tag, page), f"{method.replace('.', '-')}-unknown-tag-empty.json"))
        return send("error-3-invalid-method-chart-gettopalbums.json", 400)

    def _file(self, path, expires=None):
        """Serves a file, honouring `Range: bytes=N-` (206); whole preview
        bodies go at STATE.slow_rate and, with cut_at_expiry, stop once the
        signed URL has expired (the connection closes mid-body)."""
        try:
            with open(path, "rb") as f:
                body = f.read()
        except OSError:
            return self._send(404, b"not found", "text/plain")
        ranged = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range", "") or "")
        with STATE.lock:
            if STATE.ignore_range:
                ranged = None  # a server without Range support: 200 and the whole body
        if ranged:
            # A range shift sends a different part than asked for, and says
            # so in Content-Range (earlier: a superset; later: bytes missing).
            with STATE.lock:
                shift = STATE.range_shift
            start = max(0, int(ranged[1]) + shift)
            if start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(body)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Type", "audio/mpeg")
            with STATE.lock:
                content_range = STATE.content_range or f"bytes {start}-{len(body) - 1}/{len(body)}"
            self.send_header("Content-Range", content_range)
            self.send_header("Content-Length", str(len(body) - start))
            self.end_headers()
            self.wfile.write(body[start:])
            return
        with STATE.lock:
            rate, cut = STATE.slow_rate, STATE.cut_at_expiry
        if not rate or expires is None:
            return self._send(200, body, "audio/mpeg")
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        sent = [urlsplit(self.path).path, 0]
        with STATE.lock:
            STATE.sent.append(sent)
        chunk = max(1, rate // 20)
        for i in range(0, len(body), chunk):
            if cut and time.time() > expires:
                self.close_connection = True
                return
            self.wfile.write(body[i:i + chunk])
            self.wfile.flush()
            with STATE.lock:
                sent[1] = min(len(body), i + chunk)
            time.sleep(0.05)

    def _control(self, path, query):
        if path == "/_control/fail-once":
            with STATE.lock:
                STATE.fail_once[int(query["track"][0])] = int(query.get("status", ["403"])[0])
            return self._json({"ok": True})
        if path == "/_control/expiry":
            with STATE.lock:
                STATE.expiry = int(query["seconds"][0])
            return self._json({"ok": True})
        if path == "/_control/log":
            with STATE.lock:
                return self._json(list(STATE.log))
        if path == "/_control/artist-lists":
            with STATE.lock:
                STATE.artist_lists = query.get("on") == ["1"]
            return self._json({"ok": True})
        if path == "/_control/quota":
            with STATE.lock:
                STATE.quota_left = int(query["n"][0])
            return self._json({"ok": True})
        if path == "/_control/fault":
            with STATE.lock:
                STATE.faults[query["path"][0]] = query["kind"][0]
                STATE.slow_seconds = float(query.get("seconds", ["0"])[0])
            return self._json({"ok": True})
        if path == "/_control/padding":
            with STATE.lock:
                STATE.padding = int(query["bytes"][0])
            return self._send(200, b'{"ok": true}', "application/json")
        if path == "/_control/old-track":
            with STATE.lock:
                STATE.old_track = query.get("on", ["1"])[0] == "1"
            return self._json({"ok": True})
        if path == "/_control/delay":
            with STATE.lock:
                STATE.delay = float(query["ms"][0]) / 1000
            return self._json({"ok": True})
        if path == "/_control/slow-preview":
            with STATE.lock:
                STATE.slow_rate = int(query["rate"][0])
                STATE.cut_at_expiry = query.get("cut", ["0"])[0] == "1"
            return self._json({"ok": True})
        if path == "/_control/ignore-range":
            with STATE.lock:
                STATE.ignore_range = True
            return self._json({"ok": True})
        if path == "/_control/range-shift":
            with STATE.lock:
                STATE.range_shift = int(query["bytes"][0])
            return self._json({"ok": True})
        if path == "/_control/content-range":
            with STATE.lock:
                STATE.content_range = query["value"][0]
            return self._json({"ok": True})
        if path == "/_control/ranges":
            with STATE.lock:
                return self._json([list(r) for r in STATE.ranges])
        if path == "/_control/sent":
            with STATE.lock:
                return self._json([list(s) for s in STATE.sent])
        if path == "/_control/preview-file":
            with STATE.lock:
                STATE.preview_files[int(query["track"][0])] = query["path"][0]
            return self._json({"ok": True})
        if path == "/_control/endless-search":
            with STATE.lock:
                STATE.endless_search = query.get("on", ["1"])[0] == "1"
            return self._json({"ok": True})
        if path == "/_control/endless-album":
            with STATE.lock:
                STATE.endless_album = int(query["id"][0]) if query.get("id") else None
            return self._json({"ok": True})
        if path == "/_control/web":
            with STATE.lock:
                STATE.web = query.get("on", ["1"])[0] == "1"
            return self._json({"ok": True})
        if path == "/_control/count":
            with STATE.lock:
                return self._json({"api_requests": STATE.api_requests, "api_times": STATE.api_times})
        if path == "/_control/reset":
            with STATE.lock:
                STATE.log.clear()
                STATE.fail_once.clear()
                STATE.faults.clear()
                STATE.padding = 0
                STATE.quota_left = 0
                STATE.artist_lists = False
                STATE.old_track = False
                STATE.delay = 0.0
                STATE.slow_rate = 0
                STATE.cut_at_expiry = False
                STATE.ranges.clear()
                STATE.sent.clear()
                STATE.range_shift = 0
                STATE.content_range = None
                STATE.ignore_range = False
                STATE.expiry = 900
                STATE.preview_files.clear()
                STATE.web = False
                STATE.endless_album = None
                STATE.endless_search = False
                # The radio lists (artist_list) draw on every track known, so
                # tracks an earlier test made would change a later test's.
                STATE.tracks = dict(STATE.recorded_tracks)
            return self._json({"ok": True})
        return self._send(404, b"unknown control", "text/plain")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many clients at once in stress tests

    def handle_error(self, request, client_address):
        # previewd drops a preview mid-body on stop or skip; that is expected.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def serve(port=0):
    """Starts the server on 127.0.0.1:port in a thread; returns it."""
    server = Server(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    srv = serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    print(f"http://127.0.0.1:{srv.server_port}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
