// ---- The page's dialog and toast: the "+ Add" menu, a question, a name, Undo ----
import { $, change, cmd, h, pageOf, read, readEach, records, say } from "./core.js";
import { leaveFor, route } from "./shell.js";

/** The "+ Add" menu: Want to Listen, the Library, a stored playlist, the
 *  queue; for a song also where it leads: its page, its album, its artist. */
export async function addMenu(uri, title, options) {
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
