// ---- Detail pages: album, artist, playlist, track, radio ----
import { actions, addButton, art, carousel, change, cmd, duration, enqueue, h, pageOf, playNow, playOne, read,
  readEach, records, shelfOf, songList } from "./core.js";

/** A detail page's head: a large cover, the title, lines of text (a line
 * given as [text, uri] links to that URI's page), the buttons. */
function hero(uri, title, lines, buttons) {
  const line = (l) => Array.isArray(l)
    ? h("p", { class: "sub" }, pageOf(l[1]) ? h("a", { href: pageOf(l[1]) }, l[0]) : l[0])
    : h("p", { class: "sub" }, l);
  return h("header", { class: "hero" }, art(uri, true),
    h("div", { class: "about" }, h("h1", {}, title), lines.filter((l) => Array.isArray(l) ? l[0] : l).map(line), buttons));
}

export async function album(id) {
  const uri = "deezer:album:" + id;
  const [info, tracks, want, library] = await read(cmd("cataloginfo", uri), cmd("lsinfo", uri), "wantlist", "librarylist");
  const a = records(info)[0] || { tags: {} };
  const wanted = records(want).some((r) => r.uri === uri);
  const saved = records(library).some((r) => r.uri === uri);
  const songs = records(tracks).filter((r) => r.kind === "file");
  const year = (a.tags.Date || "").slice(0, 4);
  return h("article", { class: "detail", "data-uri": uri },
    hero(uri, a.tags.Title || uri, [[a.tags.Artist, a.tags.ArtistURI], [a.tags.Type, a.tags.Genre, year].filter(Boolean).join(" \u00B7 "),
      saved ? "In your Library" : ""], actions(uri, a.tags.Title || uri, wanted)),
    songList(songs, (i) => playNow(uri, i), null, true),
    a.tags.Label ? h("p", { class: "fine" }, [a.tags.Date, a.tags.Label].filter(Boolean).join(" \u00B7 ")) : null);
}

export async function playlist(id) {
  const uri = "deezer:playlist:" + id;
  const [info, tracks, want] = await read(cmd("cataloginfo", uri), cmd("lsinfo", uri), "wantlist");
  const p = records(info)[0] || { tags: {} };
  const wanted = records(want).some((r) => r.uri === uri);
  const songs = records(tracks).filter((r) => r.kind === "file");
  return h("article", { class: "detail", "data-uri": uri },
    hero(uri, p.tags.Title || uri, [p.tags.Creator, p.tags.Tracks ? p.tags.Tracks + " songs" : ""], actions(uri, p.tags.Title || uri, wanted)),
    songList(songs, (i) => playNow(uri, i)));
}

export async function radio(id) {
  const uri = "deezer:radio:" + id;
  const [tracks] = await read(cmd("lsinfo", uri));
  const songs = records(tracks).filter((r) => r.kind === "file");
  return h("article", { class: "detail", "data-uri": uri },
    hero(uri, "Radio", ["A mix of " + songs.length + " songs"], h("div", { class: "actions" },
      h("button", { class: "primary", onclick: () => playNow(uri) }, "\u25B6 Play"),
      h("button", { onclick: () => enqueue(uri) }, "Add to queue"))),
    songList(songs, (i) => playNow(uri, i)));
}

export async function track(id) {
  const uri = "deezer:track:" + id;
  const [info, want] = await read(cmd("cataloginfo", uri), "wantlist");
  const t = records(info)[0] || { tags: {} };
  const wanted = records(want).some((r) => r.uri === uri);
  return h("article", { class: "detail", "data-uri": uri },
    hero(uri, t.tags.Title || uri, [[t.tags.Artist, t.tags.ArtistURI], [t.tags.Album, t.tags.AlbumURI], t.tags.Time ? duration(t.tags.Time) : ""],
      [addButton(uri, t.tags.Title || uri, wanted), h("div", { class: "actions" },
        h("button", { class: "primary", onclick: () => playOne(uri) }, "\u25B6 Play"),
        h("button", { onclick: () => enqueue(uri) }, "Add to queue"))]));
}

/** An artist: top tracks, albums, related artists, and a radio of tracks like theirs. */
export async function artist(id) {
  const uri = "deezer:artist:" + id;
  const [info, top, albums, related] = await readEach(cmd("cataloginfo", uri), cmd("lsinfo", uri),
    cmd("catalogalbums", uri), cmd("catalogrelated", uri));
  if (info instanceof Error) throw info;
  const a = records(info)[0] || { tags: {} };
  const songs = records(top).filter((r) => r.kind === "file").slice(0, 10);
  const fans = a.tags.Fans ? Number(a.tags.Fans).toLocaleString() + " fans" : "";
  const startRadio = async () => {
    const [mix] = await read(cmd("catalogradio", uri));
    const uris = records(mix).filter((r) => r.kind === "file").slice(0, 14).map((r) => cmd("add", r.uri));
    await change("clear", ...uris, "play");
  };
  return h("article", { class: "detail", "data-uri": uri },
    hero(uri, a.tags.Name || uri, [fans, a.tags.Albums ? a.tags.Albums + " albums" : ""], h("div", { class: "actions" },
      h("button", { class: "primary", onclick: () => playNow(uri) }, "\u25B6 Play top tracks"),
      h("button", { onclick: startRadio }, "Radio"),
      h("button", { onclick: () => enqueue(uri) }, "Add to queue"))),
    shelfOf("Top Tracks", top, () => h("section", { class: "shelf" }, h("header", {}, h("h2", {}, "Top Tracks")),
      songList(songs, (i) => playNow(uri, i)))),
    shelfOf("Albums", albums, (r) => carousel("Albums",
      records(r).map((x) => Object.assign(x, { tags: Object.assign({ Artist: a.tags.Name }, x.tags) })))),
    shelfOf("Related Artists", related, (r) => carousel("Related Artists", records(r))));
}
