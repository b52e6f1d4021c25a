// ---- The queue and the stored playlists ----
import { change, cmd, duration, fields, h, heading, read, records, say, songList, titleOf } from "./core.js";
import { ask, askName, toast } from "./menu.js";

/** Songs an Undo of Clear puts back at most (one request); a longer queue is cleared only once the user says so. */
const MAX_UNDO = 120;

/** The queue on screen: the queue version it shows (MPD's `playlist`),
 *  its songs by position, the last status, the list element. A change
 *  elsewhere is read as `plchanges VERSION` (the songs whose position
 *  changed) and applied to the rows in place, keyed by song id, so a song
 *  added to a queue of 10,000 moves one record, not the queue. */
const shown = { version: "", items: [], status: /** @type {Record<string, string>} */ ({}), list: null };

const itemOf = (r) => Object.assign(r, { id: r.tags.Id, pos: Number(r.tags.Pos) });

/** Clear, undone by Undo: the songs back in order, and the one playing at the place it was. */
async function clearQueue() {
  const items = shown.items.slice();
  const s = shown.status;
  if (items.length > MAX_UNDO && !await ask("Clear all " + items.length.toLocaleString() + " songs of the queue?", "Clear")) return;
  await change("clear");
  if (items.length > MAX_UNDO) { say("The queue is cleared"); return; }
  const at = items.findIndex((r) => r.id === s.songid);
  const resume = at >= 0 && s.state !== "stop"
    ? [cmd("play", at), cmd("seekcur", Number(s.elapsed || 0).toFixed(1))].concat(s.state === "pause" ? ["pause 1"] : []) : [];
  toast("Queue cleared", () => change(...items.map((r) => cmd("add", r.uri)), ...resume));
}

/** ✕ on a song of the queue, undone by Undo: the song back at its place. */
async function removeSong(r) {
  const at = shown.items.findIndex((x) => x.id === r.id);
  await change(cmd("deleteid", r.id));
  toast("Removed \u201C" + titleOf(r) + "\u201D", () => change(cmd("addid", r.uri, Math.max(at, 0))));
}

/** Why autoplay added a song (its `Comment: autoplay: like "X"`), as the row shows it; "" for the user's own. */
function autoplayReason(r) {
  const comment = r.tags.Comment || "";
  return comment.startsWith("autoplay: ") ? "Autoplay, " + comment.slice("autoplay: ".length) : "";
}

/** One song's row; the Move buttons and the number follow its place (`placeRows`). */
function queueRow(r) {
  const place = () => shown.items.findIndex((x) => x.id === r.id);
  const sub = [r.tags.Artist || "", autoplayReason(r)].filter(Boolean).join(" \u00B7 ");
  return h("li", { "data-id": r.id, "data-uri": r.uri, "data-pos": String(r.pos) },
    h("span", { class: "handle", "aria-hidden": "true", title: "Drag to reorder" }, "\u2261"),
    h("button", { class: "song", "aria-label": "Play " + titleOf(r), onclick: () => change(cmd("playid", r.id)) },
      h("span", { class: "pos" }, String(r.pos + 1)),
      h("span", { class: "text" }, h("span", { class: "name" }, titleOf(r)), h("span", { class: "sub" }, sub)),
      h("span", { class: "time" }, r.tags.Time ? duration(r.tags.Time) : "")),
    h("button", { class: "icon move up", "aria-label": "Move " + titleOf(r) + " up", onclick: () => change(cmd("moveid", r.id, place() - 1)) }, "\u2191"),
    h("button", { class: "icon move down", "aria-label": "Move " + titleOf(r) + " down", onclick: () => change(cmd("moveid", r.id, place() + 1)) }, "\u2193"),
    h("button", { class: "icon", "aria-label": "Remove " + titleOf(r), onclick: () => removeSong(r) }, "\u2715"));
}

/** Puts the rows in the queue's order, reusing each song's row while its
 *  place is unchanged; marks the current song, the ends' Move buttons.
 *  Rows before `from` are in place already (`plchanges` names every song
 *  whose place changed), so an append walks no row but its own. */
function placeRows(changedIds, from = 0) {
  const list = shown.list;
  const old = new Map();
  for (let i = from; i < list.children.length; i++) {
    const li = /** @type {HTMLElement} */ (list.children[i]);
    old.set(li.dataset.id, li);
  }
  for (let i = from; i < shown.items.length; i++) {
    const r = shown.items[i];
    const row = (!changedIds.has(r.id) && old.get(r.id)) || queueRow(r);
    if (list.children[i] !== row) list.insertBefore(row, list.children[i] || null);
  }
  while (list.children.length > shown.items.length) list.lastElementChild.remove();
  const rows = list.children;
  for (const row of list.querySelectorAll("li.current")) { row.classList.remove("current"); row.removeAttribute("aria-current"); }
  const current = list.querySelector("li[data-id=\"" + CSS.escape(shown.status.songid || "") + "\"]");
  if (current) { current.classList.add("current"); current.setAttribute("aria-current", "true"); }
  for (const i of [0, 1, rows.length - 2, rows.length - 1]) {
    if (i < 0 || i >= rows.length) continue;
    /** @type {HTMLButtonElement} */ (rows[i].querySelector(".up")).disabled = i === 0;
    /** @type {HTMLButtonElement} */ (rows[i].querySelector(".down")).disabled = i === rows.length - 1;
  }
}

/** The header's controls as the status says: Now Playing, Repeat, Autoplay, Clear. */
function placeControls() {
  const s = shown.status;
  const now = document.getElementById("queue-now");
  if (now) now.hidden = !s.songid;
  const repeat = document.getElementById("queue-repeat");
  if (repeat) repeat.setAttribute("aria-pressed", String(s.repeat === "1"));
  const autoplay = document.getElementById("queue-autoplay");
  if (autoplay) autoplay.setAttribute("aria-pressed", String(s.autoplay === "1"));
  const clear = /** @type {HTMLButtonElement} */ (document.getElementById("queue-clear"));
  if (clear) clear.disabled = !shown.items.length;
}

/** Live, on the queue's screen: applies what changed since the version
 *  shown; false when the screen is to be drawn anew instead (it is gone,
 *  or the queue became empty or stopped being so). */
export async function queueUpdate() {
  if (!shown.list || !shown.list.isConnected) return false;
  const [diff, st] = await read(cmd("plchanges", shown.version), "status");
  const s = fields(st);
  const length = Number(s.playlistlength || 0);
  if ((length === 0) !== (shown.items.length === 0)) return false;
  const changed = records(diff).map(itemOf);
  for (const r of changed) shown.items[r.pos] = r;
  shown.items.length = length;
  shown.version = s.playlist;
  shown.status = s;
  const from = changed.reduce((low, r) => Math.min(low, r.pos), length);
  placeRows(new Set(changed.map((r) => r.id)), from);
  placeControls();
  return true;
}

/** The queue: tap to play, drag the handle (or the Move buttons) to reorder, remove, clear, shuffle, repeat, autoplay. */
export async function queue() {
  const [songs, st] = await read("playlistinfo", "status");
  shown.status = fields(st);
  shown.version = shown.status.playlist;
  shown.items = records(songs).map(itemOf);
  shown.list = h("ol", { class: "songs queue", id: "queue" });
  placeRows(new Set());
  const list = shown.list;
  dragToReorder(list);
  const name = h("input", { id: "save-name", placeholder: "Playlist name", "aria-label": "Save the queue as", maxlength: "200" });
  const nowPlaying = () => {
    const row = document.querySelector("#queue li.current");
    if (!row) return;
    row.scrollIntoView({ block: "center" });
    /** @type {HTMLElement} */ (row.querySelector("button.song")).focus({ preventScroll: true });
  };
  const repeat = () => change(cmd("repeat", shown.status.repeat === "1" ? "0" : "1"));
  const autoplay = () => change(cmd("autoplay", shown.status.autoplay === "1" ? "0" : "1"));
  const items = shown.items;
  return [heading("Queue", h("div", { class: "actions" },
      h("button", { id: "queue-now", hidden: !shown.status.songid, onclick: nowPlaying }, "Now Playing"),
      h("button", { id: "queue-shuffle", onclick: () => change("shuffle") }, "\u21C4 Shuffle"),
      h("button", { id: "queue-repeat", "aria-pressed": String(shown.status.repeat === "1"), onclick: repeat }, "\u21BB Repeat"),
      h("button", { id: "queue-autoplay", "aria-pressed": String(shown.status.autoplay === "1"), onclick: autoplay,
        title: "When the queue ends, songs like it play on" }, "\u221E Autoplay"),
      h("button", { id: "queue-clear", disabled: !items.length, onclick: clearQueue }, "Clear"))),
    items.length ? list : h("p", { class: "empty" }, "The queue is empty: play something from Listen Now, Explore or Search."),
    items.length ? h("form", { class: "inline", onsubmit: async (event) => {
      event.preventDefault();
      if (!name.value.trim()) return;
      await change(cmd("save", name.value.trim()));
      say("Saved as " + name.value.trim());
    } }, name, h("button", { type: "submit" }, "Save as playlist")) : null];
}

/** Reorders by dragging a row's handle (mouse, pen or touch): `moveid` on release. */
function dragToReorder(list) {
  list.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest(".handle");
    if (!handle) return;
    event.preventDefault();
    const row = handle.closest("li");
    const others = [...list.children].filter((r) => r !== row);
    const from = [...list.children].indexOf(row);
    let to = from;
    row.classList.add("dragging");
    handle.setPointerCapture(event.pointerId);
    // The final position: before the first other row whose middle is below the pointer.
    const move = (e) => {
      const at = others.findIndex((r) => { const box = r.getBoundingClientRect(); return e.clientY < box.top + box.height / 2; });
      to = at < 0 ? others.length : at;
      others.forEach((r, i) => r.classList.toggle("drop-before", i === to));
      list.classList.toggle("drop-end", to === others.length);
    };
    const done = () => {
      handle.removeEventListener("pointermove", move);
      row.classList.remove("dragging");
      others.forEach((r) => r.classList.remove("drop-before"));
      list.classList.remove("drop-end");
      if (to !== from) change(cmd("moveid", row.dataset.id, to));
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", done, { once: true });
    handle.addEventListener("pointercancel", done, { once: true });
  });
}

/** New playlist: named, made of the queue's songs (none when it is empty; MPD keeps no other empty playlist). */
async function newPlaylist(queued) {
  const name = await askName("New playlist", "", "Create",
    queued ? "It starts with the queue\u2019s " + queued + " songs." : "It starts empty: add songs from their \u22EF menu.");
  if (!name) return;
  await change(cmd("save", name, "create"));
  location.hash = "#/stored/" + encodeURIComponent(name);
}

export async function playlists() {
  const [reply, st] = await read("listplaylists", "status");
  const items = records(reply);
  const queued = Number(fields(st).playlistlength || 0);
  return [heading("Playlists", h("div", { class: "actions" }, h("button", { id: "playlist-new", class: "primary",
      onclick: () => newPlaylist(queued) }, "+ New Playlist"))),
    items.length ? h("ul", { class: "rows" }, items.map((p) => h("li", { "data-key": p.uri },
      h("a", { href: "#/stored/" + encodeURIComponent(p.uri), "data-name": p.uri }, h("span", { class: "text" }, h("span", { class: "name" }, p.uri)))))) 
      : h("p", { class: "empty" }, "No playlists yet: \u201C+ Add\u201D a song to a new playlist, or save the queue.")];
}

/** A stored playlist: play, rename, delete; remove a song. */
export async function stored(encoded) {
  const name = decodeURIComponent(encoded);
  const [songs] = await read(cmd("listplaylistinfo", name));
  const items = records(songs);
  const rename = async () => {
    const to = await askName("Rename the playlist", name, "Rename");
    if (!to || to === name) return;
    await change(cmd("rename", name, to));
    location.replace("#/stored/" + encodeURIComponent(to));
  };
  /** ✕ on a song, undone by Undo: the song back at its place. */
  const remove = async (r, i) => {
    await change(cmd("playlistdelete", name, i));
    toast("Removed \u201C" + titleOf(r) + "\u201D from " + name, () => change(cmd("playlistadd", name, r.uri, i)));
  };
  return [heading(name, h("div", { class: "actions" },
      h("button", { class: "primary", onclick: () => change("clear", cmd("load", name), "play") }, "\u25B6 Play"),
      h("button", { onclick: () => change(cmd("load", name)).then(() => say("Added to the queue")) }, "Add to queue"),
      h("button", { id: "playlist-delete", onclick: async () => {
        if (!await ask("Delete the playlist \u201C" + name + "\u201D?", "Delete")) return;
        await change(cmd("rm", name));
        location.replace("#/playlists");
      } }, "Delete"),
      h("button", { id: "playlist-rename", onclick: rename }, "Rename"))),
    items.length ? null : h("p", { class: "empty" }, "No songs yet: add songs from their \u22EF menu."),
    songList(items, (i) => change("clear", cmd("load", name), cmd("play", i)),
      // Its position in an attribute: a row kept by a live change (`keepSame`) is one whose ✕ still removes the right song.
      (r, i) => h("button", { class: "icon", "aria-label": "Remove " + titleOf(r), "data-pos": String(i), onclick: () => remove(r, i) },
        "\u2715"))];
}
