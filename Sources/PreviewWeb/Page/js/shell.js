// ---- The router, the now-playing bar, live updates, keys ----
import { $, art, CATALOG, change, cmd, duration, fields, h, heading, markPlaying, read, redraw, say, view } from "./core.js";
import { chart, countries, country, explore, genre, library, listenNow, picks, releases, search, wantList } from "./browse.js";

/** A screen of a module loaded when first shown (detail pages, the queue
 *  and playlists are not part of the first view). */
const later = (load, name) => (...args) => load().then((m) => m[name](...args));
const detail = (name) => later(() => import("./detail.js"), name);
const queued = (name) => later(() => import("./queue.js"), name);
import { deviceFollow, refreshOutputs, setUpOutputs } from "./outputs.js";
import { listen, online } from "./live.js";

/** Routes: a pattern, the screen, the nav entry it lights, the idle subsystems that redraw it.
 *  A route may update its screen in place for a live change (the queue,
 *  by `plchanges`): its fifth member, which answers false when the screen
 *  is to be drawn anew.
 *  @type {[RegExp, (...args: any[]) => Promise<any>, string | null, string[], ((changed: string[]) => Promise<boolean>)?][]} */
const ROUTES = [
  [/^\/$/, listenNow, "now", ["stored_playlist", "database"]],
  [/^\/picks$/, picks, "now", []],
  [/^\/releases$/, releases, "now", []],
  [/^\/want$/, wantList, "now", ["stored_playlist"]],
  [/^\/explore$/, explore, "explore", []],
  [/^\/genre\/([^/]+)$/, genre, "explore", []],
  [/^\/chart\/(tracks|albums|artists|playlists)$/, chart, "explore", []],
  [/^\/countries$/, countries, "explore", []],
  [/^\/country\/([^/]+)$/, country, "explore", []],
  [/^\/search$/, search, "search", []],
  [/^\/album\/(\d+)$/, detail("album"), null, ["stored_playlist", "database"]],
  [/^\/artist\/(\d+)$/, detail("artist"), null, []],
  [/^\/playlist\/(\d+)$/, detail("playlist"), null, ["stored_playlist"]],
  [/^\/track\/(\d+)$/, detail("track"), null, ["stored_playlist"]],
  [/^\/radio\/(\d+)$/, detail("radio"), null, []],
  [/^\/library$/, library, "library", ["database"]],
  [/^\/playlists$/, queued("playlists"), "playlists", ["stored_playlist"]],
  [/^\/stored\/([^/]+)$/, queued("stored"), "playlists", ["stored_playlist"]],
  [/^\/queue$/, queued("queue"), "queue", ["playlist", "player", "options"], queued("queueUpdate")],
];
let current = null;
let generation = 0;
let drawnOnce = false;

/** Where each nav entry's screen is: a screen deeper than these has a Back control. */
const SECTION_ROOTS = { now: "/", explore: "/explore", search: "/search", library: "/library", playlists: "/playlists", queue: "/queue" };

/** History: each entry the page drew carries {id, depth} (its steps from
 *  the first screen of this visit), and each id the scroll it was left at,
 *  so Back (the control, the browser's, a phone's) returns to the place
 *  the user left, and the control never leaves the app. */
const scrolls = new Map();
let entryId = 0;
let entryDepth = -1;
history.scrollRestoration = "manual";

/** Back: to the screen before within the app, else up to the section. */
function goBack() {
  if (history.state && history.state.depth > 0) history.back();
  else location.hash = "#" + (SECTION_ROOTS[current && current[2]] || "/");
}

/** Leaves a screen that is gone (a removal): to `hash`, in place of it in the history. */
export function leaveFor(hash) { location.replace(hash); }

/** Draws the screen the address names; `quiet`: a redraw in place after a change elsewhere. */
export async function route(quiet) {
  const [path, query] = (location.hash.slice(1) || "/").split("?");
  const found = ROUTES.find(([pattern]) => pattern.test(path));
  const mine = ++generation;
  if (!found) {
    view.replaceChildren(heading("Not found"), h("p", {}, h("a", { href: "#/" }, "Listen Now")));
    return;
  }
  current = found;
  for (const link of document.querySelectorAll("#nav a")) {
    if (!(link instanceof HTMLElement)) continue;
    if (link.dataset.nav === found[2]) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  view.setAttribute("aria-busy", "true");
  if (!quiet) {
    // The place left, now: its scroll event may come only after the screen dims (and is then not kept).
    if (!view.classList.contains("navigating")) scrolls.set(entryId, window.scrollY);
    // The old screen goes dim at once, and gives way to a loading one if
    // the answer takes longer than a glance (no flash when it is quick).
    view.classList.add("navigating");
    setTimeout(() => {
      if (mine === generation && view.classList.contains("navigating")) view.replaceChildren(loadingScreen());
    }, view.dataset.path ? 150 : 0);
  }
  try {
    const args = found[0].exec(path).slice(1);
    const page = await found[1](...(args.length ? args : [null]), new URLSearchParams(query || ""));
    if (mine !== generation) return;
    const y = window.scrollY;
    const active = /** @type {any} */ (document.activeElement);
    const focused = active && active.id;
    // What is being typed survives a redraw made for a change elsewhere.
    const typed = active && active.matches("input:not([type=range])") ? [active.value, active.selectionStart, active.selectionEnd] : null;
    const deeper = path !== SECTION_ROOTS[found[2]];
    const drawn = document.createDocumentFragment();
    drawn.append(...[deeper ? h("button", { class: "back", id: "back", "aria-label": "Back", onclick: goBack },
      h("span", { "aria-hidden": "true" }, "\u2039"), " Back") : null, page].flat(Infinity).filter((e) => e != null));
    // Only a redraw for a change elsewhere needs it, never the first view.
    if (quiet) {
      (await import("./keep.js")).keepSame(view, drawn);
      if (mine !== generation) return;
    }
    view.replaceChildren(drawn);
    view.dataset.path = path;
    if (!quiet) {
      // A new entry is numbered; one met again (Back, Forward) has its number and its scroll.
      if (!history.state || history.state.id == null) history.replaceState({ id: Date.now() + Math.random(), depth: entryDepth + 1 }, "");
      entryId = history.state.id;
      entryDepth = history.state.depth;
    }
    if (quiet) {
      window.scrollTo(0, y);
      // Focus in a kept row stays on it (moving a node lets focus go); else it goes to the new node of its id.
      const again = active && active.isConnected && active !== document.body ? active : focused && $(focused);
      if (again) {
        again.focus();
        if (typed && again.matches("input")) { again.value = typed[0]; again.setSelectionRange(typed[1], typed[2]); }
      }
    } else {
      window.scrollTo(0, scrolls.get(entryId) || 0);
      // The first screen leaves the keyboard at the top (the skip link first); a new one takes it to its heading.
      if (drawnOnce) focusScreen();
      drawnOnce = true;
    }
    nameTitle();
  } catch (error) {
    if (mine !== generation) return;
    view.dataset.path = path;
    view.replaceChildren(heading(error.offline ? "previewd is away" : "Something went wrong"),
      h("p", { class: "error" }, error.message),
      h("button", { class: "primary", onclick: () => route(false) }, "Retry"));
  } finally {
    if (mine === generation) {
      view.setAttribute("aria-busy", "false");
      view.classList.remove("navigating");
    }
  }
}

/** What shows while a screen loads: a heading's place, a spinner, the word. */
function loadingScreen() {
  return h("div", { class: "loading-screen", role: "status" }, h("div", { class: "placeholder-title" }),
    h("p", { class: "loading" }, h("span", { class: "spinner", "aria-hidden": "true" }), "Loading\u2026"));
}

/** The last `status` reply, as fields (`state`, `elapsed`, `song`...).
 *  @type {Record<string, string>} */
export let status = { state: "stop" };
/** The last `currentsong` reply, as fields.
 *  @type {Record<string, string>} */
let song = {};
let statusAt = 0;
let seeking = false;

/** Reads the player's state and shows it in the bar; `outputs` too, in the same request. */
async function refreshStatus(outputs) {
  try {
    const [st, cur, out] = await read("status", "currentsong", ...(outputs ? ["outputs"] : []));
    if (out) refreshOutputs(out);
    status = fields(st);
    song = fields(cur);
    statusAt = performance.now();
    showStatus();
  } catch (error) {
    if (!error.offline) say(error.message);
  }
}

/** Seconds into the song: the last status's, moved on by the clock while playing (not while previewd is away). */
/** Moves the keyboard's (and a screen reader's) place to the new screen's heading. */
function focusScreen() {
  const title = view.querySelector("h1");
  if (!title) return;
  title.setAttribute("tabindex", "-1");
  title.focus({ preventScroll: true });
}

/** The window's title: the song while it plays, the screen, the program. */
function nameTitle() {
  const screen = view.querySelector("h1")?.textContent;
  const playing = status.state === "play" && song.file ? song.Title || song.file : null;
  document.title = [playing, screen, "previewd"].filter(Boolean).join(" \u2014 ");
}

function elapsed() {
  const base = Number(status.elapsed) || 0;
  return status.state === "play" && online ? base + (performance.now() - statusAt) / 1000 : base;
}

function showStatus() {
  const playing = status.state === "play";
  const title = song.file ? (song.Title || song.file) : "Nothing playing";
  $("title").textContent = title;
  $("artist").textContent = song.Artist || "";
  const bar = $("now-playing");
  if (bar.dataset.file !== (song.file || "") || !$("np-art").firstChild) {
    bar.dataset.file = song.file || "";
    $("np-art").replaceChildren(art(song.file));
  }
  $("toggle").setAttribute("aria-label", playing ? "Pause" : "Play");
  const length = Number(status.duration) || Number(song.Time) || 0;
  $("progress").max = String(length || 1);
  $("progress").disabled = !song.file;
  $("duration").textContent = duration(length);
  if (!seeking) showProgress();
  if (document.activeElement !== $("volume") && status.volume != null) $("volume").value = status.volume;
  $("volume").disabled = status.volume == null || status.volume === "-1";
  $("autoplay").setAttribute("aria-pressed", String(status.autoplay === "1"));
  document.body.dataset.state = status.state;
  nameTitle();
  markPlaying(song.file);
  if (status.error) say("error: " + status.error);
  mediaSession(playing);
  deviceFollow();
}

function showProgress() {
  const at = Math.min(elapsed(), Number($("progress").max));
  $("progress").value = String(at);
  $("elapsed").textContent = duration(at);
  $("np-line").firstChild.style.width = (song.file ? 100 * at / Number($("progress").max) : 0) + "%";
}

/** On a phone the bar is one row; a tap on the song opens the whole player, the chevron (or Escape, or a new screen) closes it. */
const phone = matchMedia("(max-width: 899px)");
function openPlayer(open) {
  const bar = $("now-playing");
  bar.classList.toggle("expanded", open);
  document.body.classList.toggle("player-open", open);
  $("song-now").setAttribute("aria-expanded", String(open));
  if (open) $("np-close").focus(); else if (phone.matches) $("song-now").focus({ preventScroll: true });
}

/** The Media Session API: title, artist and cover on a lock screen, and the media keys. */
function mediaSession(playing) {
  if (!("mediaSession" in navigator)) return;
  const session = navigator.mediaSession;
  if (!song.file) { session.metadata = null; session.playbackState = "none"; return; }
  if (!session.metadata || session.metadata.title !== (song.Title || song.file) || session.metadata.artist !== (song.Artist || "")) {
    const artwork = CATALOG.test(song.file) ? [{ src: "/cover?uri=" + encodeURIComponent(song.file), sizes: "500x500", type: "image/jpeg" }] : [];
    session.metadata = new MediaMetadata({ title: song.Title || song.file, artist: song.Artist || "", album: song.Album || "", artwork });
  }
  session.playbackState = playing ? "playing" : "paused";
}

/** An idle event: the bar, the outputs, the screen redrawn where the change touches them. */
function onIdle(changed) {
  if (changed.some((s) => ["player", "mixer", "options", "playlist"].includes(s))) refreshStatus();
  if (changed.includes("output")) refreshOutputs();
  if (current && current[3].some((s) => changed.includes(s)) && !$("menu").open) {
    const inPlace = current[4];
    if (inPlace) inPlace(changed).then((done) => { if (!done) redraw(); }, () => redraw());
    else redraw();
  }
}

function toggle() {
  if (status.state === "play") return change("pause 1");
  return change(status.state === "pause" ? "pause 0" : "play");
}

function setUp() {
  $("previous").addEventListener("click", () => change("previous"));
  $("next").addEventListener("click", () => change("next"));
  $("toggle").addEventListener("click", toggle);
  $("autoplay").addEventListener("click", () => change(cmd("autoplay", status.autoplay === "1" ? "0" : "1")));
  $("progress").addEventListener("input", () => { seeking = true; $("elapsed").textContent = duration($("progress").value); });
  $("progress").addEventListener("change", async () => {
    try { await change(cmd("seekcur", Number($("progress").value).toFixed(1))); } finally { seeking = false; }
  });
  $("volume").addEventListener("change", () => change(cmd("setvol", $("volume").value)));
  if ("mediaSession" in navigator) {
    const session = navigator.mediaSession;
    session.setActionHandler("play", () => change(status.state === "pause" ? "pause 0" : "play"));
    session.setActionHandler("pause", () => change("pause 1"));
    session.setActionHandler("previoustrack", () => change("previous"));
    session.setActionHandler("nexttrack", () => change("next"));
    try { session.setActionHandler("seekto", (d) => change(cmd("seekcur", d.seekTime.toFixed(1)))); } catch (_) { /* not offered */ }
  }
  $("skip").addEventListener("click", (event) => { event.preventDefault(); focusScreen(); });
  $("song-now").addEventListener("click", (event) => {
    if (!phone.matches || $("now-playing").classList.contains("expanded")) { openPlayer(false); return; }
    event.preventDefault();
    openPlayer(true);
  });
  $("np-close").addEventListener("click", () => openPlayer(false));
  const phoneOrNot = () => {
    if (phone.matches) $("song-now").setAttribute("aria-expanded", String($("now-playing").classList.contains("expanded")));
    else { $("song-now").removeAttribute("aria-expanded"); openPlayer(false); }
  };
  phone.addEventListener("change", phoneOrNot);
  phoneOrNot();
  // A tap outside the menu (on its backdrop) closes it, as a sheet or a popover does.
  $("menu").addEventListener("click", (event) => {
    const box = $("menu").getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (event.target === $("menu") && !inside) $("menu").close();
  });
  // A closed menu keeps nothing a later one could be mistaken for.
  $("menu").addEventListener("close", () => $("menu").replaceChildren());
  document.addEventListener("keydown", keys);
  // A refused change was shown already (say); it is not an error of the page.
  window.addEventListener("unhandledrejection", (event) => event.preventDefault());
  window.addEventListener("hashchange", () => { if ($("now-playing").classList.contains("expanded")) openPlayer(false); route(false); });
  window.addEventListener("scroll", () => { if (!view.classList.contains("navigating")) scrolls.set(entryId, window.scrollY); }, { passive: true });
  setInterval(() => { if (status.state === "play" && !seeking && online) showProgress(); }, 250);
  setUpOutputs();
  listen(onIdle, () => { refreshStatus(true); redraw(); });
  route(false);
  refreshStatus(true);
}

/** Space or `k`: play or pause; ← →: previous, next; `+` `-`: volume; `/`:
 * search. Not while typing, in the menu, or where the focused control
 * takes the key itself; ← → only when nothing is focused, and ↑ ↓ are
 * left to scroll the page. */
function keys(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey || $("menu").open) return;
  if (event.key === "Escape" && $("now-playing").classList.contains("expanded")) { openPlayer(false); return; }
  if (target.closest("input, textarea, select, [contenteditable]")) return;
  if (event.key === "/") {
    event.preventDefault();
    if (location.hash.startsWith("#/search")) $("search-input")?.focus(); else location.hash = "#/search";
    return;
  }
  // A focused button, link or summary takes Space and Enter itself.
  if (target.closest("button, a, summary") && (event.key === " " || event.key === "Enter")) return;
  const nothingFocused = target === document.body || target === document.documentElement;
  const volume = Number(status.volume);
  const action = {
    " ": toggle, "k": toggle,
    "ArrowRight": nothingFocused && (() => change("next")), "ArrowLeft": nothingFocused && (() => change("previous")),
    "+": () => volume >= 0 && change(cmd("setvol", Math.min(100, volume + 5))),
    "-": () => volume >= 0 && change(cmd("setvol", Math.max(0, volume - 5))),
  }[event.key];
  if (!action) return;
  event.preventDefault();
  action();
}

setUp();
