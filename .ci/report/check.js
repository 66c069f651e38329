// check.js WIDTH MAX_HEIGHT OUT_DIR PAGE.html...: renders each PAGE in
// headless Chromium in a viewport WIDTH px wide and 900 px high, as a
// person would read it, and fails (exit 1, every problem of every page
// listed) when
//
//   - the page logs a console error or throws an uncaught exception;
//   - the page requests anything but file:, data: and about: URLs (it must
//     be self-contained);
//   - the page, as it opens (every <details> folded, no run's section
//     open), is taller than MAX_HEIGHT px;
//   - a text of the answer (#answer) has a blank value: an empty table
//     cell, NaN, undefined, "±" or "from"/"to" with nothing after them;
//   - with every <details> unfolded and run sections opened (all of them,
//     or 150 spread over the index when there are more): the page
//     overflows horizontally (document.documentElement.scrollWidth >
//     window.innerWidth, an element whose right edge lies beyond the
//     viewport outside a horizontal scroll container, a table wider than
//     its container without one), two tick labels of one plot overlap
//     (their bounding boxes, by more than 0.5 px), a plot's title runs
//     past the plot, or an opened section shows NaN or undefined;
//   - a screenshot is blank (fewer than 1 % of its pixels differ from
//     white).
//
// Per page it saves OUT_DIR/NAME-WIDTH-top.png, the first screen (the top
// 900 px), and when the page has run sections OUT_DIR/NAME-WIDTH-run.png,
// the section of one run (the first trimmed one with every plot, else the
// first), opened as the index opens it (window.benchtrimOpen, which
// decompresses its chunk). NAME is the page's folder for a report.html,
// else its file name without .html.
//
// It talks to Chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: fd 3 to Chromium, fd 4 from it), so it needs
// node (no packages) and chromium (CHROMIUM names another binary); one
// Chromium renders every page.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const [widthArg, heightArg, outDir, ...pages] = process.argv.slice(2);
const width = parseInt(widthArg, 10), maxHeight = parseInt(heightArg, 10);
const screenH = 900;
if (!outDir || !pages.length || !(maxHeight > 0) || !(width > 0)) {
  console.error("usage: node check.js WIDTH MAX_HEIGHT OUT_DIR PAGE.html..."); process.exit(2);
}
const browser = process.env.CHROMIUM || "chromium";
for (const p of pages) if (!fs.existsSync(p)) { console.error(p + ": no such file"); process.exit(1); }
fs.mkdirSync(outDir, { recursive: true });
const nameOf = p => path.basename(p) === "report.html" ? path.basename(path.dirname(path.resolve(p))) : path.basename(p, ".html");

// folded runs in the page as it opened: its height and the answer's
// blank values.
const folded = `(() => {
  const de = document.documentElement;
  const res = { height: Math.max(de.scrollHeight, document.body.scrollHeight), blanks: [], runs: document.querySelectorAll("section.run").length };
  const ans = document.getElementById("answer");
  if (ans) {
    ans.querySelectorAll("td").forEach(td => { if (!td.textContent.trim()) res.blanks.push("an empty cell in row " + JSON.stringify(td.parentElement.textContent.trim().slice(0, 60))); });
    const walker = document.createTreeWalker(ans, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.nextNode(); el; el = walker.nextNode()) {
      if (el.children.length && el.tagName !== "P") continue;
      const t = el.textContent.replace(/\\s+/g, " ");
      for (const re of [/\\bNaN\\b/, /\\bundefined\\b/, /\\bInf\\b/, /±\\s*(to\\b|and\\b|[.,;)]|$)/, /\\b(from|to|by)\\s*([.,;)]|$)/, /\\bfrom\\s+to\\b/, /\\(\\s*\\)/]) {
        const m = t.match(re);
        if (m) { res.blanks.push(JSON.stringify(m[0]) + " in " + JSON.stringify(t.slice(Math.max(0, m.index - 50), m.index + 30))); break; }
      }
    }
  }
  return res;
})()`;

// pick chooses the run whose section is photographed: the first trimmed
// run whose section has a density, a series and a trade-off plot.
const pick = `(() => {
  const rows = Array.from(document.querySelectorAll("#runs tbody tr"));
  const has = id => { const s = document.getElementById(id); return s && s.getAttribute("data-plots") === "dst"; };
  for (const r of rows) { const a = r.querySelector("a"); if (!a) continue; const id = a.getAttribute("href").slice(1);
    if (r.getAttribute("data-status") === "trimmed" && has(id)) return id; }
  const a = document.querySelector("#runs tbody a");
  return a ? a.getAttribute("href").slice(1) : "";
})()`;

// unfold opens every <details> and the run sections (all, or 150 spread
// over the index), then lists what sticks out to the right of the
// viewport (outermost elements only), the tables wider than their
// container outside scroll containers, overlapping tick labels, titles
// past their plot and NaN or undefined in an opened section.
const unfold = `(async () => {
  const secs = Array.from(document.querySelectorAll("section.run"));
  const step = Math.max(1, Math.ceil(secs.length / 150));
  let opened = 0;
  for (let i = 0; i < secs.length; i += step) if (await window.benchtrimOpen(secs[i].id, false)) opened++;
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const W = window.innerWidth, de = document.documentElement;
  const scrolls = el => { for (let p = el.parentElement; p && p !== de; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll") return true; } return false; };
  const name = el => { const c = typeof el.className === "string" ? el.className : (el.className && el.className.baseVal) || "";
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (c.trim() ? "." + c.trim().split(/\\s+/).join(".") : ""); };
  const res = { innerWidth: W, scrollWidth: de.scrollWidth, elements: [], tables: [], overlaps: [], titles: [], nan: [], opened: opened, plots: 0, ticks: 0 };
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
  for (const svg of document.querySelectorAll("svg.plot")) {
    res.plots++;
    const title = (svg.querySelector("title") || {}).textContent || "";
    const sr = svg.getBoundingClientRect();
    const boxes = Array.from(svg.querySelectorAll("text.tick")).map(t => ({ r: t.getBoundingClientRect(), s: t.textContent }))
      .filter(b => b.r.width > 0);
    res.ticks += boxes.length;
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].r, b = boxes[j].r;
      const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left), oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (ox > 0.5 && oy > 0.5 && res.overlaps.length < 20) res.overlaps.push(JSON.stringify(boxes[i].s) + " and " + JSON.stringify(boxes[j].s) + " in " + JSON.stringify(title.slice(0, 90)));
    }
    for (const t of svg.querySelectorAll("text.ptitle")) {
      const r = t.getBoundingClientRect();
      if (r.right > sr.right + 0.5 && res.titles.length < 20) res.titles.push(JSON.stringify(t.textContent.slice(0, 90)) + " ends " + Math.round(r.right - sr.right) + " px past its plot");
    }
  }
  for (const s of document.querySelectorAll("section.run:not([hidden])")) {
    const t = s.textContent;
    const m = t.match(/\\bNaN\\b|\\bundefined\\b/);
    if (m && res.nan.length < 10) res.nan.push(s.id + ": " + JSON.stringify(t.slice(Math.max(0, m.index - 60), m.index + 20)));
  }
  return res;
})()`;

function fail(msg) { console.error(msg); process.exit(1); }

const chrome = spawn(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
  "--no-first-run", "--no-default-browser-check", "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let stderr = "";
chrome.stderr.on("data", d => { stderr += d; });
chrome.on("error", e => fail("cannot run " + browser + ": " + e.message));
const timer = setTimeout(() => { chrome.kill("SIGKILL"); fail("timed out after 300 s\n" + stderr.slice(-2000)); }, 300000);

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

// check renders one page and returns its problems (none: []) and a line
// saying what it found.
async function check(page) {
  const out = path.join(outDir, nameOf(page) + "-" + width);
  const errors = [], requests = [], problems = [];
  let loaded = false, sessionId = "";
  const listener = m => {
    if (m.sessionId !== sessionId) return;
    const p = m.params || {};
    if (m.method === "Runtime.exceptionThrown") errors.push("uncaught: " + (p.exceptionDetails.exception ? p.exceptionDetails.exception.description : p.exceptionDetails.text));
    if (m.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert")) errors.push("console." + p.type + ": " + p.args.map(a => a.value !== undefined ? a.value : a.description).join(" "));
    if (m.method === "Log.entryAdded" && p.entry.level === "error") errors.push("log: " + p.entry.text);
    if (m.method === "Network.requestWillBeSent" && !/^(file|data|about):/.test(p.request.url)) requests.push(p.request.url);
    if (m.method === "Page.loadEventFired") loaded = true;
  };
  listeners.push(listener);
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  ({ sessionId } = await send("Target.attachToTarget", { targetId, flatten: true }));
  const s = (method, params) => send(method, params, sessionId);
  const evaluate = async (expr, what) => {
    const r = await s("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(what + " failed: " + JSON.stringify(r.exceptionDetails).slice(0, 500));
    return r.result.value;
  };
  const shoot = async (file, clip) => {
    const shot = await s("Page.captureScreenshot", { format: "png", captureBeyondViewport: true, clip: Object.assign({ scale: 1 }, clip) });
    fs.writeFileSync(file, Buffer.from(shot.data, "base64"));
    const share = nonWhite(fs.readFileSync(file));
    if (share < 0.01) problems.push(file + " is blank");
    return share;
  };
  await Promise.all([s("Page.enable"), s("Runtime.enable"), s("Log.enable"), s("Network.enable")]);
  await s("Emulation.setDeviceMetricsOverride", { width, height: screenH, deviceScaleFactor: 1, mobile: false });
  await s("Page.navigate", { url: "file://" + path.resolve(page) });
  for (let t = 0; !loaded && t < 900; t++) await sleep(100);
  if (!loaded) return { problems: ["the page did not finish loading in 90 s"] };
  await sleep(300); // the page's script and layout

  const f = await evaluate(folded, "the folded check");
  const topShare = await shoot(out + "-top.png", { x: 0, y: 0, width, height: Math.min(screenH, f.height) });
  let runShot = "";
  const id = f.runs ? await evaluate(pick, "picking a run") : "";
  if (id) {
    if (!await evaluate(`window.benchtrimOpen(${JSON.stringify(id)}, false)`, "opening " + id)) problems.push("could not open " + id);
    await sleep(200);
    const box = await evaluate(`(() => { const r = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect();
      return { x: 0, y: r.top + window.scrollY - 8, width: ${width}, height: Math.min(r.height + 16, 6000) }; })()`, "measuring " + id);
    await shoot(out + "-run.png", box);
    runShot = ", " + out + "-run.png (" + id + ")";
  }
  const r = await evaluate(unfold, "the unfolded check");
  await sleep(100);
  await send("Target.closeTarget", { targetId });
  listeners.splice(listeners.indexOf(listener), 1);

  if (errors.length) problems.push("console errors:\n  " + errors.join("\n  "));
  if (requests.length) problems.push("network requests (the page must be self-contained):\n  " + requests.join("\n  "));
  if (f.height > maxHeight) problems.push("the page is " + f.height + " px tall with everything folded, more than " + maxHeight);
  if (f.blanks.length) problems.push("blank values in the answer:\n  " + f.blanks.join("\n  "));
  if (r.innerWidth !== width) problems.push("the viewport is " + r.innerWidth + " px wide, not " + width);
  if (r.scrollWidth > r.innerWidth) problems.push("the page is " + r.scrollWidth + " px wide in a window of " + r.innerWidth + " px");
  if (r.elements.length) problems.push("elements overflow to the right:\n  " + r.elements.slice(0, 20).join("\n  ") + (r.elements.length > 20 ? "\n  … " + (r.elements.length - 20) + " more" : ""));
  if (r.tables.length) problems.push("tables wider than their container without a scroll wrapper:\n  " + r.tables.join("\n  "));
  if (r.overlaps.length) problems.push("overlapping tick labels:\n  " + r.overlaps.join("\n  "));
  if (r.titles.length) problems.push("plot titles past their plot:\n  " + r.titles.join("\n  "));
  if (r.nan.length) problems.push("NaN or undefined in a run's section:\n  " + r.nan.join("\n  "));
  return { problems, line: `${page} at ${width} px: ${f.height} px tall folded (limit ${maxHeight}), ${f.runs} run sections (${r.opened} opened), ` +
    `${r.plots} plots with ${r.ticks} tick labels; ${out}-top.png (${(100 * topShare).toFixed(1)} % non-white)${runShot}` };
}

(async () => {
  let bad = 0;
  for (const page of pages) {
    let res;
    try { res = await check(page); } catch (e) { res = { problems: [e.message] }; }
    if (res.problems.length) { bad++; console.error(page + " at " + width + " px: " + res.problems.join("\n")); } else console.log(res.line);
  }
  clearTimeout(timer);
  await send("Browser.close").catch(() => {});
  chrome.kill();
  if (bad) process.exit(1);
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
