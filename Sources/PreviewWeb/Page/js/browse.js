// ---- Listen Now, Explore, Search, the Library ----
import { art, card, carousel, cmd, fields, h, heading, pageOf, read, readEach, records, shelfOf, songList,
  titleOf } from "./core.js";

/** Listen Now: the top songs of one's own country, Top Picks, Want to Listen, More like "X",
 *  New Releases (the seed app's order). */
export async function listenNow() {
  const [now] = await read("catalognow");
  const sections = new Map();
  for (const r of records(now)) {
    if (!sections.has(r.section)) sections.set(r.section, []);
    sections.get(r.section).push(r);
  }
  const order = ["Top Picks", "Want to Listen", ...[...sections.keys()].filter((t) => t.startsWith("More like")), "New releases"];
  const more = { "Top Picks": "#/picks", "Want to Listen": "#/want", "New releases": "#/releases" };
  const local = [...sections.keys()].find((t) => t.startsWith("Top songs in "));
  return [heading("Listen Now"), local ? topSongs(local, sections.get(local)) : null,
    order.filter((t) => sections.has(t)).map((t) => carousel(t === "New releases" ? "New Releases" : t, sections.get(t), more[t]))];
}

/** A country's first songs; "See All" opens its chart. */
function topSongs(title, songs) {
  return songShelf(title, songs, "#/country/" + encodeURIComponent(title.slice("Top songs in ".length)));
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
    items.length ? h("ul", { class: "rows" }, items.map((r) => h("li", {},
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
  return [heading("Explore"), topTracks(tracks),
    shelfOf("Top Albums", albums, (r) => carousel("Top Albums", records(r))),
    shelfOf("Top Artists", artists, (r) => carousel("Top Artists", records(r))),
    shelfOf("Top Playlists", playlists, (r) => carousel("Top Playlists", records(r))),
    byCountry ? h("p", {}, h("a", { class: "more", href: "#/countries" }, "Charts by country")) : null,
    shelfOf("Genres", genres, (r) => h("section", { class: "shelf", "data-section": "Genres" }, h("header", {}, h("h2", {}, "Genres")),
      h("div", { class: "chips" }, records(r).map((g) => h("a", { class: "chip", href: "#/genre/" + encodeURIComponent(g.uri) }, titleOf(g)))))),
    shelfOf("Editorial Picks", picksReply, (r) => carousel("Editorial Picks", records(r))),
    shelfOf("Radios", radios, (r) => carousel("Radios", records(r)))];
}

/** A chart's Top Tracks shelf. */
const topTracks = (reply) => shelfOf("Top Tracks", reply, (r) => songShelf("Top Tracks", records(r)));

/** A genre's charts. */
export async function genre(id) {
  const g = decodeURIComponent(id);
  const [genres, tracks, albums, artists, lists] = await readEach("cataloggenres",
    cmd("catalogchart", "tracks", "genre", g, "limit", "10"), cmd("catalogchart", "albums", "genre", g, "limit", "20"),
    cmd("catalogchart", "artists", "genre", g, "limit", "20"), cmd("catalogchart", "playlists", "genre", g, "limit", "20"));
  const name = records(genres).find((r) => r.uri === g);
  return [heading(name ? titleOf(name) : "Genre " + g), topTracks(tracks),
    shelfOf("Top Albums", albums, (r) => carousel("Top Albums", records(r))),
    shelfOf("Top Artists", artists, (r) => carousel("Top Artists", records(r))),
    shelfOf("Top Playlists", lists, (r) => carousel("Top Playlists", records(r)))];
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

const KINDS = ["tracks", "albums", "artists", "playlists", "radios"];
const FILTERS = [["artist", "Artist"], ["album", "Album"], ["track", "Track title"], ["label", "Label"],
  ["dur_min", "Shortest (s)"], ["dur_max", "Longest (s)"], ["bpm_min", "Slowest (BPM)"], ["bpm_max", "Fastest (BPM)"]];

/** Search: a query, its kind and filters in the address (`#/search?q=eminem&kind=tracks`). */
export async function search(_, params) {
  const query = params.get("q") || "";
  const kind = KINDS.includes(params.get("kind")) ? params.get("kind") : "tracks";
  const input = h("input", { id: "search-input", type: "search", name: "q", value: query, placeholder: "Artists, songs, albums",
    "aria-label": "Search", autocomplete: "off", enterkeyhint: "search" });
  const kindSelect = h("select", { id: "search-kind", "aria-label": "Kind" },
    KINDS.map((k) => h("option", { value: k, selected: k === kind }, k[0].toUpperCase() + k.slice(1))));
  const filterInputs = FILTERS.map(([key, label]) => h("label", {}, label,
    h("input", { name: key, value: params.get(key) || "", inputmode: key.includes("_") ? "numeric" : null })));
  const go = (event) => {
    if (event) event.preventDefault();
    const next = new URLSearchParams({ q: input.value, kind: kindSelect.value });
    for (const label of filterInputs) {
      const field = label.querySelector("input");
      if (field.value.trim()) next.set(field.name, field.value.trim());
    }
    location.hash = "#/search?" + next.toString();
  };
  kindSelect.addEventListener("change", () => { if (input.value.trim()) go(); });
  const form = h("form", { class: "search", role: "search", onsubmit: go }, input, kindSelect,
    h("button", { type: "submit" }, "Search"),
    h("details", { open: FILTERS.some(([key]) => params.get(key)) }, h("summary", {}, "Filters"), h("div", { class: "filters" }, filterInputs)));
  let results = null;
  if (query.trim()) {
    const words = ["catalogsearch", kind, query.trim()];
    for (const [key] of FILTERS) if (params.get(key)) words.push(key, params.get(key));
    words.push("limit", "50");
    const [reply] = await read(cmd(...words));
    const found = records(reply);
    const total = fields(reply).total;
    results = h("section", { id: "results", "data-kind": kind },
      h("p", { class: "count" }, found.length ? (total || found.length) + " found" : "Nothing found"),
      kind === "tracks" ? songList(found) : grid(found));
  }
  setTimeout(() => { if (!query) input.focus(); }, 0);
  return [heading("Search"), form, results];
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
