"use strict";
// What kbench's two pages (report.js, history.js) share: the data the page embeds, colours,
// number formats, uPlot charts with a hover that finds the nearest point, and the signal the
// browser test waits for. No value is computed here that a table of the markdown report gives:
// the page draws what kbench wrote into its data.
const kb = (() => {
  const data = JSON.parse(document.getElementById("kbench-data").textContent);

  // A columnar table, {n, columns: {name: [numbers] | {dict, codes}}}, as {n, name: values}.
  function columns(table) {
    const out = { n: table.n };
    for (const [name, column] of Object.entries(table.columns)) {
      out[name] = Array.isArray(column) ? column : column.codes.map((c) => column.dict[c]);
    }
    return out;
  }

  // The gnuplot PNGs' palette (matplotlib's tab10 without its grey): a plugin has one colour.
  const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                   "#17becf", "#bcbd22", "#393b79"];
  const colour = (i) => palette[i % palette.length];
  // A colour that comes back (past ten) comes back dashed.
  const dash = (i) => (Math.floor(i / palette.length) % 2 ? [7, 4] : undefined);
  function alpha(hex, a) {
    const n = parseInt(hex.slice(1), 16);
    return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${a})`;
  }

  // As the markdown report's format_measure: four significant digits, no exponent.
  function fmt(v) {
    if (v == null || !isFinite(v)) return "—";
    const a = Math.abs(v);
    if (a >= 1000) return String(Math.round(v));
    if (a === 0) return "0";
    return v.toFixed(Math.max(0, 3 - Math.floor(Math.log10(a))));
  }
  const change = (f) => (f > 0 ? "+" : "") + (100 * f).toFixed(1) + "%";
  const esc = (text) => String(text).replace(/[&<>"]/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  // el("div", {class: "x", onclick: f}, child, "text", ...)
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value != null && value !== false) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child != null) node.append(child.nodeType ? child : document.createTextNode(child));
    }
    return node;
  }

  // "name: value" lines of a tooltip; rows without a value are left out.
  function tipTable(rows) {
    const lines = rows.filter((r) => r && r[1] != null && r[1] !== "" && r[1] !== "—")
        .map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v}</td></tr>`);
    return `<table>${lines.join("")}</table>`;
  }

  // --- Charts ---------------------------------------------------------------------------------
  // Every uPlot chart of the page: redrawn at the page's width, and counted until each has drawn
  // once. When the page has made its charts (ready()) and each has drawn, <html> gets
  // data-rendered and data-render-ms (milliseconds since navigation began), for the test.
  const charts = [];
  let pending = 0, made = false;
  function settle() {
    if (!made || pending > 0 || document.documentElement.dataset.rendered) return;
    document.documentElement.dataset.renderMs = String(Math.round(performance.now()));
    document.documentElement.dataset.rendered = "1";
  }
  function ready() { made = true; settle(); }

  // Draws `opts` (uPlot options without width) into `box`, `height` pixels high.
  function chart(box, opts, chartData, height) {
    const hooks = opts.hooks || (opts.hooks = {});
    let first = true;
    pending++;
    (hooks.draw || (hooks.draw = [])).push(() => {
      if (first) { first = false; pending--; settle(); }
    });
    opts.width = Math.max(320, box.clientWidth || 800);
    opts.height = height;
    opts.legend = { show: false };
    opts.cursor = Object.assign({ points: { show: false }, drag: { x: true, y: false } },
                                opts.cursor || {});
    const u = new uPlot(opts, chartData, box);
    charts.push({ u, box, height });
    return u;
  }
  function destroy(u) {
    const at = charts.findIndex((c) => c.u === u);
    if (at >= 0) charts.splice(at, 1);
    u.destroy();
  }
  let resizing = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      for (const c of charts) c.u.setSize({ width: Math.max(320, c.box.clientWidth), height: c.height });
    }, 100);
  });

  // The point of a shown series nearest to the cursor, within `radius` pixels: {s, i, x, y} in
  // the overlay's pixels, or null. `accept(s)` picks the series that count (not the roof lines).
  function nearest(u, left, top, radius, accept) {
    const xs = u.data[0];
    const lo = u.posToVal(left - radius, "x"), hi = u.posToVal(left + radius, "x");
    let first = 0, last = xs.length - 1;
    while (first < xs.length && xs[first] < Math.min(lo, hi)) first++;
    while (last >= 0 && xs[last] > Math.max(lo, hi)) last--;
    let best = null, bestDistance = radius * radius;
    for (let s = 1; s < u.series.length; s++) {
      if (!u.series[s].show || (accept && !accept(s))) continue;
      const ys = u.data[s], scale = u.series[s].scale;
      for (let i = first; i <= last; i++) {
        if (ys[i] == null) continue;
        const x = u.valToPos(xs[i], "x"), y = u.valToPos(ys[i], scale);
        const d = (x - left) ** 2 + (y - top) ** 2;
        if (d <= bestDistance) { bestDistance = d; best = { s, i, x, y }; }
      }
    }
    return best;
  }

  // A tooltip and a ring for the point nearest the cursor; `render(s, i)` gives its HTML.
  function hover(u, box, render, accept, radius = 24) {
    const tip = el("div", { class: "tip" });
    const ring = el("div", { style: "position:absolute;display:none;width:14px;height:14px;" +
        "margin:-7px 0 0 -7px;border:2px solid #222;border-radius:50%;pointer-events:none" });
    box.append(tip);
    u.over.append(ring);
    const hide = () => { tip.style.display = "none"; ring.style.display = "none"; };
    u.over.addEventListener("mouseleave", hide);
    u.hooks.setCursor = u.hooks.setCursor || [];
    u.hooks.setCursor.push(() => {
      const { left, top } = u.cursor;
      const found = left >= 0 ? nearest(u, left, top, radius, accept) : null;
      if (!found) return hide();
      ring.style.left = found.x + "px";
      ring.style.top = found.y + "px";
      ring.style.display = "block";
      tip.innerHTML = render(found.s, found.i);
      tip.style.display = "block";
      const over = u.over.getBoundingClientRect(), outer = box.getBoundingClientRect();
      const x = over.left - outer.left + found.x, y = over.top - outer.top + found.y;
      const flip = x + 20 + tip.offsetWidth > box.clientWidth;
      tip.style.left = (flip ? x - 16 - tip.offsetWidth : x + 16) + "px";
      tip.style.top = Math.max(0, y - tip.offsetHeight / 2) + "px";
    });
  }

  // An x axis of categories at 0, 1, 2...: one label each, as many as fit.
  function categoryAxis(labels, extra) {
    return Object.assign({
      splits: (u) => {
        const width = u.bbox.width / devicePixelRatio;
        const step = Math.max(1, Math.ceil(labels.length * 14 / Math.max(width, 1)));
        const out = [];
        for (let i = 0; i < labels.length; i += step) out.push(i);
        return out;
      },
      values: (u, splits) => splits.map((i) => labels[i] ?? ""),
      rotate: -40, size: 150, gap: 4, grid: { show: false },
    }, extra || {});
  }

  // A horizontal line across the plot at y (a ceiling, "equal"), drawn by a draw hook.
  function hline(u, y, stroke, dashes, label) {
    const ctx = u.ctx, px = u.valToPos(y, "y", true);
    if (!(px >= u.bbox.top && px <= u.bbox.top + u.bbox.height)) return;
    ctx.save();
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 1.5 * devicePixelRatio;
    ctx.setLineDash((dashes || []).map((d) => d * devicePixelRatio));
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, px);
    ctx.lineTo(u.bbox.left + u.bbox.width, px);
    ctx.stroke();
    if (label) {
      ctx.setLineDash([]);
      ctx.fillStyle = stroke;
      ctx.font = `${11 * devicePixelRatio}px sans-serif`;
      ctx.textAlign = "right";
      ctx.fillText(label, u.bbox.left + u.bbox.width - 4 * devicePixelRatio, px - 4 * devicePixelRatio);
    }
    ctx.restore();
  }

  // Toggle chips: one per name, coloured; clicking one calls onToggle(name, shown).
  function chips(names, colourOf, onToggle) {
    const shown = new Set(names);
    const box = el("div", { class: "chips" });
    for (const name of names) {
      const chip = el("button", { class: "chip", type: "button", "data-name": name },
          el("span", { class: "swatch", style: `background:${colourOf(name)}` }), name);
      chip.addEventListener("click", () => {
        const on = !shown.has(name);
        if (on) shown.add(name); else shown.delete(name);
        chip.classList.toggle("off", !on);
        onToggle(name, on, shown);
      });
      box.append(chip);
    }
    return { box, shown };
  }

  function select(label, options, value, onChange) {
    const s = el("select", { "aria-label": label });
    for (const [v, text] of options) s.append(el("option", { value: v }, text));
    s.value = value;
    s.addEventListener("change", () => onChange(s.value));
    return el("label", {}, label + " ", s);
  }
  function checkbox(label, checked, onChange) {
    const c = el("input", { type: "checkbox", checked });
    c.addEventListener("change", () => onChange(c.checked));
    return el("label", {}, c, " " + label);
  }

  return { data, charts, columns, colour, dash, alpha, fmt, change, esc, el, tipTable, chart, destroy,
           ready, hover, categoryAxis, hline, chips, select, checkbox };
})();
