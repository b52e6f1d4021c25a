/// The page's style sheet: mobile first (a tab bar and the now-playing bar
/// at the bottom), a sidebar from 900 px wide, light and dark as the
/// system is.
enum WebStyle {
    static let sheet = #"""
        :root { color-scheme: light dark; --bg: #fff; --text: #111; --muted: #6e6e73; --bar: #f2f2f5cc; --line: #d9d9de;
          --accent: #d6234a; --card: #ececf0; --nav: 3.5rem; --player: 7.5rem; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #000; --text: #f5f5f7; --muted: #a1a1a6; --bar: #1c1c1ecc; --line: #38383a; --accent: #ff4f6e; --card: #2c2c2e; }
        }
        * { box-sizing: border-box; }
        /* What the keyboard (or a script) scrolls to stays clear of the fixed bars. */
        html { scroll-padding-bottom: calc(var(--player) + var(--nav) + 1rem); }
        body { margin: 0; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); background: var(--bg);
          padding-bottom: calc(var(--player) + var(--nav)); }
        a { color: inherit; }
        button, input, select { font: inherit; color: inherit; }
        button { cursor: pointer; border: 0; border-radius: .5rem; background: var(--card); padding: .5rem .9rem; min-height: 2.75rem; }
        button.primary, button[aria-pressed="true"] { background: var(--accent); color: #fff; }
        button.icon { background: none; min-width: 2.75rem; padding: 0; font-size: 1.2rem; }
        button:disabled { opacity: .35; cursor: default; }
        :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -100vw; }
        .skip:focus { left: 1rem; top: 1rem; z-index: 10; background: var(--bg); padding: .5rem; }

        #nav { position: fixed; left: 0; right: 0; bottom: var(--player); height: var(--nav); display: flex; z-index: 2;
          background: var(--bar); backdrop-filter: blur(20px); border-top: 1px solid var(--line); overflow-x: auto; }
        #nav a { flex: 1 1 0; display: flex; align-items: center; justify-content: center; padding: 0 .15rem; text-decoration: none;
          font-size: .75rem; line-height: 1.1; text-align: center; color: var(--muted); }
        #nav a[aria-current="page"] { color: var(--accent); font-weight: 600; }
        main { padding: 1rem; max-width: 75rem; }
        main[aria-busy="true"] { cursor: progress; }
        header.page { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; }
        h1 { font-size: 1.8rem; margin: .5rem 0 1rem; }
        h2 { font-size: 1.25rem; margin: 0; }
        .empty, .loading, .fine, .count { color: var(--muted); }
        .error { color: var(--accent); }
        #message { position: fixed; left: 1rem; right: 1rem; bottom: calc(var(--player) + var(--nav) + .5rem); margin: 0; z-index: 3;
          text-align: center; pointer-events: none; }
        #message:not(:empty) { background: var(--text); color: var(--bg); padding: .5rem 1rem; border-radius: .5rem; }

        .shelf { margin: 0 0 1.75rem; }
        .shelf > header { display: flex; align-items: baseline; justify-content: space-between; margin-bottom: .6rem; }
        .more { color: var(--accent); text-decoration: none; }
        .carousel { display: grid; grid-auto-flow: column; grid-auto-columns: 42%; gap: .9rem; overflow-x: auto;
          scroll-snap-type: x mandatory; padding-bottom: .4rem; scrollbar-width: thin; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: 1rem; }
        .card { display: flex; flex-direction: column; gap: .2rem; text-decoration: none; scroll-snap-align: start; min-width: 0; }
        .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .sub { color: var(--muted); font-size: .875rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; margin: 0; }
        .art { aspect-ratio: 1; border-radius: .5rem; overflow: hidden; background: linear-gradient(135deg, var(--card), var(--line)); }
        .art img { width: 100%; height: 100%; object-fit: cover; display: block; }
        .art.missing img { visibility: hidden; }
        .card[data-uri^="deezer:artist"] .art { border-radius: 50%; }
        .chips { display: flex; flex-wrap: wrap; gap: .5rem; }
        .chip { background: var(--card); border-radius: 1rem; padding: .4rem .9rem; text-decoration: none; }

        .hero { display: grid; grid-template-columns: 1fr; gap: 1rem; margin-bottom: 1rem; }
        .hero .art.large { width: min(70vw, 18rem); margin: 0 auto; box-shadow: 0 .5rem 1.5rem #0003; }
        .hero h1 { margin: 0 0 .25rem; font-size: 1.5rem; }
        .hero .sub a { color: var(--accent); text-decoration: none; }
        .actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .75rem; }
        #add-menu.saved { background: var(--accent); color: #fff; min-width: 2.75rem; font-size: 1.2rem; }

        .songs, .rows { list-style: none; margin: 0; padding: 0; }
        .songs li { display: flex; align-items: center; border-bottom: 1px solid var(--line); }
        .songs li.current .name { color: var(--accent); font-weight: 600; }
        .songs li.unplayable .text { opacity: .5; }
        .songs button.song { flex: 1; display: flex; align-items: center; gap: .75rem; background: none; border-radius: 0; text-align: left;
          min-width: 0; padding: .4rem 0; }
        .songs .pos { width: 1.75rem; text-align: right; color: var(--muted); flex: none; }
        .songs .text, .rows .text { display: flex; flex-direction: column; min-width: 0; flex: 1; }
        .songs .time { color: var(--muted); font-variant-numeric: tabular-nums; }
        .handle { cursor: grab; touch-action: none; padding: 0 .5rem; font-size: 1.3rem; color: var(--muted); user-select: none; }
        .queue li.dragging { opacity: .5; }
        /* On a phone the Move buttons show on the row that has the keyboard's focus; the handle is for fingers. */
        @media (max-width: 899px) { .queue .move { display: none; } .queue li:focus-within .move { display: inline-block; } }
        .queue li.drop-before { box-shadow: inset 0 3px 0 var(--accent); }
        .queue.drop-end li:last-child { box-shadow: inset 0 -3px 0 var(--accent); }
        .rows li a { display: flex; align-items: center; gap: .75rem; padding: .5rem 0; text-decoration: none; border-bottom: 1px solid var(--line); }
        .rows .art { width: 3.5rem; flex: none; }

        form.search { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: 1rem; }
        form.search input[type="search"] { flex: 1 1 12rem; }
        input, select { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; min-height: 2.75rem; }
        details { flex-basis: 100%; }
        .filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); gap: .5rem; margin-top: .5rem; }
        .filters label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
        form.inline { display: flex; gap: .5rem; margin: 1rem 0; }
        form.inline input { flex: 1; min-width: 0; }

        dialog { border: 1px solid var(--line); border-radius: 1rem; padding: 1rem; width: min(92vw, 24rem); background: var(--bg);
          color: var(--text); box-shadow: 0 1rem 3rem #0008; }
        @media (prefers-color-scheme: dark) { dialog { background: #1c1c1e; } }
        dialog::backdrop { background: #0007; }
        dialog > button { display: block; width: 100%; margin: .4rem 0; text-align: left; }
        dialog h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
        dialog h3 { font-size: .9rem; color: var(--muted); margin: 1rem 0 .25rem; }
        dialog .cancel { text-align: center; background: none; color: var(--accent); }

        #now-playing { position: fixed; left: 0; right: 0; bottom: 0; height: var(--player); z-index: 2; background: var(--bar);
          backdrop-filter: blur(20px); border-top: 1px solid var(--line); padding: .5rem 1rem;
          display: grid; grid-template-columns: 3.25rem 1fr auto; grid-template-rows: auto auto; gap: .35rem .75rem; align-items: center; }
        #np-art .art { width: 3.25rem; }
        .song-now { min-width: 0; }
        #title { display: block; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-decoration: none; }
        #artist { color: var(--muted); font-size: .875rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .transport { display: flex; }
        .transport button { background: none; min-width: 2.75rem; padding: 0; }
        .transport svg { width: 1.5rem; height: 1.5rem; fill: currentColor; vertical-align: middle; }
        #toggle .pause, body[data-state="play"] #toggle .play { display: none; }
        body[data-state="play"] #toggle .pause { display: inline; }
        .position { grid-column: 1 / -1; display: flex; align-items: center; gap: .5rem; font-size: .75rem; color: var(--muted);
          font-variant-numeric: tabular-nums; }
        .position input[type="range"] { flex: 1; min-width: 0; min-height: 1.5rem; padding: 0; background: none; border: 0;
          accent-color: var(--accent); }
        #volume { flex: 0 1 6rem; }
        #outputs-button { flex: none; min-height: 2rem; min-width: 2.25rem; color: var(--muted); }
        #outputs-button svg { width: 1.35rem; height: 1.35rem; fill: currentColor; vertical-align: middle; }
        #outputs-button.on-device { color: var(--accent); }
        .switch-row { display: flex; align-items: center; gap: .75rem; padding: .45rem 0; border-bottom: 1px solid var(--line); }
        .switch-row .text { flex: 1; display: flex; flex-direction: column; min-width: 0; }
        button[role="switch"] { position: relative; flex: none; width: 3.25rem; height: 2rem; min-height: 2rem; padding: 0;
          border-radius: 1rem; background: var(--line); }
        button[role="switch"]::after { content: ""; position: absolute; top: .2rem; left: .2rem; width: 1.6rem; height: 1.6rem;
          border-radius: 50%; background: #fff; box-shadow: 0 1px 3px #0005; transition: left .15s; }
        button[role="switch"][aria-checked="true"] { background: var(--accent); }
        button[role="switch"][aria-checked="true"]::after { left: 1.45rem; }

        @media (min-width: 900px) {
          :root { --player: 5.5rem; }
          body { padding-left: 13rem; padding-bottom: var(--player); }
          html { scroll-padding-bottom: calc(var(--player) + 1rem); }
          #nav { top: 0; bottom: var(--player); left: 0; right: auto; width: 13rem; height: auto; flex-direction: column; padding: 1rem .5rem;
            border-top: 0; border-right: 1px solid var(--line); }
          #nav a { flex: none; justify-content: flex-start; font-size: 1rem; padding: .6rem .75rem; border-radius: .5rem; }
          #message { bottom: calc(var(--player) + .5rem); left: 14rem; }
          .carousel { grid-auto-columns: 11rem; }
          .hero { grid-template-columns: 15rem 1fr; align-items: end; }
          .hero .art.large { width: 15rem; margin: 0; }
          #now-playing { grid-template-columns: 3.5rem minmax(0, 1fr) auto minmax(14rem, 2fr); grid-template-rows: auto; }
          .position { grid-column: auto; }
        }
        """#
}
