// ---- A live change's redraw: the rows that did not change are kept ----

/** A live change's redraw (`fresh`, not yet shown, in place of what
 *  `live` holds) keeps each keyed row and card (`data-key`: a song's URI,
 *  a queue row's id) that came out the same: the node itself, so its
 *  cover is not fetched again and focus and a screen reader's place stay
 *  on it; rows that changed, and all else, are the new drawing's. A kept
 *  row's own listeners must therefore use only what its attributes show
 *  (a stored playlist's ✕ carries its position); lists handle the tap.
 *  @param {Element} live  @param {DocumentFragment} fresh
 *  @returns {number} rows kept */
export function keepSame(live, fresh) {
  const outermost = (/** @type {ParentNode} */ root) => [...root.querySelectorAll("[data-key]")]
    .filter((e) => !(e.parentElement && e.parentElement.closest("[data-key]")));
  /** @type {Map<string, Element[]>} */
  const old = new Map();
  for (const e of outermost(live)) {
    const key = e.tagName + " " + e.getAttribute("data-key");
    const same = old.get(key);
    if (same) same.push(e); else old.set(key, [e]);
  }
  let kept = 0;
  for (const e of outermost(fresh)) {
    const same = old.get(e.tagName + " " + e.getAttribute("data-key"));
    const i = same ? same.findIndex((o) => o.isEqualNode(e)) : -1;
    if (i < 0 || !same) continue;
    e.replaceWith(same[i]);
    same.splice(i, 1);
    kept++;
  }
  return kept;
}
