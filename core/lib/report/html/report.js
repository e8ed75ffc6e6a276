// kbench report --html: the scaling bars and the roofline of the first page, and the explorer of
// every case. The tables around them are report.md's, rendered by kbench.
(() => {
  const { data, el, fmt, esc, tipTable } = kb;
  const P = kb.columns(data.points);
  const modelOrder = data.models.map((m) => m.label);
  const modelColour = (label) => {
    const at = modelOrder.indexOf(label);
    return kb.colour(at >= 0 ? at : modelOrder.length);
  };
  const short = (plugin) => plugin.slice(plugin.indexOf("/") + 1);
  const caseText = (dtype, op, shape) => [dtype, op, shape].filter((t) => t).join(" ");

  // --- Scaling: measured and predicted speed-up per plugin ------------------------------------
  function scalingChart(box) {
    const s = data.scaling.find((x) => x.slug === box.dataset.model);
    if (!s) return;
    const plugins = s.plugins;
    const xs = plugins.map((_, i) => i);
    const measured = plugins.map((p) => p.measured), predicted = plugins.map((p) => p.predicted);
    box.append(el("div", { class: "chart-title" },
        `Speed-up of ${s.other} over ${s.baseline} per plugin: measured and predicted by its bound`));
    const bars = (align) => uPlot.paths.bars({ size: [0.38, 28], align });
    const u = kb.chart(box, {
      scales: { x: { time: false, range: [-0.6, plugins.length - 0.4] } },
      axes: [kb.categoryAxis(plugins.map((p) => p.plugin), { size: 190 }),
             { label: `speed-up (> 1: faster on ${s.other})`, size: 60 }],
      series: [{},
        { label: "measured", fill: kb.alpha(kb.colour(0), 0.85), stroke: kb.colour(0), paths: bars(-1), points: { show: false } },
        { label: "predicted", fill: kb.alpha(kb.colour(1), 0.85), stroke: kb.colour(1), paths: bars(1), points: { show: false } }],
      hooks: { draw: [(u) => kb.hline(u, 1, "#000", [6, 4], "equal (1x)")] },
    }, [xs, measured, predicted], 420);
    kb.hover(u, box, (_, i) => {
      const p = plugins[i], l = p.largest;
      const verdict = p.efficiency == null ? "no prediction" : p.as_predicted ? "as predicted"
          : p.efficiency < 1 ? "below" : "above";
      return `<b>${esc(p.plugin)}</b>` + tipTable([
        ["bound", esc(p.bound)], ["cases", p.cases], ["measured", fmt(p.measured) + "x"],
        ["predicted", p.predicted == null ? null : fmt(p.predicted) + "x"],
        ["efficiency", p.efficiency == null ? null : `${fmt(p.efficiency)} (${verdict})`],
        ["largest case", esc(caseText(l.dtype, l.op, l.shape) + (l.block && l.block !== "-" ? " @" + l.block : ""))],
        ["its measured", fmt(l.measured) + "x" + (l.within_noise ? " (inside the noise)" : "")]]);
    }, undefined, 40);
    box.append(el("div", { class: "note" },
        el("span", { style: `color:${kb.colour(0)}` }, "■ measured"), "  ",
        el("span", { style: `color:${kb.colour(1)}` }, "■ predicted"),
        " (geometric means over the cases both models ran; hover a bar for its largest case)"));
  }

  // --- Roofline: each plugin's best case per model under the model's roofs (log-log) ----------
  function rooflineChart(box) {
    const R = data.roofline;
    if (!R.points.length) return;
    let low = Math.min(...R.points.map((p) => p.intensity)), high = Math.max(...R.points.map((p) => p.intensity));
    for (const m of R.models) for (const [, peak] of m.peaks) if (m.copy_gbps) high = Math.max(high, peak / m.copy_gbps);
    low /= 3; high *= 3;
    const xset = new Set([low, high, ...R.points.map((p) => p.intensity)]);
    for (const m of R.models) for (const [, peak] of m.peaks) if (m.copy_gbps) xset.add(peak / m.copy_gbps);
    const xs = [...xset].sort((a, b) => a - b);
    const series = [{}], columns = [xs], kinds = [null];
    const precisions = [...new Set(R.models.flatMap((m) => m.peaks.map(([p]) => p)))];
    for (const m of R.models) {
      const c = modelColour(m.model);
      const top = Math.max(0, ...m.peaks.map(([, p]) => p));
      if (m.copy_gbps) {
        const end = top > 0 ? top / m.copy_gbps : high;
        columns.push(xs.map((x) => (x <= end * 1.0000001 ? m.copy_gbps * x : null)));
        series.push({ label: `${m.model}: copy ${fmt(m.copy_gbps)} GB/s`, stroke: c, width: 2, points: { show: false } });
        kinds.push({ roof: `${m.model}: measured copy bandwidth ${fmt(m.copy_gbps)} GB/s x intensity` });
      }
      for (const [precision, peak] of m.peaks) {
        const start = m.copy_gbps ? peak / m.copy_gbps : low;
        columns.push(xs.map((x) => (x >= start * 0.9999999 ? peak : null)));
        series.push({ label: `${m.model}: ${precision} peak`, stroke: c, width: 2,
                      dash: [3 + 3 * precisions.indexOf(precision), 4], points: { show: false } });
        kinds.push({ roof: `${m.model}: ${precision} peak ${fmt(peak)} GFLOP/s` });
      }
    }
    const points = new Map();  // model + plugin -> series
    for (const p of R.points) {
      const key = p.model + "\u0001" + p.plugin;
      if (!points.has(key)) {
        points.set(key, series.length);
        columns.push(xs.map(() => null));
        const c = modelColour(p.model);
        series.push({ label: `${p.model}: ${p.plugin}`, stroke: c, paths: () => null,
                      points: { show: true, size: 10, width: 1.5, stroke: "#fff", fill: c } });
        kinds.push({ point: p });
      }
      columns[points.get(key)][xs.indexOf(p.intensity)] = p.gflops;
    }
    box.append(el("div", { class: "chart-title" },
        "Roofline: each plugin's best case per GPU model, under the model's roofs"));
    const u = kb.chart(box, {
      scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
      axes: [{ label: "arithmetic intensity (FLOP per byte moved)" },
             { label: "achieved GFLOP/s", size: 70, values: (u, v) => v.map((x) => x >= 1000 ? (x >= 1e6 ? x / 1e6 + "M" : x / 1000 + "k") : x) }],
      series,
      hooks: { draw: [(u) => {
        // Each plugin's name beside its highest point of one intensity.
        const ctx = u.ctx, seen = new Set();
        ctx.save();
        ctx.font = `${11 * devicePixelRatio}px sans-serif`;
        const order = R.points.slice().sort((a, b) => b.gflops - a.gflops);
        for (const p of order) {
          const key = p.plugin + "@" + Math.round(Math.log10(p.intensity) * 50);
          if (seen.has(key)) continue;
          seen.add(key);
          ctx.fillStyle = modelColour(p.model);
          ctx.fillText(short(p.plugin), u.valToPos(p.intensity, "x", true) + 8 * devicePixelRatio,
                       u.valToPos(p.gflops, "y", true) + 4 * devicePixelRatio);
        }
        ctx.restore();
      }] },
    }, columns, 560);
    kb.hover(u, box, (s) => {
      const p = kinds[s].point;
      return `<b>${esc(p.plugin)}</b> on ${esc(p.model)}` + tipTable([
        ["case", esc(caseText(p.dtype, p.op, p.shape))], ["block", esc(p.block || "-")],
        ["bound", esc(p.bound)], ["FLOP/byte", fmt(p.intensity)], ["GFLOP/s", fmt(p.gflops)],
        ["roof", fmt(p.roof)], ["of roof", p.roof ? fmt(p.gflops / p.roof) : null]]);
    }, (s) => kinds[s] && kinds[s].point);
    const legend = el("div", { class: "note" });
    for (const m of R.models) {
      legend.append(el("span", { style: `color:${modelColour(m.model)};margin-right:1.2em` },
          `● ${m.model} (lines: its copy bandwidth and ${m.peaks.map(([p]) => p).join(", ")} peaks)`));
    }
    box.append(legend);
  }

  // --- Explorer: a family's cases, all sizes or one shape -------------------------------------
  const elements = (shape) => shape.split("x").reduce((a, d) => a * Number(d), 1);
  function explorer(root) {
    if (!P.n) return;
    const families = data.families.filter((f) => P.family.includes(f.name));
    // First shown: the family with the most cases among those with a roof (not a latency).
    const cases = (f) => P.family.filter((x) => x === f.name).length;
    const first = families.slice().sort((a, b) =>
        (a.metric === "median_us") - (b.metric === "median_us") || cases(b) - cases(a))[0];
    const state = { family: first.name, panel: "", shape: "", logX: true, logY: false,
                    models: new Set(modelOrder.filter((m) => P.model.includes(m))), hidden: new Set() };
    for (const m of P.model) if (!modelOrder.includes(m)) { modelOrder.push(m); state.models.add(m); }
    const controls = el("div", { class: "controls" });
    const chipsBox = el("div");
    const charts = el("div");
    root.append(controls, chipsBox, charts);
    let made = [];

    function rowsOf(family) {
      const out = [];
      for (let i = 0; i < P.n; i++) if (P.family[i] === family) out.push(i);
      return out;
    }
    const panelOf = (i) => [P.dtype[i], P.op[i], P.cache[i]].join("\u0001");
    const panelText = (key) => { const [d, o, c] = key.split("\u0001"); return [d, o, c && c !== "hot" ? c + " cache" : ""].filter((t) => t).join(", "); };

    function render() {
      for (const u of made) kb.destroy(u);
      made = [];
      controls.replaceChildren();
      chipsBox.replaceChildren();
      charts.replaceChildren();
      const family = families.find((f) => f.name === state.family);
      const rows = rowsOf(family.name);
      const panels = [...new Set(rows.map(panelOf))].sort();
      if (!panels.includes(state.panel)) state.panel = panels[0];
      const inPanel = rows.filter((i) => panelOf(i) === state.panel);
      const shapes = [...new Set(inPanel.map((i) => P.shape[i]))].sort((a, b) => elements(a) - elements(b));
      if (state.shape && !shapes.includes(state.shape)) state.shape = "";
      // Colours as the PNGs give them: the plugins with the most cases first; the reference black.
      const count = new Map();
      for (const i of rows) if (P.plugin[i] !== family.reference) count.set(P.plugin[i], (count.get(P.plugin[i]) || 0) + 1);
      const plugins = [...count.keys()].sort((a, b) => count.get(b) - count.get(a) || (a < b ? -1 : 1));
      const colourOf = (p) => (p === family.reference ? "#000" : kb.colour(plugins.indexOf(p)));
      const allPlugins = [...new Set(inPanel.map((i) => P.plugin[i]))].sort((a, b) =>
          (a === family.reference) - (b === family.reference) || plugins.indexOf(a) - plugins.indexOf(b));

      controls.append(
        kb.select("family", families.map((f) => [f.name, f.name]), state.family, (v) => { state.family = v; state.shape = ""; render(); }),
        kb.select("dtype / op", panels.map((p) => [p, panelText(p)]), state.panel, (v) => { state.panel = v; render(); }),
        kb.select("shape", [["", "all sizes (best block)"], ...shapes.map((s) => [s, s])], state.shape, (v) => { state.shape = v; render(); }),
        ...[...state.models.keys(), ...modelOrder.filter((m) => !state.models.has(m) && P.model.includes(m))]
            .filter((m, i, a) => a.indexOf(m) === i)
            .map((m) => kb.checkbox(m, state.models.has(m), (on) => { if (on) state.models.add(m); else state.models.delete(m); render(); })),
        state.shape ? "" : kb.checkbox("log x", state.logX, (on) => { state.logX = on; render(); }),
        kb.checkbox("log y", state.logY, (on) => { state.logY = on; render(); }));
      const toggles = kb.chips(allPlugins, colourOf, (name, on) => {
        if (on) state.hidden.delete(name); else state.hidden.add(name);
        if (state.shape) return render();  // a plugin is a place on that chart's axis
        for (const u of made) u.batch(() => u.series.forEach((s, k) => { if (k && s.plugin === name) u.setSeries(k, { show: on }); }));
      });
      for (const name of allPlugins) {
        if (state.hidden.has(name)) { toggles.shown.delete(name); toggles.box.querySelector(`[data-name="${CSS.escape(name)}"]`).classList.add("off"); }
      }
      chipsBox.append(toggles.box);

      const unit = family.unit;
      const better = family.metric === "median_us" ? (a, b) => a < b : (a, b) => a > b;
      // The best block of each plugin, shape and model in the panel.
      const best = new Map();
      for (const i of inPanel) {
        const key = P.plugin[i] + "\u0001" + P.shape[i] + "\u0001" + P.model[i];
        const held = best.get(key);
        if (held == null || better(P.value[i], P.value[held])) best.set(key, i);
      }
      const blocksOf = (plugin, shape, model) => inPanel.filter((i) => P.plugin[i] === plugin && P.shape[i] === shape && P.model[i] === model);
      const blockText = (i) => [P.block[i] && P.block[i] !== "-" ? P.block[i] : "", P.params[i]]
          .filter((t) => t).join(" ") || "-";
      const pointTip = (i, others) => {
        const rows = [
          [unit, `<b>${fmt(P.value[i])}</b>` + (P.cards[i] > 1 ? ` (median of ${P.cards[i]} cards, spread ${fmt(100 * P.spread[i])}%)` : "")],
          ["block", esc(blockText(i))], ["time", fmt(P.median_us[i]) + " µs"],
          ["CUPTI", P.cupti_us[i] != null ? fmt(P.cupti_us[i]) + " µs of kernels" : null],
          ["noise", P.noise[i] != null ? "±" + fmt(100 * P.noise[i]) + "%" : null],
          ["run", esc(P.run_id[i])], ["when", esc(P.timestamp_utc[i])], ["kbench", esc(P.kbench_version[i])],
          ["SM clock", P.sm_clock_mhz[i] != null ? fmt(P.sm_clock_mhz[i]) + " MHz" + (P.temperature_c[i] != null ? `, ${fmt(P.temperature_c[i])} °C` : "") : null],
          ["throttle", P.throttle[i] ? esc(P.throttle[i]) : null],
          ["energy", P.energy_j[i] != null ? fmt(P.energy_j[i]) + " J per launch" + (P.power_w[i] != null ? ` at ${fmt(P.power_w[i])} W` : "") : null],
          ["counters", P.counters[i] ? esc(P.counters[i].split(";").join(" · ")) : null],
          ["kernels", P.kernels[i] ? esc(P.kernels[i].split("; ").join(" · ")) : null]];
        let text = `<b>${esc(P.plugin[i])}</b> ${esc(caseText(P.dtype[i], P.op[i], P.shape[i]))} on ${esc(P.model[i])}` + tipTable(rows);
        if (others && others.length > 1) {
          text += `<div class="note">${others.length} blocks: ` + others.slice().sort((a, b) => (better(P.value[a], P.value[b]) ? -1 : 1))
              .slice(0, 8).map((k) => `${esc(blockText(k))} ${fmt(P.value[k])}`).join(" · ") + (others.length > 8 ? " …" : "") + "</div>";
        }
        return text;
      };
      const yAxis = { label: family.metric === "gbps" ? "bandwidth (GB/s)" : family.metric === "gflops" ? "throughput (GFLOP/s)" : "time per launch (µs)", size: 70 };
      const models = modelOrder.filter((m) => state.models.has(m));

      if (!state.shape) {
        // All sizes: a chart per model, a line per plugin at its best block.
        const grid = el("div", { class: "grid2" });
        charts.append(grid);
        // x: the shape's elements; shapes of as many elements (8192x4096, 4096x8192) a little
        // apart, so that each keeps its point and its label.
        const xs = [];
        shapes.forEach((shape, k) => {
          let x = elements(shape);
          while (xs.includes(x)) x *= state.logX ? 1.04 : 1.0004;
          xs[k] = x;
        });
        // Room on both sides, for the first and last points and their slanted labels.
        const first = Math.min(...xs), last = Math.max(...xs);
        const xRange = state.logX ? [first / 1.5, last * 1.5]
                                  : [first - 0.05 * (last - first || 1), last + 0.08 * (last - first || 1)];
        const specs = [];
        for (const model of models) {
          const series = [{}], columns = [xs], sources = [null];
          for (const plugin of allPlugins) {
            const idx = shapes.map((s) => best.get(plugin + "\u0001" + s + "\u0001" + model));
            if (idx.every((i) => i == null)) continue;
            const ref = plugin === family.reference;
            series.push({ label: plugin, plugin, stroke: colourOf(plugin), width: ref ? 2.5 : 2,
                          dash: ref ? [8, 5] : kb.dash(plugins.indexOf(plugin)), spanGaps: true,
                          show: !state.hidden.has(plugin), points: { show: true, size: 6 } });
            columns.push(idx.map((i) => (i == null ? null : P.value[i])));
            sources.push(idx);
          }
          if (series.length === 1) continue;
          const box = el("div", { class: "chart", "data-chart": "explorer" },
              el("div", { class: "chart-title" }, `${family.name} on ${model}: ${panelText(state.panel)}, best block per plugin and size`));
          grid.append(box);
          specs.push({ model, box, series, columns, sources });
        }
        // Drawn once every box has its place in the grid, at its width.
        for (const { model, box, series, columns, sources } of specs) {
          const m = data.models.find((x) => x.label === model);
          const ceiling = family.metric === "gbps" && m && m.copy_gbps ? m.copy_gbps : null;
          const u = kb.chart(box, {
            scales: { x: { time: false, distr: state.logX ? 3 : 1, log: 2, range: () => xRange }, y: { distr: state.logY ? 3 : 1, range: (u, lo, hi) => [state.logY ? lo / 1.2 : 0, Math.max(hi, ceiling || 0) * 1.08] } },
            axes: [{ label: "problem size (shape; elements)", splits: () => xs, values: (u, v) => v.map((x) => shapes[xs.indexOf(x)] ?? ""), rotate: -35, size: 80, space: 10 },
                   yAxis],
            series,
            hooks: ceiling ? { draw: [(u) => kb.hline(u, ceiling, "#666", [2, 3], `measured copy bandwidth ${fmt(ceiling)} GB/s`)] } : {},
          }, columns, 400);
          kb.hover(u, box, (s, i) => {
            const k = sources[s][i];
            return pointTip(k, blocksOf(P.plugin[k], P.shape[k], P.model[k]));
          });
          made.push(u);
        }
      } else {
        // One shape: each plugin's best block per model, side by side.
        const present = allPlugins.filter((p) => !state.hidden.has(p) &&
            models.some((m) => best.has(p + "\u0001" + state.shape + "\u0001" + m)));
        const offsets = models.map((_, k) => (models.length > 1 ? (k - (models.length - 1) / 2) * 0.5 / models.length : 0));
        const xs = [];
        present.forEach((_, p) => offsets.forEach((o) => xs.push(p + o)));
        const series = [{}], columns = [xs], sources = [null];
        models.forEach((model, k) => {
          const idx = xs.map(() => null);
          present.forEach((plugin, p) => { idx[p * models.length + k] = best.get(plugin + "\u0001" + state.shape + "\u0001" + model) ?? null; });
          series.push({ label: model, stroke: modelColour(model), fill: modelColour(model), paths: () => null,
                        points: { show: true, size: 11, fill: modelColour(model), stroke: "#fff", width: 1 } });
          columns.push(idx.map((i) => (i == null ? null : P.value[i])));
          sources.push(idx);
        });
        const box = el("div", { class: "chart", "data-chart": "explorer" },
            el("div", { class: "chart-title" }, `${family.name} ${panelText(state.panel)} ${state.shape}: each plugin at its best block, per GPU model`));
        charts.append(box);
        const labels = present;
        const u = kb.chart(box, {
          scales: { x: { time: false, range: [-0.6, present.length - 0.4] }, y: { distr: state.logY ? 3 : 1, range: (u, lo, hi) => [state.logY ? lo / 1.2 : 0, hi * 1.08] } },
          axes: [kb.categoryAxis(labels, { splits: () => present.map((_, i) => i), values: (u, v) => v.map((i) => labels[i]) }), yAxis],
          series,
        }, columns, 460);
        kb.hover(u, box, (s, i) => {
          const k = sources[s][i];
          return pointTip(k, blocksOf(P.plugin[k], P.shape[k], P.model[k]));
        });
        box.append(el("div", { class: "note" }, ...models.map((m) => el("span", { style: `color:${modelColour(m)};margin-right:1.2em` }, "● " + m))));
        made.push(u);
      }
    }
    render();
  }

  for (const box of document.querySelectorAll('[data-chart="scaling"]')) scalingChart(box);
  for (const box of document.querySelectorAll('[data-chart="roofline"]')) rooflineChart(box);
  explorer(document.getElementById("explorer"));
  kb.ready();
})();
