// ---- The queue and the stored playlists ----
import { ask, askName, change, cmd, duration, fields, h, heading, read, records, say, songList, titleOf, toast } from "./core.js";

/** Songs an Undo of Clear puts back at most (one request); a longer queue is cleared only once the user says so. */
const MAX_UNDO = 120;

/** Clear, undone by Undo: the songs back in order, and the one playing at the place it was. */
async function clearQueue(items, s) {
  if (items.length > MAX_UNDO && !await ask("Clear all " + items.length.toLocaleString() + " songs of the queue?", "Clear")) return;
  await change("clear");
  if (items.length > MAX_UNDO) { say("The queue is cleared"); return; }
  const at = items.findIndex((r) => r.id === s.songid);
  const resume = at >= 0 && s.state !== "stop"
    ? [cmd("play", at), cmd("seekcur", Number(s.elapsed || 0).toFixed(1))].concat(s.state === "pause" ? ["pause 1"] : []) : [];
  toast("Queue cleared", () => change(...items.map((r) => cmd("add", r.uri)), ...resume));
}

/** ✕ on a song of the queue, undone by Undo: the song back at its place. */
async function removeSong(r, i) {
  await change(cmd("deleteid", r.id));
  toast("Removed \u201C" + titleOf(r) + "\u201D", () => change(cmd("addid", r.uri, i)));
}

/** The queue: tap to play, drag the handle (or the Move buttons) to reorder, remove, clear, shuffle, repeat. */
export async function queue() {
  const [songs, st] = await read("playlistinfo", "status");
  const s = fields(st);
  const items = records(songs).map((r) => Object.assign(r, { id: r.tags.Id, pos: Number(r.tags.Pos) }));
  const list = h("ol", { class: "songs queue", id: "queue" }, items.map((r, i) => h("li", {
    "data-id": r.id, "data-uri": r.uri, class: s.songid === r.id ? "current" : "", "aria-current": s.songid === r.id ? "true" : null },
    h("span", { class: "handle", "aria-hidden": "true", title: "Drag to reorder" }, "\u2261"),
    h("button", { class: "song", "aria-label": "Play " + titleOf(r), onclick: () => change(cmd("playid", r.id)) },
      h("span", { class: "pos" }, String(i + 1)),
      h("span", { class: "text" }, h("span", { class: "name" }, titleOf(r)), h("span", { class: "sub" }, r.tags.Artist || "")),
      h("span", { class: "time" }, r.tags.Time ? duration(r.tags.Time) : "")),
    h("button", { class: "icon move", "aria-label": "Move " + titleOf(r) + " up", disabled: i === 0,
      onclick: () => change(cmd("moveid", r.id, i - 1)) }, "\u2191"),
    h("button", { class: "icon move", "aria-label": "Move " + titleOf(r) + " down", disabled: i === items.length - 1,
      onclick: () => change(cmd("moveid", r.id, i + 1)) }, "\u2193"),
    h("button", { class: "icon", "aria-label": "Remove " + titleOf(r), onclick: () => removeSong(r, i) }, "\u2715"))));
  dragToReorder(list);
  const name = h("input", { id: "save-name", placeholder: "Playlist name", "aria-label": "Save the queue as", maxlength: "200" });
  const on = (flag) => s[flag] === "1";
  const nowPlaying = () => {
    const row = document.querySelector("#queue li.current");
    if (!row) return;
    row.scrollIntoView({ block: "center" });
    /** @type {HTMLElement} */ (row.querySelector("button.song")).focus({ preventScroll: true });
  };
  return [heading("Queue", h("div", { class: "actions" },
      s.songid ? h("button", { id: "queue-now", onclick: nowPlaying }, "Now Playing") : null,
      h("button", { id: "queue-shuffle", onclick: () => change("shuffle") }, "\u21C4 Shuffle"),
      h("button", { id: "queue-repeat", "aria-pressed": String(on("repeat")), onclick: () => change(cmd("repeat", on("repeat") ? "0" : "1")) }, "\u21BB Repeat"),
      h("button", { id: "queue-clear", disabled: !items.length, onclick: () => clearQueue(items, s) }, "Clear"))),
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
    items.length ? h("ul", { class: "rows" }, items.map((p) => h("li", {},
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
      (r, i) => h("button", { class: "icon", "aria-label": "Remove " + titleOf(r), onclick: () => remove(r, i) }, "\u2715"))];
}
