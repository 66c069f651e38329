// check.js PAGE.html OUT.png [HEIGHT] [WIDTH]: renders PAGE in headless
// Chromium in a viewport WIDTH px wide (default 1400) and saves the top
// HEIGHT px of the page (default 2400; a larger HEIGHT shows more of it)
// to OUT.png. It fails (exit 1) when
//
//   - the page logs a console error or throws an uncaught exception;
//   - the page requests anything but file: and data: URLs (it must be
//     self-contained);
//   - the page overflows horizontally, every <details> unfolded:
//     document.documentElement.scrollWidth > window.innerWidth, an element
//     whose right edge lies beyond the viewport outside a horizontal scroll
//     container (overflow-x auto or scroll), or a table wider than its
//     container without such a scroll wrapper;
//   - the screenshot is blank (fewer than 1 % of its pixels differ from
//     white).
//
// It talks to Chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: fd 3 to Chromium, fd 4 from it), so it needs
// node (no packages) and chromium (CHROMIUM names another binary).
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const [page, out, heightArg, widthArg] = process.argv.slice(2);
if (!page || !out) { console.error("usage: node check.js PAGE.html OUT.png [HEIGHT] [WIDTH]"); process.exit(2); }
const maxHeight = heightArg ? parseInt(heightArg, 10) : 2400;
const width = widthArg ? parseInt(widthArg, 10) : 1400;
if (!(maxHeight > 0) || !(width > 0)) { console.error("HEIGHT and WIDTH must be positive numbers of pixels"); process.exit(2); }
const browser = process.env.CHROMIUM || "chromium";
if (!fs.existsSync(page)) { console.error(page + ": no such file"); process.exit(1); }

// overflow runs in the page: unfolds every <details>, then lists what
// sticks out to the right of the viewport (outermost elements only) and
// the tables wider than their container, outside scroll containers.
const overflow = `(() => {
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const W = window.innerWidth, de = document.documentElement;
  const scrolls = el => { for (let p = el.parentElement; p && p !== de; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll") return true; } return false; };
  const name = el => { const c = typeof el.className === "string" ? el.className : (el.className && el.className.baseVal) || "";
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (c.trim() ? "." + c.trim().split(/\\s+/).join(".") : ""); };
  const res = { innerWidth: W, scrollWidth: de.scrollWidth, elements: [], tables: [] };
  const out = new Set();
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if ((r.width === 0 && r.height === 0) || r.right <= W + 0.5 || scrolls(el)) continue;
    out.add(el);
    if (!out.has(el.parentElement)) res.elements.push(name(el) + " reaches " + Math.round(r.right) + " px");
  }
  for (const t of document.querySelectorAll("table")) {
    const w = t.getBoundingClientRect().width, c = t.parentElement.clientWidth;
    if (w > c + 0.5 && !scrolls(t)) res.tables.push(name(t) + " is " + Math.round(w) + " px wide in a container of " + c + " px");
  }
  res.height = Math.max(de.scrollHeight, document.body.scrollHeight);
  return res;
})()`;

function fail(msg) { console.error(page + " at " + width + " px: " + msg); process.exit(1); }

const chrome = spawn(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
  "--no-first-run", "--no-default-browser-check", "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let stderr = "";
chrome.stderr.on("data", d => { stderr += d; });
chrome.on("error", e => fail("cannot run " + browser + ": " + e.message));
const timer = setTimeout(() => { chrome.kill("SIGKILL"); fail("timed out after 120 s\n" + stderr.slice(-2000)); }, 120000);

let nextId = 1, buf = "";
const pending = new Map(), listeners = [];
chrome.stdio[4].on("data", d => {
  buf += d.toString("utf8");
  let i;
  while ((i = buf.indexOf("\0")) >= 0) {
    const msg = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject, method } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(method + ": " + msg.error.message)); else resolve(msg.result);
    } else if (msg.method) {
      listeners.forEach(l => l(msg));
    }
  }
});
function send(method, params, sessionId) {
  const id = nextId++;
  const msg = { id, method, params: params || {} };
  if (sessionId) msg.sessionId = sessionId;
  chrome.stdio[3].write(JSON.stringify(msg) + "\0");
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}
const sleep = ms => new Promise(r => setTimeout(r, ms));

(async () => {
  const errors = [], requests = [];
  let loaded = false;
  listeners.push(m => {
    const p = m.params || {};
    if (m.method === "Runtime.exceptionThrown") errors.push("uncaught: " + (p.exceptionDetails.exception ? p.exceptionDetails.exception.description : p.exceptionDetails.text));
    if (m.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert")) errors.push("console." + p.type + ": " + p.args.map(a => a.value !== undefined ? a.value : a.description).join(" "));
    if (m.method === "Log.entryAdded" && p.entry.level === "error") errors.push("log: " + p.entry.text);
    if (m.method === "Network.requestWillBeSent" && !/^(file|data|about):/.test(p.request.url)) requests.push(p.request.url);
    if (m.method === "Page.loadEventFired") loaded = true;
  });
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const s = (method, params) => send(method, params, sessionId);
  await Promise.all([s("Page.enable"), s("Runtime.enable"), s("Log.enable"), s("Network.enable")]);
  await s("Emulation.setDeviceMetricsOverride", { width, height: 900, deviceScaleFactor: 1, mobile: false });
  await s("Page.navigate", { url: "file://" + path.resolve(page) });
  for (let t = 0; !loaded && t < 600; t++) await sleep(100);
  if (!loaded) fail("the page did not finish loading in 60 s");
  await sleep(300); // the page's script and layout
  const top = await s("Runtime.evaluate", { expression: "Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)", returnByValue: true });
  const height = Math.min(maxHeight, top.result.value);
  const shot = await s("Page.captureScreenshot", { format: "png", captureBeyondViewport: true, clip: { x: 0, y: 0, width, height, scale: 1 } });
  fs.writeFileSync(out, Buffer.from(shot.data, "base64"));
  const ov = await s("Runtime.evaluate", { expression: overflow, returnByValue: true });
  if (ov.exceptionDetails) fail("the overflow check failed: " + JSON.stringify(ov.exceptionDetails));
  const r = ov.result.value;
  await sleep(100);
  clearTimeout(timer);
  await send("Browser.close").catch(() => {});
  chrome.kill();

  const problems = [];
  if (errors.length) problems.push("console errors:\n  " + errors.join("\n  "));
  if (requests.length) problems.push("network requests (the page must be self-contained):\n  " + requests.join("\n  "));
  if (r.innerWidth !== width) problems.push("the viewport is " + r.innerWidth + " px wide, not " + width);
  if (r.scrollWidth > r.innerWidth) problems.push("the page is " + r.scrollWidth + " px wide in a window of " + r.innerWidth + " px");
  if (r.elements.length) problems.push("elements overflow to the right:\n  " + r.elements.slice(0, 20).join("\n  ") + (r.elements.length > 20 ? "\n  … " + (r.elements.length - 20) + " more" : ""));
  if (r.tables.length) problems.push("tables wider than their container without a scroll wrapper:\n  " + r.tables.join("\n  "));
  if (problems.length) fail(problems.join("\n"));

  const share = nonWhite(fs.readFileSync(out));
  console.log(`${out}: ${width}×${height} of ${r.height} px, ${(100 * share).toFixed(1)} % non-white pixels, no console errors, no horizontal overflow`);
  if (share < 0.01) fail("blank page");
})().catch(e => { chrome.kill("SIGKILL"); fail(e.message); });

// nonWhite decodes a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium
// writes) and returns the share of its pixels that are not near white.
function nonWhite(buf) {
  let off = 8, w = 0, h = 0, ctype = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString("ascii", off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") { w = data.readUInt32BE(0); h = data.readUInt32BE(4); ctype = data[9]; }
    if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  const bpp = ctype === 6 ? 4 : 3;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = w * bpp;
  let prev = Buffer.alloc(stride), n = 0;
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let p = 0;
      if (f === 1) p = a; else if (f === 2) p = b; else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) { const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c); p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      line[i] = (line[i] + p) & 255;
    }
    for (let x = 0; x < w; x++) {
      const o = x * bpp;
      if (line[o] < 240 || line[o + 1] < 240 || line[o + 2] < 240) n++;
    }
    prev = line;
  }
  return n / (w * h);
}
