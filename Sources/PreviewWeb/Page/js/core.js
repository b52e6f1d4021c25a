// previewweb's page: one page over previewd's MPD protocol (/api/mpd),
// kept live by the daemon's idle events (/api/events). Catalog text is
// third-party input: it reaches the page only as text nodes (h() below).
import { wentDown } from "./live.js";
import { leaveFor, route } from "./shell.js";

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
  return h("a", { class: "card", href: href || "#/", "data-uri": r.uri },
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
 *  of the song playing (`markPlaying`), and a ⋯ menu (or `extra`). A song
 *  the catalog says cannot be played here is dimmed and says why instead. */
export function songList(songs, onplay, extra, numbered) {
  const play = onplay || ((i) => playList(songs, i));
  return h("ol", { class: numbered ? "songs numbered" : "songs" }, songs.map((r, i) => h("li", {
    "data-uri": r.uri, class: [r.tags.Unplayable ? "unplayable" : "", r.uri === playingUri ? "playing" : ""].join(" ").trim() || null },
    h("button", { class: "song", "aria-label": (r.tags.Unplayable ? "Not playable: " : "Play ") + titleOf(r),
      onclick: () => r.tags.Unplayable ? say(titleOf(r) + " is not playable: " + r.tags.Unplayable) : play(i, r) },
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

/** The "+ Add" menu: Want to Listen, the Library, a stored playlist, the
 *  queue; for a song also where it leads: its page, its album, its artist. */
async function addMenu(uri, title, options) {
  const song = /^deezer:track:/.test(uri);
  const [want, library, lists, info] = await readEach("wantlist", "librarylist", "listplaylists",
    ...(song ? [cmd("cataloginfo", uri)] : []));
  const wanted = records(want).some((r) => r.uri === uri);
  const saved = records(library).some((r) => r.uri === uri);
  const about = song ? (records(info)[0] || { tags: {} }).tags : {};
  const dialog = $("menu");
  const run = (lines, done) => async () => {
    dialog.close();
    await change(...lines);
    if (done) done();
  };
  const go = (label, target) => target ? h("a", { class: "go", href: target, onclick: () => dialog.close() }, label) : null;
  /** A song already in the playlist is added again only when the user says so. */
  const addTo = (name) => async () => {
    dialog.close();
    const [current] = await read(cmd("listplaylist", name));
    if (records(current).some((r) => r.uri === uri) && !await ask("\u201C" + title + "\u201D is already in " + name + ". Add it again?", "Add again")) return;
    await change(cmd("playlistadd", name, uri));
    say("Added to " + name);
  };
  const name = h("input", { id: "new-playlist", placeholder: "New playlist", "aria-label": "New playlist's name", maxlength: "200" });
  dialog.replaceChildren(h("h2", {}, title),
    song ? h("nav", { class: "go-to", "aria-label": "Go to" }, go("Song details", pageOf(uri)),
      go("Go to album" + (about.Album ? ": " + about.Album : ""), pageOf(about.AlbumURI)),
      go("Go to artist" + (about.Artist ? ": " + about.Artist : ""), pageOf(about.ArtistURI))) : null,
    h("button", { onclick: run([cmd(wanted ? "wantrm" : "wantadd", uri)], () => {
      say(wanted ? "Removed from Want to Listen" : "Added to Want to Listen");
      if (wanted && options && options.back) leaveFor("#/"); else route(true);
    }) }, wanted ? "Remove from Want to Listen" : "Add to Want to Listen"),
    h("button", { onclick: run([cmd(saved ? "libraryrm" : "libraryadd", uri)], () => {
      say(saved ? "Removed from the Library" : "Added to the Library");
      route(true);
    }) }, saved ? "Remove from Library" : "Add to Library"),
    h("button", { onclick: run([cmd("add", uri)], () => say("Added to the queue")) }, "Add to queue"),
    h("h3", {}, "Add to a playlist"),
    ...records(lists).map((p) => h("button", { class: "playlist", onclick: addTo(p.uri) }, p.uri)),
    h("form", { class: "inline", onsubmit: (event) => {
      event.preventDefault();
      if (name.value.trim()) run([cmd("playlistadd", name.value.trim(), uri)], () => say("Added to " + name.value.trim()))();
    } }, name, h("button", { type: "submit" }, "Create")),
    h("button", { class: "cancel", onclick: () => dialog.close() }, "Cancel"));
  dialog.showModal();
}

/** Asks for a name in the page's dialog (`value` to start from); resolves to it, trimmed, or null. */
export function askName(question, value, action, note) {
  const dialog = $("menu");
  return new Promise((resolve) => {
    let answered = false;
    const answer = (v) => { if (answered) return; answered = true; dialog.close(); resolve(v); };
    const input = h("input", { id: "ask-name", value: value || "", "aria-label": question, maxlength: "200", autocomplete: "off" });
    dialog.replaceChildren(h("h2", {}, question), note ? h("p", { class: "fine" }, note) : null,
      h("form", { class: "inline", onsubmit: (event) => { event.preventDefault(); if (input.value.trim()) answer(input.value.trim()); } },
        input, h("button", { type: "submit", class: "primary" }, action)),
      h("button", { class: "cancel", onclick: () => answer(null) }, "Cancel"));
    dialog.addEventListener("close", () => answer(null), { once: true });
    dialog.showModal();
    input.focus();
    input.select();
  });
}

let toastTimer = 0;
/** Says what was done, with Undo for `undo` seconds (`undo()` restores it). */
export function toast(text, undo) {
  const bar = $("toast");
  clearTimeout(toastTimer);
  bar.replaceChildren(h("span", {}, text), undo ? h("button", { onclick: async () => {
    bar.hidden = true;
    await undo();
  } }, "Undo") : null);
  bar.hidden = false;
  toastTimer = setTimeout(() => { bar.hidden = true; }, 8000);
}

/** Asks a yes-or-no question in the page's dialog; resolves to the answer. */
export function ask(question, yes) {
  const dialog = $("menu");
  return new Promise((resolve) => {
    const answer = (value) => () => { dialog.close(); resolve(value); };
    dialog.replaceChildren(h("h2", {}, question),
      h("button", { id: "ask-yes", class: "primary", onclick: answer(true) }, yes),
      h("button", { class: "cancel", onclick: answer(false) }, "Cancel"));
    dialog.addEventListener("cancel", answer(false), { once: true });
    dialog.showModal();
  });
}
