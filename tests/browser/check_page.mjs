// Loads a page of `kbench report --html` in headless Chromium and checks it as a reader sees it.
// The browser is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: file
// descriptors 3 and 4, as Playwright does), so the test needs Node's standard library and
// Debian's chromium and nothing from a package registry.
//
//   node check_page.mjs --page FILE --screenshot OUT.png [--full-page] [--width W --height H]
//                       [--gate DIR] [--max-render-ms MS] [--summary OUT.json]
//                       [--scroll-to SELECTOR [--hover]]   (a picture of the page in use)
//
// It fails (exit 1, one line per finding) on any console error, uncaught exception, error logged
// by the browser or request leaving the file; when the page never reports that its charts drew;
// when a chart's area in the screenshot is blank; and, with --gate DIR (one `kbench compare
// --format json` output per candidate run, named RUN.json), when the regressions the page lists
// or rings differ from the cases the gate failed as slower. It prints a JSON summary.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const args = { width: "1400", height: "900" };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
  const next = process.argv[i + 1];
  if (next === undefined || next.startsWith("--")) args[a.slice(2)] = true;
  else { args[a.slice(2)] = next; i++; }
}
if (!args.page || !args.screenshot) {
  console.error("usage: check_page.mjs --page FILE --screenshot OUT.png [--full-page] [--gate DIR] [--max-render-ms MS]");
  process.exit(2);
}
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const findings = [];
const fail = (text) => findings.push(text);

// --- The DevTools protocol over a pipe: JSON messages, each ended by a NUL byte ---------------
class Browser {
  constructor(child) {
    this.out = child.stdio[3];
    this.next = 1;
    this.waiting = new Map();
    this.listeners = [];
    let buffer = "";
    child.stdio[4].on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let end;
      while ((end = buffer.indexOf("\0")) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id && this.waiting.has(message.id)) {
          const { resolve, reject, method } = this.waiting.get(message.id);
          this.waiting.delete(message.id);
          if (message.error) reject(new Error(`${method}: ${message.error.message}`));
          else resolve(message.result);
        } else if (message.method) {
          for (const listen of this.listeners) listen(message);
        }
      }
    });
  }
  send(method, params = {}, sessionId) {
    const id = this.next++;
    this.out.write(JSON.stringify({ id, method, params, sessionId }) + "\0");
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject, method }));
  }
  on(listen) { this.listeners.push(listen); }
}

const profile = fs.mkdtempSync(path.join(os.tmpdir(), "kbench-chromium-"));
const child = spawn(chromium, [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--hide-scrollbars", "--mute-audio", `--user-data-dir=${profile}`, "--remote-debugging-pipe",
  "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let stderr = "";
child.stderr.on("data", (d) => { stderr += d; });
const exited = new Promise((resolve) => child.on("exit", resolve));
const cleanup = () => {
  try { child.kill("SIGKILL"); } catch { /* gone */ }
  fs.rmSync(profile, { recursive: true, force: true });
};
const timer = setTimeout(() => {
  console.error(`FAIL: the browser did not finish within 120 s\n${stderr.slice(-2000)}`);
  cleanup();
  process.exit(1);
}, 120000);

const browser = new Browser(child);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
  const page = (method, params) => browser.send(method, params, sessionId);
  const pageUrl = pathToFileURL(path.resolve(args.page)).href;
  browser.on((m) => {
    if (m.sessionId !== sessionId) return;
    const p = m.params;
    if (m.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert")) {
      fail(`console.${p.type}: ${p.args.map((a) => a.value ?? a.description ?? "").join(" ")}`);
    } else if (m.method === "Runtime.exceptionThrown") {
      const d = p.exceptionDetails;
      fail(`uncaught: ${d.exception?.description ?? d.text} (line ${d.lineNumber + 1})`);
    } else if (m.method === "Log.entryAdded" && p.entry.level === "error") {
      fail(`browser log: ${p.entry.text} ${p.entry.url ?? ""}`);
    } else if (m.method === "Network.requestWillBeSent") {
      const url = p.request.url;
      if (url !== pageUrl && !url.startsWith("data:") && !url.startsWith("about:")) {
        fail(`the page requested ${url}: it must hold everything itself`);
      }
    }
  });
  for (const domain of ["Runtime", "Log", "Page", "Network"]) await page(`${domain}.enable`);
  await page("Emulation.setDeviceMetricsOverride", {
    width: Number(args.width), height: Number(args.height), deviceScaleFactor: 1, mobile: false });
  const evaluate = async (expression) => {
    const r = await page("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description}`);
    return r.result.value;
  };

  const started = Date.now();
  await page("Page.navigate", { url: pageUrl });
  let rendered = null;
  while (Date.now() - started < 60000) {
    rendered = await evaluate("document.documentElement.dataset.rendered ? Number(document.documentElement.dataset.renderMs) : null").catch(() => null);
    if (rendered != null) break;
    await sleep(25);
  }
  const summary = { page: args.page, bytes: fs.statSync(args.page).size, render_ms: rendered,
                    wall_ms_until_rendered: Date.now() - started };
  if (rendered == null) {
    fail("the page never reported that its charts drew (no data-rendered on <html>)");
  } else if (args["max-render-ms"] && rendered > Number(args["max-render-ms"])) {
    fail(`the page took ${rendered} ms to render, more than ${args["max-render-ms"]} ms`);
  }
  await sleep(100);  // a last frame, and any late console error

  // The DOM as rendered: the charts, what they say they drew, the regressions table.
  const dom = await evaluate(`(() => {
    const charts = [...document.querySelectorAll(".chart")].filter((c) => c.querySelector("canvas")).map((c) => {
      const canvas = c.querySelector("canvas").getBoundingClientRect();
      return { kind: c.dataset.chart, family: c.dataset.family || null, model: c.dataset.model || null,
               marks: c.dataset.marks == null ? null : Number(c.dataset.marks), visible: c.offsetParent !== null,
               rect: { x: canvas.left + scrollX, y: canvas.top + scrollY, width: canvas.width, height: canvas.height } };
    });
    const listed = [...document.querySelectorAll("tr.regression")].map((tr) => ({ run: tr.dataset.run, key: JSON.parse(tr.dataset.key) }));
    const drawn = typeof kb !== "undefined" && kb.marksDrawn ? [...kb.marksDrawn].map((m) => { const [run, key] = m.split("\\t"); return { run, key: JSON.parse(key) }; }) : null;
    return { title: document.title, charts, listed, drawn, tables: document.querySelectorAll("table").length,
             height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth };
  })()`);
  summary.charts = dom.charts.length;
  summary.tables = dom.tables;
  if (!dom.charts.length) fail("the page drew no chart");

  // For a picture of the page in use (docs/): the view scrolled to an element, the mouse on the
  // highest point of the first chart in it, its tooltip shown.
  if (args["scroll-to"]) {
    const target = await evaluate(`(() => {
      const at = document.querySelector(${JSON.stringify(args["scroll-to"])});
      if (!at) return null;
      at.scrollIntoView({ block: "start" });
      scrollBy(0, -48);  // below the sticky navigation bar
      const chart = kb.charts.find((c) => at.contains(c.box) || c.box.contains(at) || c.box === at);
      if (!chart || !${Boolean(args.hover)}) return {};
      const u = chart.u;
      let best = null;
      for (let s = 1; s < u.series.length; s++) {
        if (!u.series[s].show) continue;
        u.data[s].forEach((v, i) => { if (v != null && (!best || v > best.v)) best = { s, i, v }; });
      }
      if (!best) return {};
      const r = u.over.getBoundingClientRect();
      return { x: r.left + u.valToPos(u.data[0][best.i], "x"), y: r.top + u.valToPos(best.v, u.series[best.s].scale) };
    })()`);
    if (target == null) fail(`no element ${args["scroll-to"]} to scroll to`);
    if (target && target.x != null) {
      await page("Input.dispatchMouseEvent", { type: "mouseMoved", x: target.x, y: target.y });
      await sleep(150);
    }
  }

  // The screenshot, read back: every visible chart's canvas holds coloured pixels.
  const full = Boolean(args["full-page"]);
  const shot = await page("Page.captureScreenshot", full
    ? { format: "png", captureBeyondViewport: true, clip: { x: 0, y: 0, width: dom.width, height: dom.height, scale: 1 } }
    : { format: "png" });
  const png = Buffer.from(shot.data, "base64");
  fs.writeFileSync(args.screenshot, png);
  const image = decodePng(png);
  summary.screenshot = { file: args.screenshot, width: image.width, height: image.height };
  const blank = [];
  for (const c of dom.charts) {
    if (!c.visible) continue;
    const { x, y, width, height } = c.rect;
    if (!full) continue;  // a viewport's picture: the DOM's coordinates are the page's
    let coloured = 0;
    for (let py = Math.floor(y); py < y + height; py += 2) {
      for (let px = Math.floor(x); px < x + width; px += 2) {
        const o = (py * image.width + px) * 4;
        const r = image.rgba[o], g = image.rgba[o + 1], b = image.rgba[o + 2];
        if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
      }
    }
    c.coloured_pixels = coloured * 4;
    if (coloured < 3) blank.push(`${c.kind} ${c.model ?? ""} ${c.family ?? ""}`.trim());
  }
  summary.charts_checked_in_screenshot = dom.charts.filter((c) => c.coloured_pixels != null).length;
  for (const b of blank) fail(`a chart is blank in the screenshot: ${b}`);

  // The regressions: the page's table and its rings against the gate's failures.
  if (args.gate) {
    const expected = [];
    const columnsOf = new Map();  // run -> the key columns its gate output names
    for (const file of fs.readdirSync(args.gate).filter((f) => f.endsWith(".json")).sort()) {
      const run = file.slice(0, -5);
      const gate = JSON.parse(fs.readFileSync(path.join(args.gate, file), "utf8"));
      const names = ["gpu", "family", "plugin", "dtype", "op", "shape", "block", "params", "cache"];
      const present = names.filter((n) => gate.cases.some((c) => n in c));
      columnsOf.set(run, present);
      for (const c of gate.cases) {
        if (c.verdict === "slower" && c.fails) expected.push({ run, key: c });
      }
    }
    // Within one pair of runs a column the gate output leaves out holds one value: the columns it
    // names tell its cases apart.
    const text = ({ run, key }) => run + " | " + (columnsOf.get(run) ?? ["?"]).map((n) => `${n}=${key[n] ?? ""}`).join(" ");
    const compareLists = (name, got) => {
      const a = expected.map(text).sort(), b = got.map(text).sort();
      const missing = a.filter((t) => !b.includes(t)), extra = b.filter((t) => !a.includes(t));
      if (a.length !== b.length || missing.length || extra.length) {
        fail(`${name}: ${b.length} regressions, the gate failed ${a.length} as slower`);
        for (const t of missing.slice(0, 10)) fail(`  not on the page: ${t}`);
        for (const t of extra.slice(0, 10)) fail(`  not failed by the gate: ${t}`);
      }
    };
    compareLists("the page's table", dom.listed);
    if (dom.drawn == null) fail("the page says nothing of the rings it drew (kb.marksDrawn)");
    else compareLists("the rings drawn", dom.drawn);
    summary.gate_regressions = expected.length;
    summary.listed = dom.listed.length;
    summary.rings_drawn = dom.drawn ? dom.drawn.length : null;
    summary.rings_per_chart = dom.charts.filter((c) => c.marks != null).map((c) => c.marks);
  }
  summary.findings = findings;
  const text = JSON.stringify(summary, null, 1);
  if (args.summary) fs.writeFileSync(args.summary, text);
  console.log(text);
  await browser.send("Browser.close").catch(() => {});
  await Promise.race([exited, sleep(3000)]);
}

// A PNG as Chromium writes it (8-bit RGB or RGBA, not interlaced) as RGBA bytes.
function decodePng(buffer) {
  let at = 8, width = 0, height = 0, type = 0;
  const data = [];
  while (at < buffer.length) {
    const length = buffer.readUInt32BE(at), kind = buffer.toString("ascii", at + 4, at + 8);
    const body = buffer.subarray(at + 8, at + 8 + length);
    if (kind === "IHDR") {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error("PNG: only 8-bit, non-interlaced");
      type = body[9];
    } else if (kind === "IDAT") data.push(body);
    at += 12 + length;
  }
  const channels = type === 6 ? 4 : type === 2 ? 3 : 0;
  if (!channels) throw new Error(`PNG: colour type ${type}`);
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * channels, rgba = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride), row = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? row[i - channels] : 0, up = previous[i], corner = i >= channels ? previous[i - channels] : 0;
      let v = line[i];
      if (filter === 1) v += left;
      else if (filter === 2) v += up;
      else if (filter === 3) v += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner, pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - corner);
        v += pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      row[i] = v & 255;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4, s = x * channels;
      rgba[o] = row[s]; rgba[o + 1] = row[s + 1]; rgba[o + 2] = row[s + 2]; rgba[o + 3] = channels === 4 ? row[s + 3] : 255;
    }
    [previous, row] = [row, previous];
  }
  return { width, height, rgba };
}

main().then(() => {
  clearTimeout(timer);
  cleanup();
  if (findings.length) {
    for (const f of findings) console.error("FAIL: " + f);
    process.exit(1);
  }
  process.exit(0);
}, (error) => {
  clearTimeout(timer);
  console.error(`FAIL: ${error.message}\n${stderr.slice(-2000)}`);
  cleanup();
  process.exit(1);
});
