// ---- Outputs, and Play on this device ----
import { $, change, cmd, h, read, say } from "./core.js";
import { status } from "./shell.js";

/** previewd's outputs as `outputs` lists them: {outputid, outputname, plugin, outputenabled}. */
let outputList = [];
/** The device's player: whether the user wants sound here, the element, a pending restart, a pending release. */
const device = { wanted: false, audio: null, retry: 0, release: 0 };

function outputRecords(pairs) {
  const out = [];
  for (const [key, value] of pairs) {
    if (key === "outputid") out.push({});
    if (out.length && ["outputid", "outputname", "plugin", "outputenabled"].includes(key)) out[out.length - 1][key] = value;
  }
  return out;
}
/** What each kind of output is (`plugin`), for the panel. */
const OUTPUT_KINDS = { pulse: "Speakers (PulseAudio)", null: "No sound", wav: "A WAV file", fifo: "A pipe (snapserver)", httpd: "HTTP stream" };
/** Whether previewd has an HTTP stream output switched on (what /stream.mp3 relays). */
const hasStream = () => outputList.some((o) => o.plugin === "httpd" && o.outputenabled === "1");

/** Reads the outputs (at start, on idle `output`) and redraws what shows them. */
/** Reads `outputs` anew, or takes the `reply` read with the status (the first view asks once for both). */
export async function refreshOutputs(reply) {
  try {
    outputList = outputRecords(reply || (await read("outputs"))[0]);
  } catch (_) {
    outputList = [];
  }
  $("outputs-button").hidden = !outputList.length;
  if (device.wanted && !hasStream()) deviceStop("previewd's HTTP stream is off: nothing to play here");
  if ($("menu").open && $("menu").dataset.sheet === "outputs") outputsSheet();
  showDevice();
}

/** A name, a line under it and an on/off switch (a button with role switch). */
function switchRow(id, name, sub, on, onclick) {
  return h("div", { class: "switch-row" },
    h("span", { class: "text" }, h("span", { class: "name" }, name), h("span", { class: "sub" }, sub)),
    h("button", { id, role: "switch", "aria-checked": on ? "true" : "false", "aria-label": name, onclick }));
}

/** The outputs sheet: this device first (while previewd streams), then each output of previewd's. Drawn
 *  anew in place on a change, the focused switch keeping the focus. */
function outputsSheet() {
  const dialog = $("menu");
  const focused = dialog.open && document.activeElement ? document.activeElement.id : "";
  const switchOutput = (o) => async () => {
    await change(cmd(o.outputenabled === "1" ? "disableoutput" : "enableoutput", o.outputid));
    refreshOutputs();
  };
  dialog.dataset.sheet = "outputs";
  dialog.replaceChildren(h("h2", {}, "Outputs"),
    hasStream() ? switchRow("device-play", "Play on this device", device.wanted ? "A few seconds behind previewd" : "Through this page",
      device.wanted, () => (device.wanted ? deviceStop() : deviceStart())) : null,
    h("h3", {}, "previewd plays on"),
    h("div", { class: "outputs" }, outputList.map((o) =>
      switchRow("output-" + o.outputid, o.outputname || "Output " + o.outputid,
        Object.hasOwn(OUTPUT_KINDS, o.plugin) ? OUTPUT_KINDS[o.plugin] : o.plugin || "", o.outputenabled === "1", switchOutput(o)))),
    h("button", { class: "cancel", onclick: () => dialog.close() }, "Close"));
  if (!dialog.open) dialog.showModal(); else if (focused && $(focused)) $(focused).focus();
}

function deviceAudio() {
  if (device.audio) return device.audio;
  device.audio = h("audio", { id: "device-audio", preload: "none" });
  for (const type of ["playing", "pause", "waiting"]) device.audio.addEventListener(type, showDevice);
  device.audio.addEventListener("ended", deviceLost);
  device.audio.addEventListener("error", deviceLost);
  document.body.append(device.audio);
  return device.audio;
}

/** Starts the element on the stream anew (a live stream cannot pick up where it broke off). Called
 *  first from a tap, so that the browser lets the page play sound from then on. */
function deviceStart() {
  device.wanted = true;
  clearTimeout(device.retry);
  clearTimeout(device.release);
  device.release = 0;
  const audio = deviceAudio();
  audio.src = "/stream.mp3";
  audio.play().catch((error) => {
    // An AbortError is a pause or a new start meanwhile; a refusal to play is the user's to see.
    if (error.name === "NotAllowedError" || error.name === "NotSupportedError") deviceStop("Cannot play here: " + error.message);
  });
  showDevice();
  if ($("menu").dataset.sheet === "outputs") outputsSheet();
}

/** Stops the element and lets go of the stream, so previewweb closes its connection to previewd. */
function deviceStop(why) {
  device.wanted = false;
  clearTimeout(device.retry);
  clearTimeout(device.release);
  device.release = 0;
  deviceLetGo();
  if (why) say(why);
  showDevice();
  if ($("menu").open && $("menu").dataset.sheet === "outputs") outputsSheet();
}

/** The stream ended (previewd stopped: its stream ends with the queue) or broke: again once previewd
 *  plays; at once (after 1 s) when it plays now. */
function deviceLost() {
  showDevice();
  if (!device.wanted) return;
  clearTimeout(device.retry);
  if (status.state === "play") device.retry = setTimeout(deviceStart, 1000);
}

/** Pauses the element and drops its stream: the browser closes the connection. */
function deviceLetGo() {
  if (!device.audio) return;
  device.audio.pause();
  device.audio.removeAttribute("src");
  device.audio.load();
}

/** The element follows previewd (called with each status): paused while previewd is not playing (its
 *  stream carries silence then), playing again with it, started anew if its stream ended meanwhile.
 *  After 10 s of pause it lets the stream go (a paused element stops reading, and previewd drops a
 *  listener 4 s behind anyway), and starts anew on play, a few buffered seconds lost. */
export function deviceFollow() {
  const audio = device.audio;
  if (!device.wanted || !audio) return;
  if (status.state !== "play") {
    if (!audio.paused) audio.pause();
    if (!device.release) device.release = setTimeout(() => { if (status.state !== "play") deviceLetGo(); }, 10000);
    return;
  }
  clearTimeout(device.release);
  device.release = 0;
  if (audio.error || audio.ended || !audio.getAttribute("src")) deviceStart();
  else if (audio.paused) audio.play().catch(() => {});
}

function showDevice() {
  const playing = device.wanted && device.audio && !device.audio.paused && device.audio.readyState > 2;
  document.body.dataset.device = !device.wanted ? "off" : playing ? "playing" : "waiting";
  $("outputs-button").classList.toggle("on-device", device.wanted);
  $("outputs-button").setAttribute("aria-label", device.wanted ? "Outputs (playing on this device)" : "Outputs");
}

export function setUpOutputs() {
  $("outputs-button").addEventListener("click", outputsSheet);
  $("menu").addEventListener("close", () => { delete $("menu").dataset.sheet; });
}
