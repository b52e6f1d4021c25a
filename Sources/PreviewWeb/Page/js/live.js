// ---- Live updates, and whether previewd answers ----
import { $ } from "./core.js";

/** Live: the daemon's idle events, pushed (Server-Sent Events). One tab
 * of this origin holds the stream (the holder of a Web Lock) and passes
 * each event to the others on a BroadcastChannel: over HTTP/1.1 a browser
 * opens at most 6 connections to a host, which 6 streams would take.
 * Where Web Locks are missing (a page on a LAN address is no secure
 * context) each tab holds its own. The browser reconnects by itself after
 * a network error, but gives up after an error answer (previewd away: 502;
 * every stream taken: 503; a stale password: 401): then a new stream is
 * opened, 1 s later, then twice as late each time, up to 10 s, while a
 * banner says previewd is away and when the next try is; its Retry tries
 * at once. When the stream is back, what changed meanwhile is read anew,
 * and a screen that failed is drawn again: no reload is needed. */
let streamed = false;
let retryDelay = 1000;
let retryTimer = 0;
let retryAt = 0;
let countdown = 0;
let holding = false;
let events = null;
const channel = "BroadcastChannel" in window ? new BroadcastChannel("previewweb-events") : null;

/** Whether previewd answered last: false from a failed stream or request until the stream is back. */
export let online = true;

/** What the shell does with events: `idle(changed)` for each change, `back()` once previewd answers again. */
const handlers = { idle: (_changed) => {}, back: () => {} };

/** Marks previewd away (a stream or a request failed): the banner says so. */
export function wentDown(reason) {
  online = false;
  document.body.dataset.live = "false";
  $("offline-text").textContent = reason || "previewd is not reachable.";
  $("offline").hidden = false;
  showCountdown();
}

function showCountdown() {
  clearTimeout(countdown);
  const seconds = Math.ceil((retryAt - performance.now()) / 1000);
  $("offline-when").textContent = online ? "" : seconds > 0 ? "Trying again in " + seconds + " s." : "Trying again\u2026";
  if (!online && seconds > 0) countdown = setTimeout(showCountdown, 1000);
}

function cameBack() {
  const wasDown = !online;
  online = true;
  document.body.dataset.live = "true";
  $("offline").hidden = true;
  clearTimeout(countdown);
  if (streamed || wasDown) handlers.back();
  streamed = true;
}

function onEvent(type, data) {
  if (type === "ready") cameBack();
  else if (type === "idle") handlers.idle(data.split(" "));
  else if (type === "down") wentDown(data);
}

function openStream() {
  clearTimeout(retryTimer);
  if (events) events.close();
  events = new EventSource("/api/events");
  const source = events;
  const pass = (type, data) => { onEvent(type, data); if (channel) channel.postMessage({ type, data }); };
  source.addEventListener("ready", () => { retryDelay = 1000; pass("ready", ""); });
  source.addEventListener("idle", (event) => pass("idle", event.data));
  source.addEventListener("error", () => {
    if (source !== events) return;
    retryAt = performance.now() + (source.readyState === EventSource.CLOSED ? retryDelay : 3000);
    pass("down", "previewd is not reachable.");
    if (source.readyState !== EventSource.CLOSED) return;
    retryTimer = setTimeout(openStream, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10000);
  });
}

/** Retry: the stream's holder opens it at once; another tab asks previewd once, and the holder's stream follows. */
async function retry() {
  retryDelay = 1000;
  if (holding || !channel || !navigator.locks) { openStream(); return; }
  const answer = await fetch("/api/mpd?c=status", { cache: "no-store" }).catch(() => null);
  if (answer && answer.ok) cameBack();
}

/** Starts listening; `idle(changed)` and `back()` as in `handlers`. */
export function listen(idle, back) {
  handlers.idle = idle;
  handlers.back = back;
  $("offline-retry").addEventListener("click", retry);
  if (channel) {
    channel.addEventListener("message", (message) => {
      // A tab that opens later asks the holder whether the stream is up.
      if (message.data.type === "hello") { if (holding && online) channel.postMessage({ type: "ready", data: "" }); }
      else onEvent(message.data.type, message.data.data);
    });
  }
  if (channel && navigator.locks) {
    // Held until this tab closes; then another tab's request is granted.
    navigator.locks.request("previewweb-events", () => new Promise(() => { holding = true; openStream(); }));
    channel.postMessage({ type: "hello", data: "" });
  } else {
    openStream();
  }
}
