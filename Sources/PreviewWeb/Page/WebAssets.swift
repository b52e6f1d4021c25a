/// The page, its script, its style, the PWA manifest and the icon,
/// hand-written and served from the binary (no framework, nothing fetched
/// at build time). The script (`WebScript`) puts catalog text on the page
/// as text nodes only, never as markup.
public enum WebAssets {
    /// The page, with the token state-changing requests need in a `<meta>`
    /// element (the token is hex: nothing to escape).
    public static func page(token: String) -> String {
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        <meta name="theme-color" content="#d6234a">
        <meta name="previewweb-token" content="\#(token)">
        <title>previewd</title>
        <link rel="manifest" href="/manifest.webmanifest" crossorigin="use-credentials">
        <link rel="icon" href="/icon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <nav id="nav" aria-label="Sections">
          <a href="#/" data-nav="now">Listen Now</a>
          <a href="#/explore" data-nav="explore">Explore</a>
          <a href="#/search" data-nav="search">Search</a>
          <a href="#/library" data-nav="library">Library</a>
          <a href="#/playlists" data-nav="playlists">Playlists</a>
          <a href="#/queue" data-nav="queue">Queue</a>
        </nav>
        <main id="view" aria-busy="true"></main>
        <p id="message" role="status" aria-live="polite"></p>
        <footer id="now-playing" aria-label="Now playing" data-file="">
          <div id="np-art"></div>
          <div class="song-now"><a id="title" href="#/queue">Nothing playing</a><div id="artist"></div></div>
          <div class="transport">
            <button id="previous" aria-label="Previous"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h2v14H6zM20 5v14L9 12z"/></svg></button>
            <button id="toggle" aria-label="Play"><svg class="play" viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4v16l13-8z"/></svg><svg class="pause" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 4h4v16H6zM14 4h4v16h-4z"/></svg></button>
            <button id="next" aria-label="Next"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16 5h2v14h-2zM4 5v14l11-7z"/></svg></button>
          </div>
          <div class="position">
            <span id="elapsed">0:00</span>
            <input type="range" id="progress" min="0" max="1" step="0.1" value="0" aria-label="Position in the song">
            <span id="duration">0:00</span>
            <input type="range" id="volume" min="0" max="100" step="1" value="0" aria-label="Volume">
            <button id="outputs-button" class="icon" aria-label="Outputs" hidden><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9v6h4l5 5V4L7 9zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z"/></svg></button>
          </div>
        </footer>
        <dialog id="menu" aria-label="Menu"></dialog>
        </body>
        </html>
        """#
    }

    /// The whole script: its parts in the order they are defined in.
    public static let script = [WebScript.core, WebScript.browse, WebScript.detail, WebScript.queue, WebScript.outputs, WebScript.shell].joined()

    /// The style sheet.
    public static let style = WebStyle.sheet

    /// The web app manifest (installable as a PWA).
    public static let manifest = #"""
        {"name": "previewd", "short_name": "previewd", "description": "Deezer's previews, played by previewd",
         "start_url": "/", "scope": "/", "display": "standalone", "background_color": "#000000", "theme_color": "#d6234a",
         "icons": [{"src": "/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
                   {"src": "/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "maskable"}]}
        """#

    /// The icon, as SVG (any size): a play sign on the accent colour.
    public static let icon = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
        <rect width="512" height="512" rx="96" fill="#d6234a"/>
        <path d="M196 146v220l176-110z" fill="#fff"/>
        </svg>
        """#
}
