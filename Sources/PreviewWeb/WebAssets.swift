/// The page, its script and its style, hand-written and served from the
/// binary (no framework, nothing fetched at build time). The script puts
/// catalog text on the page with `textContent` only, never as markup.
public enum WebAssets {
    /// The page, with the token state-changing requests need in a `<meta>`
    /// element (the token is hex: nothing to escape).
    public static func page(token: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="previewweb-token" content="\(token)">
        <title>previewd</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <main id="main"><h1>previewd</h1><p id="message" role="status"></p></main>
        <footer id="now-playing" aria-label="Now playing">
          <div class="song"><div id="title">Nothing playing</div><div id="artist"></div></div>
          <progress id="progress" max="1" value="0" aria-label="Position in the song"></progress>
          <div class="buttons">
            <button id="previous" aria-label="Previous">&#x23EE;</button>
            <button id="toggle" aria-label="Play">&#x25B6;</button>
            <button id="next" aria-label="Next">&#x23ED;</button>
          </div>
        </footer>
        </body>
        </html>

        """
    }

    public static let script = """
        "use strict";
        const token = document.querySelector('meta[name="previewweb-token"]').content;
        const $ = (id) => document.getElementById(id);
        let state = "stop";

        function show(status) {
          state = status.state;
          const song = status.song;
          $("title").textContent = song ? (song.title || song.uri) : "Nothing playing";
          $("artist").textContent = song && song.artist ? song.artist : "";
          $("progress").max = song && song.duration ? song.duration : 1;
          $("progress").value = song && song.elapsed ? song.elapsed : 0;
          const playing = state === "play";
          $("toggle").textContent = playing ? "\\u23F8" : "\\u25B6";
          $("toggle").setAttribute("aria-label", playing ? "Pause" : "Play");
          $("message").textContent = status.error || "";
          document.body.dataset.state = state;
        }

        async function refresh() {
          const answer = await fetch("/api/status", { cache: "no-store" });
          if (answer.ok) show(await answer.json());
          else $("message").textContent = await answer.text();
        }

        async function command(name) {
          const answer = await fetch("/api/" + name, { method: "POST", headers: { "X-Previewweb-Token": token } });
          if (!answer.ok) $("message").textContent = await answer.text();
          await refresh();
        }

        $("previous").addEventListener("click", () => command("previous"));
        $("next").addEventListener("click", () => command("next"));
        $("toggle").addEventListener("click", () => command(state === "play" ? "pause" : "play"));
        document.addEventListener("keydown", (event) => {
          if (event.target instanceof HTMLInputElement) return;
          if (event.key === " ") { event.preventDefault(); $("toggle").click(); }
          if (event.key === "ArrowRight") $("next").click();
          if (event.key === "ArrowLeft") $("previous").click();
        });
        document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
        refresh();

        """

    public static let style = """
        :root { color-scheme: light dark; --bar: #f2f2f5; --text: #111; }
        @media (prefers-color-scheme: dark) { :root { --bar: #1c1c1e; --text: #f5f5f7; } }
        body { margin: 0; font: 16px/1.4 system-ui, sans-serif; color: var(--text); padding-bottom: 6rem; }
        main { padding: 1rem; }
        footer { position: fixed; bottom: 0; left: 0; right: 0; background: var(--bar); padding: .5rem 1rem;
                 display: grid; grid-template-columns: 1fr auto; gap: .25rem 1rem; align-items: center; }
        .song { min-width: 0; }
        #title { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        #artist { opacity: .7; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        progress { grid-column: 1 / -1; width: 100%; }
        button { font-size: 1.4rem; min-width: 2.75rem; min-height: 2.75rem; border: 0; background: none; color: inherit; }
        button:focus-visible { outline: 2px solid Highlight; }

        """
}
