// previewweb's page: one page over previewd's MPD protocol (/api/mpd),
// kept live by the daemon's idle events (/api/events). Catalog text is
// third-party input: it reaches the page only as text nodes (h() below).
import { wentDown } from "./live.js";
import { route } from "./shell.js";

const token = /** @type {HTMLMetaElement} */ (document.querySelector('meta[name="previewweb-token"]')).content;
/** The element of an id, typed loosely: each caller knows its kind (an input, a dialog). */
export const $ = (id) => /** @type {any} */ (document.getElementById(id));
export const view = $("view");

// ---- MPD over HTTP ----

/** An MPD argument, quoted as the protocol quotes it. */
function quote(value) { return '"' + String(value).replace(/[\\"]/g, (c) => "\\" + c) + '"'; }
/** One MPD command line. */
export function cmd(name, ...args) { return [name, ...args.map(quote)].join(" "); }

/** An error of previewd's absence (`offline`), not of the command. */
class Offline extends Error {
  constructor(message) { super(message); this.offline = true; }
}

/** Replies to `lines`; throws the daemon's refusal as an Error, its absence as `Offline` (and says so in the banner). */
async function mpd(lines, changing) {
  const query = lines.map((line) => "c=" + encodeURIComponent(line)).join("&");
  /** @type {RequestInit} */
  const init = changing ? { method: "POST", headers: { "X-Previewweb-Token": token } } : { cache: "no-store" };
  const answer = await fetch("/api/mpd?" + query, init).catch(() => null);
  if (!answer) {
    wentDown("previewweb is not reachable.");
    throw new Offline("previewweb is not reachable.");
  }
  const body = await answer.json().catch(() => ({ error: answer.statusText }));
  if (answer.status === 502) {
    // previewweb's own words name the socket and errno: the banner says it plainly.
    wentDown("previewd is not running, or not reachable.");
    throw new Offline("previewd is not running, or not reachable.");
  }
  if (!answer.ok) throw new Error(body.error || answer.statusText);
  return body;
}
/** Replies (arrays of [key, value]) to commands that only read. */
export const read = (...lines) => mpd(lines, false);
/** The same, each command asked on its own: a refusal (Deezer had no
 *  such chart, a busy moment) stands in its place as an Error, so one
 *  list that failed leaves the rest of a page of shelves. Throws only
 *  when every one failed (the daemon is unreachable). */
export async function readEach(...lines) {
  const replies = await Promise.all(lines.map((line) => mpd([line], false).then(([reply]) => reply, (error) => error)));
  if (replies.every((r) => r instanceof Error)) throw replies[0];
  return replies;
}
let pending = 0;
let redrawWanted = false;
/** Replies to commands that change state; a refusal is shown, then thrown. */
export async function change(...lines) {
  pending += 1;
  try {
    return await mpd(lines, true);
  } catch (error) {
    if (!error.offline) say(error.message);
    throw error;
  } finally {
    pending -= 1;
    // A redraw asked for meanwhile waits for the caller's own next step
    // (a rename moves to the new name first), so it reads the new state.
    if (!pending && redrawWanted) { redrawWanted = false; setTimeout(() => route(true), 0); }
  }
}
/** Redraws the screen after a change elsewhere, once this page's own changes are done. */
export function redraw() {
  if (pending) redrawWanted = true; else route(true);
}

let sayTimer = 0;
export function say(text) {
  const line = $("message");
  line.textContent = text;
  clearTimeout(sayTimer);
  if (text) sayTimer = setTimeout(() => { line.textContent = ""; }, 6000);
}

const STARTS = new Set(["file", "album", "artist", "playlist", "radio", "genre", "directory"]);
/** A reply's records: each opened by a key of STARTS, with its section. */
export function records(pairs) {
  const out = [];
  if (pairs instanceof Error) return out;
  let section = null;
  for (const [key, value] of pairs) {
    if (key === "section") { section = value; continue; }
    if (STARTS.has(key)) { out.push({ kind: key, uri: value, section, tags: {} }); continue; }
    const last = out[out.length - 1];
    if (last && !(key in last.tags)) last.tags[key] = value;
  }
  return out;
}
/** A reply's fields by key (the first value of each). */
export function fields(pairs) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [key, value] of pairs) if (!(key in out)) out[key] = value;
  return out;
}
export const titleOf = (r) => r.tags.Title || r.tags.Name || r.uri;
export const CATALOG = /^deezer:(track|album|artist|playlist|radio):(\d+)$/;
/** The page of a catalog URI (`#/album/302127`), or null. */
export function pageOf(uri) {
  const m = CATALOG.exec(uri || "");
  return m ? "#/" + m[1] + "/" + m[2] : null;
}
export function duration(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// ---- Elements ----

/** An element; strings among the children become text nodes, never markup. */
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "class") element.className = value;
    else element.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) if (child != null && child !== false) element.append(child);
  return element;
}

/** A cover from the page's own origin, or a placeholder. */
export function art(uri, large) {
  const img = h("img", { alt: "", loading: large ? "eager" : "lazy", decoding: "async" });
  const frame = h("div", { class: large ? "art large" : "art" }, img);
  img.addEventListener("error", () => frame.classList.add("missing"));
  if (CATALOG.test(uri || "")) img.src = "/cover?uri=" + encodeURIComponent(uri);
  else frame.classList.add("missing");
  return frame;
}

/** A card for a record: cover, title, subtitle; a link to its page. */
export function card(r) {
  const sub = r.tags.Artist || (r.kind === "artist" && r.tags.Fans ? Number(r.tags.Fans).toLocaleString() + " fans" : "");
  const href = r.kind === "genre" ? "#/genre/" + encodeURIComponent(r.uri) : pageOf(r.uri);
  return h("a", { class: "card", href: href || "#/", "data-uri": r.uri, "data-key": r.uri },
    art(r.kind === "genre" ? null : r.uri), h("span", { class: "name" }, titleOf(r)), h("span", { class: "sub" }, sub));
}

/** A shelf whose list could not be read (`readEach`): its title and why. */
function failedShelf(title, error) {
  return h("section", { class: "shelf failed", "data-section": title }, h("header", {}, h("h2", {}, title)),
    h("p", { class: "empty" }, "Could not load " + title + ": " + error.message));
}

/** `render(reply)`, or the failed shelf `title` when the reply is an Error. */
export const shelfOf = (title, reply, render) => reply instanceof Error ? failedShelf(title, reply) : render(reply);

/** A titled row of cards, with an optional "See All" link; with a mouse, arrows scroll it a screenful. */
export function carousel(title, items, more) {
  const row = h("div", { class: "carousel" }, items.map(card));
  const arrow = (sign, label, glyph) => h("button", { class: "icon arrow", "aria-label": label + " " + title,
    onclick: () => row.scrollBy({ left: sign * row.clientWidth * 0.9, behavior: "smooth" }) }, glyph);
  const back = arrow(-1, "Scroll back:", "\u2039");
  const forward = arrow(1, "Scroll on:", "\u203A");
  const ends = () => {
    back.disabled = row.scrollLeft <= 1;
    forward.disabled = row.scrollLeft + row.clientWidth >= row.scrollWidth - 1;
  };
  row.addEventListener("scroll", ends, { passive: true });
  requestAnimationFrame(ends);
  return h("section", { class: "shelf", "data-section": title },
    h("header", {}, h("h2", {}, title), h("div", { class: "shelf-tools" }, more ? h("a", { class: "more", href: more }, "See All") : null,
      h("span", { class: "arrows" }, back, forward))), row);
}

/** A list of songs. The one rule for a tap on a song, everywhere but the
 *  queue: it plays, with its list queued around it (`playList`), unless
 *  `onplay(index, record)` says otherwise. Each row shows the song's cover
 *  (or, with `numbered`, its number, as an album's list does), the mark
 *  of the song playing (`markPlaying`), and a ⋯ menu (or `extra`, whose
 *  listeners may use only what its attributes show: see `keepSame`). A
 *  song the catalog says cannot be played here is dimmed and says why
 *  instead. The tap is the list's, found by the row's place in it, so a
 *  row kept from an earlier drawing plays from the list it is now in. */
export function songList(songs, onplay, extra, numbered) {
  const play = onplay || ((i) => playList(songs, i));
  const tapped = (/** @type {Event} */ e) => {
    const list = /** @type {HTMLElement} */ (e.currentTarget);
    const button = e.target instanceof Element ? e.target.closest("button.song") : null;
    const row = button && button.closest("li");
    const i = row ? [...list.children].indexOf(row) : -1;
    if (i < 0 || !songs[i]) return;
    const r = songs[i];
    if (r.tags.Unplayable) say(titleOf(r) + " is not playable: " + r.tags.Unplayable); else play(i, r);
  };
  return h("ol", { class: numbered ? "songs numbered" : "songs", onclick: tapped }, songs.map((r, i) => h("li", {
    "data-uri": r.uri, "data-key": r.uri, class: [r.tags.Unplayable ? "unplayable" : "", r.uri === playingUri ? "playing" : ""].join(" ").trim() || null },
    h("button", { class: "song", "aria-label": (r.tags.Unplayable ? "Not playable: " : "Play ") + titleOf(r) },
      numbered ? h("span", { class: "pos" }, String(i + 1)) : art(r.uri),
      h("span", { class: "text" }, h("span", { class: "name" }, titleOf(r)), h("span", { class: "sub" }, r.tags.Artist || "")),
      h("span", { class: "now", "aria-label": "Playing" }),
      h("span", { class: "time" }, r.tags.Time ? duration(r.tags.Time) : "")),
    extra ? extra(r, i) : h("button", { class: "icon", "aria-label": "More for " + titleOf(r), onclick: () => addMenu(r.uri, titleOf(r)) }, "\u22EF"))));
}

let playingUri = "";
/** Marks the rows of the song playing (by URI), in place: no redraw. */
export function markPlaying(uri) {
  playingUri = uri || "";
  for (const row of document.querySelectorAll("ol.songs:not(.queue) li[data-uri]")) {
    if (row instanceof HTMLElement) row.classList.toggle("playing", row.dataset.uri === playingUri);
  }
}

/** A list read a page at a time: `ask(index)` is the command for the
 *  page from `index`, whose reply ends with `total: N`; `render(items)`
 *  draws what is loaded. "Show more" loads the next page into the same
 *  place (the list drawn anew, the button kept, so the keyboard stays). */
export async function paged(ask, render) {
  let items = [];
  let total = 0;
  const count = h("p", { class: "count" });
  const list = h("div", { class: "paged" });
  const more = h("button", { class: "show-more" });
  async function next() {
    more.disabled = true;
    try {
      const [reply] = await read(ask(items.length));
      const page = records(reply);
      items = items.concat(page);
      total = Math.max(Number(fields(reply).total) || 0, items.length);
      list.replaceChildren(render(items));
      more.hidden = !page.length || items.length >= total;
      more.textContent = "Show more (" + items.length + " of " + total.toLocaleString() + ")";
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", next);
  await next();
  count.textContent = items.length ? total + " found" : "Nothing found";
  return [count, list, more];
}

export function heading(title, ...rest) { return h("header", { class: "page" }, h("h1", {}, title), rest); }

// ---- Actions ----

/** Songs a tap queues at most, the ones around the song tapped (previewweb relays 128 commands at once). */
const MAX_LIST = 100;
/** Plays song `i` of `songs` with the list queued in place of the queue. */
function playList(songs, i) {
  const from = Math.max(0, Math.min(i - MAX_LIST / 2, songs.length - MAX_LIST));
  const part = songs.slice(from, from + MAX_LIST);
  return change("clear", ...part.map((s) => cmd("add", s.uri)), cmd("play", i - from));
}
export const playNow = (uri, position) => change("clear", cmd("add", uri), position ? cmd("play", position) : "play");
const shuffleNow = (uri) => change("clear", cmd("add", uri), "shuffle", "play");
export async function enqueue(uri) { await change(cmd("add", uri)); say("Added to the queue"); }
/** Queues one song at the end and plays it. */
export async function playOne(uri) {
  const [reply] = await change(cmd("addid", uri));
  await change(cmd("playid", fields(reply).Id));
}
export function actions(uri, title, wanted) {
  return [addButton(uri, title, wanted), h("div", { class: "actions" },
    h("button", { class: "primary", onclick: () => playNow(uri) }, "\u25B6 Play"),
    h("button", { onclick: () => shuffleNow(uri) }, "\u21C4 Shuffle"),
    h("button", { onclick: () => enqueue(uri) }, "Add to queue"))];
}

/** "+ Add" (a checkmark once in Want to Listen), at the top right of a detail page, as the seed app has it. */
export function addButton(uri, title, wanted) {
  return h("button", { id: "add-menu", class: wanted ? "saved" : "", "aria-label": wanted ? "In Want to Listen: change" : "Add",
    onclick: () => addMenu(uri, title, { back: true }) }, wanted ? "\u2713" : "+ Add");
}

/** The "+ Add" menu (`menu.js`, loaded at the first tap: no part of the first view). */
const addMenu = (uri, title, options) => import("./menu.js").then((m) => m.addMenu(uri, title, options));
