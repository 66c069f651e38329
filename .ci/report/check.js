// check.js PAGE.html OUT.png [HEIGHT]: renders PAGE in headless Chromium to
// OUT.png (a window 1280 px wide and HEIGHT px high, default 2400: the top
// of the page; a larger HEIGHT shows more of it), fails (exit 1) on a
// console error or an uncaught exception, or when the screenshot is blank
// (fewer than 1 % of its pixels differ from white). Needs node (no
// packages) and chromium.
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const [page, out, heightArg] = process.argv.slice(2);
if (!page || !out) { console.error("usage: node check.js PAGE.html OUT.png [HEIGHT]"); process.exit(2); }
const windowHeight = heightArg ? parseInt(heightArg, 10) : 2400;
if (!(windowHeight > 0)) { console.error("HEIGHT must be a positive number of pixels"); process.exit(2); }
const browser = process.env.CHROMIUM || "chromium";
const res = spawnSync(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
  "--enable-logging=stderr", "--v=0", "--window-size=1280," + windowHeight, "--virtual-time-budget=3000",
  "--screenshot=" + path.resolve(out), "file://" + path.resolve(page)], { encoding: "utf8", timeout: 120000 });
if (res.error) { console.error("cannot run " + browser + ": " + res.error.message); process.exit(1); }
const log = (res.stderr || "") + (res.stdout || "");
const consoleErrors = log.split("\n").filter(l => /CONSOLE/.test(l) && /(Uncaught|Error|error)/.test(l));
if (consoleErrors.length) { console.error("console errors:\n" + consoleErrors.join("\n")); process.exit(1); }
if (!fs.existsSync(out)) { console.error("no screenshot written:\n" + log); process.exit(1); }

// Decode the PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes).
const buf = fs.readFileSync(out);
let off = 8, width = 0, height = 0, ctype = 0;
const idat = [];
while (off < buf.length) {
  const len = buf.readUInt32BE(off), type = buf.toString("ascii", off + 4, off + 8);
  const data = buf.subarray(off + 8, off + 8 + len);
  if (type === "IHDR") { width = data.readUInt32BE(0); height = data.readUInt32BE(4); ctype = data[9]; }
  if (type === "IDAT") idat.push(data);
  off += 12 + len;
}
const bpp = ctype === 6 ? 4 : 3;
const raw = zlib.inflateSync(Buffer.concat(idat));
const stride = width * bpp;
let prev = Buffer.alloc(stride), nonWhite = 0;
for (let y = 0; y < height; y++) {
  const f = raw[y * (stride + 1)], line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
  for (let i = 0; i < stride; i++) {
    const a = i >= bpp ? line[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
    let p = 0;
    if (f === 1) p = a; else if (f === 2) p = b; else if (f === 3) p = (a + b) >> 1;
    else if (f === 4) { const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c); p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
    line[i] = (line[i] + p) & 255;
  }
  for (let x = 0; x < width; x++) {
    const o = x * bpp;
    if (line[o] < 240 || line[o + 1] < 240 || line[o + 2] < 240) nonWhite++;
  }
  prev = line;
}
const share = nonWhite / (width * height);
console.log(`${out}: ${width}×${height}, ${(100 * share).toFixed(1)} % non-white pixels, no console errors`);
if (share < 0.01) { console.error("blank page"); process.exit(1); }
