// kbench report --history --html: per GPU model and family, every case over the runs (evenly
// spaced, in the order they started), its repetitions' spread as a band, and the regressions the
// gate found (kbench computed them: this page draws them, and records what it drew in
// kb.marksDrawn for the browser test).
(() => {
  const { data, el, fmt, esc, tipTable } = kb;
  const runs = kb.columns(data.runs), cases = kb.columns(data.cases);
  const V = kb.columns(data.values), G = kb.columns(data.regressions);
  const N = runs.n, C = cases.n;
  const at = (c, k) => c * N + k;

  // Per case: its median over the runs (the 1 of the relative axis), its regressions.
  const typical = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    const values = [];
    for (let k = 0; k < N; k++) if (V.median[at(c, k)] != null) values.push(V.median[at(c, k)]);
    values.sort((a, b) => a - b);
    const m = values.length;
    typical[c] = m ? (m % 2 ? values[(m - 1) / 2] : (values[m / 2 - 1] + values[m / 2]) / 2) : NaN;
  }
  const regressionAt = new Map();  // at(case, run) -> regression index
  for (let r = 0; r < G.n; r++) regressionAt.set(at(G.case[r], G.run[r]), r);

  const key = (c) => Object.fromEntries(data.key_columns.map((k) => [k, cases[k][c]]));
  const shown = data.shown_columns.filter((k) => k !== "gpu" && k !== "family");
  const caseText = (c) => shown.map((k) => cases[k][c]).filter((v) => v && v !== "-").join(" ");
  // "2026-11-21T23:59:01Z" -> "11-21 23:59": a run's label on the axis.
  const label = (k) => {
    const t = runs.started[k];
    return t && t.length >= 16 ? t.slice(5, 10) + " " + t.slice(11, 16) : runs.id[k];
  };

  const state = { relative: true, logY: false, bands: true, family: "", dtype: "", shape: "",
                  hidden: new Set() };
  const root = document.getElementById("history");
  const families = [...new Set(cases.family)].sort();
  const dtypes = [...new Set(cases.dtype)].sort();
  const shapes = [...new Set(cases.shape)].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const plugins = [...new Set(cases.plugin)].sort();
  // A plugin keeps its colour across the families' charts: its place among its family's plugins.
  const colourOf = (p) => {
    const family = p.slice(0, p.indexOf("/"));
    return kb.colour(plugins.filter((q) => q.startsWith(family + "/")).indexOf(p));
  };
  const models = [...data.models.filter((m) => cases.gpu.includes(m)),
                  ...[...new Set(cases.gpu)].filter((m) => !data.models.includes(m)).sort()];

  const controls = el("div", { class: "controls" });
  const chipsBox = el("div");
  const chartsBox = el("div");
  root.append(controls, chipsBox, chartsBox);
  const toggles = kb.chips(plugins, colourOf, (name, on) => {
    if (on) state.hidden.delete(name); else state.hidden.add(name);
    applyFilters();
  });
  chipsBox.append(toggles.box);
  controls.append(
    kb.select("y", [["relative", "time / the case's median over the runs"], ["us", "median time (µs)"]],
              "relative", (v) => { state.relative = v === "relative"; build(); }),
    kb.checkbox("log y", false, (on) => { state.logY = on; build(); }),
    kb.checkbox("repetitions' range as a band", true, (on) => { state.bands = on; redraw(); }),
    kb.select("family", [["", "all"], ...families.map((f) => [f, f])], "", (v) => { state.family = v; applyFilters(); }),
    kb.select("dtype", [["", "all"], ...dtypes.map((d) => [d, d])], "", (v) => { state.dtype = v; applyFilters(); }),
    kb.select("shape", [["", "all"], ...shapes.map((s) => [s, s])], "", (v) => { state.shape = v; applyFilters(); }));

  const visible = (c) => !state.hidden.has(cases.plugin[c]) && (!state.dtype || cases.dtype[c] === state.dtype) &&
                         (!state.shape || cases.shape[c] === state.shape);
  const y = (c, value) => (value == null ? null : state.relative ? value / typical[c] : value);

  // What the charts drew: "run id \t the case's key as JSON" of every ring, for the test.
  kb.marksDrawn = new Set();
  let made = [];  // {u, box, model, family, caseOf: series -> case}

  function tip(c, k) {
    const i = at(c, k), r = regressionAt.get(i);
    const median = V.median[i];
    let text = `<b>${esc(cases.plugin[c])}</b> ${esc(caseText(c).slice(cases.plugin[c].length).trim())} on ${esc(cases.gpu[c])}`;
    text += tipTable([
      ["run", `${esc(runs.id[k])} (${k + 1} of ${N})`], ["started", esc(runs.started[k])],
      ["median", `<b>${fmt(median)} µs</b>, ${fmt(median / typical[c])} of its median over the runs`],
      ["repetitions", V.low[i] != null && V.high[i] !== V.low[i] ? `${fmt(V.low[i])}–${fmt(V.high[i])} µs` : null],
      ["SM clock", V.clock[i] != null ? fmt(V.clock[i]) + " MHz" : null],
      ["throttle", V.throttle[i] ? esc(V.throttle[i]) : null],
      ["energy", V.energy[i] != null ? fmt(V.energy[i]) + " J per launch" : null],
      ["kbench", esc(runs.kbench_version[k])], ["hosts", esc(runs.hosts[k])]]);
    if (r != null) {
      text += `<div class="slower">slower by ${kb.change(G.effect[r])} (${fmt(G.before[r])} → ${fmt(G.after[r])} µs` +
              (G.p[r] != null ? `, p = ${G.p[r]}` : "") + `): the gate failed it</div>`;
    }
    return text;
  }

  // The bands, behind the lines: each shown case's range of repetitions, run by run.
  function drawBands(u, chart) {
    if (!state.bands) return;
    const ctx = u.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    for (let s = 1; s < u.series.length; s++) {
      if (!u.series[s].show) continue;
      const c = chart.caseOf[s];
      ctx.fillStyle = kb.alpha(colourOf(cases.plugin[c]), 0.13);
      let k = 0;
      while (k < N) {
        while (k < N && V.low[at(c, k)] == null) k++;
        const start = k;
        while (k < N && V.low[at(c, k)] != null) k++;
        if (k - start < 1) continue;
        ctx.beginPath();
        for (let j = start; j < k; j++) {
          const px = u.valToPos(j, "x", true), py = u.valToPos(y(c, V.high[at(c, j)]), "y", true);
          if (j === start) ctx.moveTo(px, py); else ctx.lineTo(px, py);
        }
        for (let j = k - 1; j >= start; j--) {
          ctx.lineTo(u.valToPos(j, "x", true), u.valToPos(y(c, V.low[at(c, j)]), "y", true));
        }
        ctx.closePath();
        ctx.fill();
      }
    }
    ctx.restore();
  }

  // The regressions, over everything: a red ring on each point the gate failed as slower.
  function drawMarks(u, chart) {
    const ctx = u.ctx, d = devicePixelRatio;
    let count = 0;
    ctx.save();
    ctx.strokeStyle = "#d62728";
    ctx.lineWidth = 2.5 * d;
    for (const r of chart.regressions) {
      const s = chart.seriesOf.get(G.case[r]);
      if (!u.series[s].show) continue;
      const value = y(G.case[r], V.median[at(G.case[r], G.run[r])]);
      ctx.beginPath();
      ctx.arc(u.valToPos(G.run[r], "x", true), u.valToPos(value, "y", true), 6 * d, 0, 2 * Math.PI);
      ctx.stroke();
      kb.marksDrawn.add(runs.id[G.run[r]] + "\t" + JSON.stringify(key(G.case[r])));
      count++;
    }
    ctx.restore();
    chart.box.dataset.marks = String(count);
  }

  function build() {
    for (const chart of made) kb.destroy(chart.u);
    made = [];
    kb.marksDrawn.clear();
    chartsBox.replaceChildren();
    const xs = Array.from({ length: N }, (_, k) => k);
    for (const model of models) {
      const section = el("section", { "data-model": model }, el("h2", {}, model));
      chartsBox.append(section);
      for (const family of families) {
        const own = [];
        for (let c = 0; c < C; c++) if (cases.gpu[c] === model && cases.family[c] === family) own.push(c);
        if (!own.length) continue;
        const ownSet = new Set(own);
        const regressions = [];
        for (let r = 0; r < G.n; r++) if (ownSet.has(G.case[r])) regressions.push(r);
        const box = el("div", { class: "chart", "data-chart": "history", "data-family": family, "data-model": model },
            el("div", { class: "chart-title" }, `${family}: ${own.length} cases, ${regressions.length} regression${regressions.length === 1 ? "" : "s"}`));
        section.append(box);
        const chart = { box, model, family, regressions, caseOf: [null], seriesOf: new Map() };
        const series = [{}], columns = [xs];
        for (const c of own) {
          chart.seriesOf.set(c, series.length);
          chart.caseOf.push(c);
          const p = cases.plugin[c];
          series.push({ label: caseText(c), stroke: colourOf(p), width: 1.4, show: visible(c),
                        dash: kb.dash(plugins.filter((q) => q.startsWith(family + "/")).indexOf(p)),
                        points: { show: N <= 40, size: 4 } });
          columns.push(xs.map((k) => y(c, V.median[at(c, k)])));
        }
        chart.u = kb.chart(box, {
          scales: { x: { time: false, range: [-0.5, Math.max(N - 0.5, 0.5)] }, y: { distr: state.logY ? 3 : 1 } },
          axes: [kb.categoryAxis(xs.map(label), { rotate: -35, size: 70,
                   splits: (u) => {
                     // As many run labels as fit, about 80 px apart, always the last run's.
                     const step = Math.max(1, Math.ceil(N * 80 / Math.max(u.bbox.width / devicePixelRatio, 1)));
                     const out = [];
                     for (let k = (N - 1) % step; k < N; k += step) out.push(k);
                     return out;
                   } }),
                 { label: state.relative ? "time / the case's median over the runs" : "median time (µs)", size: 70 }],
          series,
          focus: { alpha: 0.15 },
          hooks: { drawClear: [(u) => drawBands(u, chart)], draw: [(u) => drawMarks(u, chart)] },
        }, columns, 380);
        kb.hover(chart.u, box, (s, k) => tip(chart.caseOf[s], k), undefined, 18);
        made.push(chart);
      }
    }
    applyFilters();
  }

  function applyFilters() {
    for (const chart of made) {
      chart.box.style.display = !state.family || chart.family === state.family ? "" : "none";
      chart.u.batch(() => {
        for (let s = 1; s < chart.u.series.length; s++) {
          const show = visible(chart.caseOf[s]);
          if (chart.u.series[s].show !== show) chart.u.setSeries(s, { show });
        }
      });
    }
  }
  function redraw() { for (const chart of made) chart.u.redraw(false, false); }

  // The table of regressions, as the gate reported them; a row shows its case on its chart.
  function regressionsTable() {
    const section = el("section", { id: "regressions" },
        el("h2", {}, `Regressions: ${G.n}`),
        el("p", {}, `Each run against the one before, the gate's rule: ${data.rule.text}. Click a row to pick its case out on its chart.`));
    if (!G.n) { section.append(el("p", {}, "No regression.")); return section; }
    const head = el("tr", {}, ["run", "started", ...data.shown_columns].map((h) => el("th", {}, h)),
        ["before µs", "after µs", "change", "p"].map((h) => el("th", { class: "num" }, h)));
    const body = el("tbody");
    for (let r = 0; r < G.n; r++) {
      const c = G.case[r], k = G.run[r];
      body.append(el("tr", { class: "regression", "data-run": runs.id[k], "data-key": JSON.stringify(key(c)),
                             onclick: () => pick(c) },
          el("td", {}, runs.id[k]), el("td", {}, runs.started[k]),
          data.shown_columns.map((col) => el("td", {}, cases[col][c])),
          el("td", { class: "num" }, fmt(G.before[r])), el("td", { class: "num" }, fmt(G.after[r])),
          el("td", { class: "num slower" }, kb.change(G.effect[r])), el("td", { class: "num" }, G.p[r] == null ? "" : String(G.p[r]))));
    }
    section.append(el("div", { class: "table" }, el("table", {}, el("thead", {}, head), body)));
    return section;
  }
  function pick(c) {
    const chart = made.find((m) => m.seriesOf.has(c));
    if (!chart) return;
    chart.box.scrollIntoView({ behavior: "smooth", block: "center" });
    chart.u.setSeries(chart.seriesOf.get(c), { focus: true });
  }

  function runsTable() {
    const perRun = new Array(N).fill(0);
    for (let r = 0; r < G.n; r++) perRun[G.run[r]]++;
    const body = el("tbody");
    for (let k = 0; k < N; k++) {
      body.append(el("tr", {}, el("td", {}, runs.id[k]), el("td", {}, runs.started[k]),
          el("td", { class: "num" }, String(runs.cases[k])), el("td", { class: "num" }, String(perRun[k])),
          el("td", {}, runs.kbench_version[k]), el("td", {}, runs.hosts[k])));
    }
    return el("section", { id: "runs" }, el("h2", {}, `Runs: ${N}`),
        el("details", {}, el("summary", {}, "each run, its cases, regressions, kbench version and hosts"),
           el("div", { class: "table" }, el("table", {},
             el("thead", {}, el("tr", {}, ["run", "started (UTC)"].map((h) => el("th", {}, h)),
                ["cases", "regressions"].map((h) => el("th", { class: "num" }, h)),
                ["kbench", "hosts"].map((h) => el("th", {}, h)))), body))));
  }

  build();
  root.append(regressionsTable(), runsTable());
  kb.ready();
})();
