// ---- Listen Now, Explore, Search, the Library ----
import { art, card, carousel, cmd, h, heading, pageOf, paged, read, readEach, records, shelfOf, songList,
  titleOf } from "./core.js";

/** `catalognow`'s sections: {title, kind, country, genre, items}, by the kind the daemon gives each. */
function sectionsOf(reply) {
  const out = [];
  for (const [key, value] of reply) {
    if (key === "section") out.push({ title: value, kind: "", country: "", genre: "0", pairs: [] });
    else if (!out.length) continue;
    else if (key === "sectionkind") out[out.length - 1].kind = value;
    else if (key === "sectioncountry") out[out.length - 1].country = value;
    else if (key === "sectiongenre") out[out.length - 1].genre = value;
    else out[out.length - 1].pairs.push([key, value]);
  }
  return out.map((s) => Object.assign(s, { items: records(s.pairs) }));
}

/** Listen Now: the top songs of one's own country, Top Picks, Want to Listen, More like "X",
 *  New Releases (the seed app's order), each found by its kind, each with its See All. */
export async function listenNow() {
  const [now] = await read("catalognow");
  const sections = sectionsOf(now);
  const of = (kind) => sections.filter((s) => s.kind === kind);
  const shelf = (s, title, more) => carousel(title, s.items, more);
  return [heading("Listen Now"),
    of("country").map((s) => songShelf(s.title, s.items, "#/country/" + encodeURIComponent(s.country))),
    of("picks").map((s) => shelf(s, "Top Picks", "#/picks")),
    of("want").map((s) => shelf(s, "Want to Listen", "#/want")),
    of("morelike").map((s) => shelf(s, s.title, "#/chart/albums?genre=" + encodeURIComponent(s.genre))),
    of("releases").map((s) => shelf(s, "New Releases", "#/releases"))];
}

/** A shelf of songs: a tap queues them all and plays from that one. */
function songShelf(title, songs, more) {
  return h("section", { class: "shelf", "data-section": title },
    h("header", {}, h("h2", {}, title), more ? h("a", { class: "more", href: more }, "See All") : null),
    songList(songs));
}

/** A list of albums, as a grid. */
function grid(items) { return h("div", { class: "grid" }, items.map(card)); }

export async function picks() {
  const [reply] = await read("catalogeditorial picks limit 50");
  return [heading("Top Picks"), grid(records(reply))];
}

export async function releases() {
  const [reply] = await read("catalogeditorial releases limit 50");
  return [heading("New Releases"), grid(records(reply))];
}

/** Want to Listen's "See All": every wanted album and track, as a list. */
export async function wantList() {
  const [reply] = await read("wantlist");
  const items = records(reply);
  return [heading("Want to Listen"),
    items.length ? h("ul", { class: "rows" }, items.map((r) => h("li", { "data-key": r.uri },
      h("a", { href: pageOf(r.uri) || "#/", "data-uri": r.uri }, art(r.uri),
        h("span", { class: "text" }, h("span", { class: "name" }, titleOf(r)), h("span", { class: "sub" }, r.tags.Artist || "")))))
    ) : h("p", { class: "empty" }, "Nothing yet: \u201C+ Add\u201D on an album puts it here.")];
}

/** Explore: the charts, by country (with a Last.fm key) and by genre, editorial picks and radios. */
export async function explore() {
  const [tracks, albums, artists, playlists, genres, picksReply, radios, charts] = await readEach(
    "catalogchart tracks limit 10", "catalogchart albums limit 20", "catalogchart artists limit 20",
    "catalogchart playlists limit 20", "cataloggenres", "catalogeditorial picks limit 20", "catalogradios top limit 20",
    cmd("lsinfo", "Charts"));
  const byCountry = records(charts).some((r) => r.uri === "Charts/By Country");
  return [heading("Explore"), chartShelves("0", tracks, albums, artists, playlists),
    byCountry ? h("p", {}, h("a", { class: "more", href: "#/countries" }, "Charts by country")) : null,
    shelfOf("Genres", genres, (r) => h("section", { class: "shelf", "data-section": "Genres" }, h("header", {}, h("h2", {}, "Genres")),
      h("div", { class: "chips" }, records(r).map((g) => h("a", { class: "chip", href: "#/genre/" + encodeURIComponent(g.uri) }, titleOf(g)))))),
    shelfOf("Editorial Picks", picksReply, (r) => carousel("Editorial Picks", records(r))),
    shelfOf("Radios", radios, (r) => carousel("Radios", records(r)))];
}

/** A genre's chart shelves ("0": all genres), each with See All: the whole chart, a page at a time. */
function chartShelves(genre, tracks, albums, artists, lists) {
  const all = (kind) => "#/chart/" + kind + "?genre=" + encodeURIComponent(genre);
  return [shelfOf("Top Tracks", tracks, (r) => songShelf("Top Tracks", records(r), all("tracks"))),
    shelfOf("Top Albums", albums, (r) => carousel("Top Albums", records(r), all("albums"))),
    shelfOf("Top Artists", artists, (r) => carousel("Top Artists", records(r), all("artists"))),
    shelfOf("Top Playlists", lists, (r) => carousel("Top Playlists", records(r), all("playlists")))];
}

const CHARTS = { tracks: "Top Tracks", albums: "Top Albums", artists: "Top Artists", playlists: "Top Playlists" };

/** A chart whole (`#/chart/albums?genre=132`), a page at a time. */
export async function chart(kind, params) {
  const genre = params.get("genre") || "0";
  const [genres] = await readEach("cataloggenres");
  const name = genre === "0" ? "" : titleOf(records(genres).find((r) => r.uri === genre) || { tags: {}, uri: "genre " + genre });
  const list = await paged((index) => cmd("catalogchart", kind, "genre", genre, "limit", "50", "index", String(index)),
    (items) => kind === "tracks" ? songList(items) : grid(items));
  return [heading(CHARTS[kind] + (name ? " \u00B7 " + name : "")), list];
}

/** A genre's charts. */
export async function genre(id) {
  const g = decodeURIComponent(id);
  const [genres, tracks, albums, artists, lists] = await readEach("cataloggenres",
    cmd("catalogchart", "tracks", "genre", g, "limit", "10"), cmd("catalogchart", "albums", "genre", g, "limit", "20"),
    cmd("catalogchart", "artists", "genre", g, "limit", "20"), cmd("catalogchart", "playlists", "genre", g, "limit", "20"));
  const name = records(genres).find((r) => r.uri === g);
  return [heading(name ? titleOf(name) : "Genre " + g), chartShelves(g, tracks, albums, artists, lists)];
}

export async function countries() {
  const [reply] = await read(cmd("lsinfo", "Charts/By Country"));
  return [heading("Charts by country"), h("div", { class: "chips" }, records(reply).map((r) => {
    const name = r.uri.slice("Charts/By Country/".length);
    return h("a", { class: "chip", href: "#/country/" + encodeURIComponent(name) }, name);
  }))];
}

export async function country(name) {
  const place = decodeURIComponent(name);
  const [reply] = await read(cmd("catalogchart", "tracks", "country", place));
  const top = records(reply);
  return [heading("Top tracks: " + place), songList(top)];
}

/** Search's kinds: All (the top result and a shelf of each), then one kind a page at a time. */
const KINDS = [["all", "All"], ["tracks", "Songs"], ["albums", "Albums"], ["artists", "Artists"], ["playlists", "Playlists"],
  ["radios", "Radios"]];
/** Song filters as `catalogsearch` takes them: words, then ranges of numbers (seconds, beats a minute). */
const WORDS = [["artist", "Artist"], ["album", "Album"], ["track", "Title"], ["label", "Label"]];
const RANGES = [["dur", "Length", "s", 0, 3600], ["bpm", "Tempo", "BPM", 0, 300]];

/** The filters' controls: a text field per word, a from–to pair of numbers per range. */
function filterControls(params) {
  const words = WORDS.map(([key, label]) => h("label", {}, label, h("input", { name: key, value: params.get(key) || "", autocomplete: "off" })));
  const ranges = RANGES.map(([key, label, unit, min, max]) => h("fieldset", { class: "range" }, h("legend", {}, label + " (" + unit + ")"),
    ["min", "max"].map((end) => h("label", {}, end === "min" ? "from" : "to",
      h("input", { type: "number", name: key + "_" + end, min: String(min), max: String(max), step: "1", inputmode: "numeric",
        value: params.get(key + "_" + end) || "" })))));
  return h("div", { class: "filters" }, words, ranges);
}

/** Search: a query, its kind and filters in the address (`#/search?q=eminem&kind=tracks`); All by default. */
export async function search(_, params) {
  const query = params.get("q") || "";
  const kind = KINDS.some(([k]) => k === params.get("kind")) ? params.get("kind") : "all";
  const input = h("input", { id: "search-input", type: "search", name: "q", value: query, placeholder: "Artists, songs, albums",
    "aria-label": "Search", autocomplete: "off", enterkeyhint: "search" });
  const filters = filterControls(params);
  const address = (k) => {
    const next = new URLSearchParams({ q: input.value.trim() || query, kind: k });
    if (k === "tracks") {
      for (const field of filters.querySelectorAll("input")) if (field.value.trim()) next.set(field.name, field.value.trim());
    }
    return "#/search?" + next.toString();
  };
  const go = (event) => { event.preventDefault(); location.hash = address(kind); };
  const tabs = query ? h("nav", { class: "kinds", "aria-label": "Kinds" }, KINDS.map(([k, label]) =>
    h("a", { class: "chip", href: "#/search?" + new URLSearchParams({ q: query, kind: k }).toString(), "aria-current": k === kind ? "page" : null }, label))) : null;
  const form = h("form", { class: "search", role: "search", onsubmit: go }, input, h("button", { type: "submit" }, "Search"),
    kind === "tracks" ? h("details", { open: [...params.keys()].some((k) => k !== "q" && k !== "kind") },
      h("summary", {}, "Filters"), filters) : null);
  let results = null;
  if (query.trim() && kind === "all") {
    results = await searchAll(query.trim());
  } else if (query.trim()) {
    const words = ["catalogsearch", kind, query.trim()];
    for (const [key, value] of params) if (key !== "q" && key !== "kind" && value) words.push(key, value);
    results = h("section", { id: "results", "data-kind": kind },
      await paged((index) => cmd(...words, "limit", "50", "index", String(index)), (found) => kind === "tracks" ? songList(found) : grid(found)));
  }
  setTimeout(() => { if (!query) input.focus(); }, 0);
  return [heading("Search"), form, tabs, results];
}

/** All kinds at once, as Deezer's app shows them: the top result (an
 *  artist or album named as asked, else the first song), the first songs,
 *  then a shelf of artists, albums and playlists, each with See All. */
async function searchAll(query) {
  const [songs, artists, albums, lists] = await readEach(...["tracks", "artists", "albums", "playlists"].map((k) =>
    cmd("catalogsearch", k, query, "limit", k === "tracks" ? "5" : "12")));
  const found = { tracks: records(songs), artists: records(artists), albums: records(albums), playlists: records(lists) };
  const named = (r) => titleOf(r).toLowerCase() === query.toLowerCase();
  const top = found.artists.find(named) || found.albums.find(named) || found.tracks[0] || found.artists[0] || found.albums[0];
  const all = (k) => "#/search?" + new URLSearchParams({ q: query, kind: k }).toString();
  if (!top) return h("section", { id: "results", "data-kind": "all" }, h("p", { class: "count" }, "Nothing found"));
  return h("section", { id: "results", "data-kind": "all" },
    h("section", { class: "shelf top-result", "data-section": "Top Result" }, h("header", {}, h("h2", {}, "Top Result")),
      top.kind === "file" ? songList([top]) : h("div", { class: "top-card" }, card(top))),
    found.tracks.length ? songShelf("Songs", found.tracks, all("tracks")) : null,
    [["artists", "Artists"], ["albums", "Albums"], ["playlists", "Playlists"]].map(([k, title]) =>
      found[k].length ? carousel(title, found[k], all(k)) : null));
}

/** The Library: the albums and tracks saved. */
export async function library() {
  const [reply] = await read("librarylist");
  const items = records(reply);
  const albums = items.filter((r) => r.kind !== "file");
  const songs = items.filter((r) => r.kind === "file");
  return [heading("Library"),
    items.length ? null : h("p", { class: "empty" }, "Nothing saved yet: \u201C+ Add\u201D, then \u201CAdd to Library\u201D."),
    albums.length ? h("section", { class: "shelf" }, h("header", {}, h("h2", {}, "Albums and playlists")), grid(albums)) : null,
    songs.length ? h("section", { class: "shelf" }, h("header", {}, h("h2", {}, "Songs")), songList(songs)) : null];
}
