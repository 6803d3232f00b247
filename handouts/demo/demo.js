// demo.js - the workbook's live demo of one warp's memory request (handouts/demo.md).
//
// Every number it shows comes from the project's own coalescing model, common/coalesce.c,
// compiled to WebAssembly (coalesce-wasm.js, made by tools/demo/build.sh): the same code as
// 'grade --model' and the trace engine. This file only reads the inputs and draws.
//
// Views: a coalesced warp, an uncoalesced one, a matrix's layout, the bandwidth measured by the
// explore runs, and a warp from the student's own 'grade --format json' report. The page's
// address (?view=layout&size=4&stride=128&offset=0&active=0xffffffff&rows=1024&major=column,
// or ?view=report&report=URL) sets the first view and its inputs; the results are also written
// as data- attributes of #cd-result, which tests/unit/demo.sh reads from a headless browser.
//
// Its words are gettext messages: each one marked _("..."), one literal, its numbers put in by
// fmt() ({name} placeholders). xgettext takes them out into po/demo.pot, po/demo-zh_CN.po
// translates them, and tools/demo/build.sh writes the translations into demo-catalogue.js
// (CL_DEMO_CATALOGUE), loaded before this file. The language: ?lang= in the page's address, else
// the page's own <html lang>; zh... is Chinese, anything else English.
"use strict";

(async function () {
  const root = document.getElementById("coalescing-demo");
  if (!root) return;
  const q = new URLSearchParams(location.search);
  const lang = (q.get("lang") || document.documentElement.lang || "").toLowerCase()
    .startsWith("zh") ? "zh" : "en";
  const catalogue = typeof CL_DEMO_CATALOGUE !== "undefined" && CL_DEMO_CATALOGUE[lang] || {};
  const _ = (msgid) => catalogue[msgid] || msgid;
  const fmt = (text, values) => // "{name}" in a message: values.name
    text.replace(/\{(\w+)\}/g, (all, k) => (k in values ? values[k] : all));
  if (lang === "zh") root.lang = "zh-CN"; // for the Chinese glyphs, also on an English page
  const heading = document.getElementById("cd-title"); // the demo's own page (index.html)
  if (heading) {
    heading.textContent = document.title = _("One warp's memory request, live");
    if (lang === "zh") heading.lang = "zh-CN";
  }
  root.innerHTML = `
    <style>
      #coalescing-demo { font: 14px sans-serif; max-width: 980px; }
      #coalescing-demo button { margin: 0 4px 8px 0; }
      #coalescing-demo .cd-current { font-weight: bold; }
      #coalescing-demo label { margin-right: 12px; }
      #coalescing-demo input[type=number] { width: 6em; }
      #coalescing-demo .cd-lane { fill: #8ab4f8; stroke: #345; }
      #coalescing-demo .cd-off { fill: #eee; }
      #coalescing-demo .cd-sector { fill: #fff; stroke: #555; }
      #coalescing-demo .cd-used { fill: #f6b26b; }
      #coalescing-demo .cd-wire { stroke: #345; stroke-width: 0.7; }
      #coalescing-demo .cd-bar { fill: #6aa84f; }
      #coalescing-demo .cd-label { font: 11px sans-serif; }
    </style>
    <div>
      <button data-view-button="coalesced">${_("coalesced")}</button>
      <button data-view-button="uncoalesced">${_("uncoalesced")}</button>
      <button data-view-button="layout">${_("matrix layout")}</button>
      <button data-view-button="bandwidth">${_("bandwidth")}</button>
      <button data-view-button="report">${_("your report")}</button>
    </div>
    <p id="cd-text"></p>
    <div>
      <label>${_("bytes a lane")} <select id="cd-size"><option>1</option><option>2</option>
        <option>4</option><option>8</option><option>16</option></select></label>
      <label>${_("stride (bytes)")} <input id="cd-stride" type="number"></label>
      <label>${_("offset (bytes)")} <input id="cd-offset" type="number"></label>
      <label>${_("active lanes")} <input id="cd-active" size="12"></label>
      <label>${_("matrix rows")} <input id="cd-rows" type="number"></label>
      <label>${_("stored by")} <select id="cd-major"><option value="row">${_("rows")}</option>
        <option value="column">${_("columns")}</option></select></label>
      <label>report.json <input id="cd-file" type="file" accept=".json"></label>
    </div>
    <svg id="cd-figure" width="960" height="340" viewBox="0 0 960 340"></svg>
    <p><output id="cd-result"></output></p>`;
  const bytes = Uint8Array.from(atob(CL_DEMO_WASM), (c) => c.charCodeAt(0));
  const m = (await WebAssembly.instantiate(bytes, {})).instance.exports;
  const $ = (id) => document.getElementById(id);
  const svgNS = "http://www.w3.org/2000/svg";

  const views = {
    coalesced: { size: 4, stride: 4, offset: 0, active: "0xffffffff",
      text: _("Consecutive lanes read consecutive 4-byte words: 128 bytes in 4 sectors of " +
        "one line.") },
    uncoalesced: { size: 4, stride: 128, offset: 0, active: "0xffffffff",
      text: _("Each lane reads a word 128 bytes from its neighbour's: a sector and a line " +
        "apiece, for 4 useful bytes.") },
    layout: { size: 4, offset: 0, active: "0xffffffff", rows: 1024, major: "column",
      text: _("32 threads read 32 neighbouring elements of one row of a matrix of floats. " +
        "Stored by rows, they are next to each other; stored by columns, a whole column " +
        "(rows x 4 bytes) apart.") },
    bandwidth: { text: _("What the explore runs measured on an H200: useful bandwidth against " +
      "the contiguous bytes each warp request reads (lab 01), and against the stride (lab 02).") },
    report: { text: _("Load the report of 'grade --format json --output report.json' to see " +
      "one sampled warp of the instruction the grader blamed.") },
  };

  function el(tag, attrs, parent) {
    const e = document.createElementNS(svgNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // The request the inputs describe, costed by the model; returns its status (0: costed).
  function cost(v) {
    if (v.list) {
      const buf = new Uint32Array(m.memory.buffer, m.dm_list_buffer(), 32);
      v.list.forEach((a, i) => (buf[i] = a === null ? 0 : a));
      return m.dm_list(v.active >>> 0, v.size);
    }
    let stride = v.stride;
    if (v.rows !== undefined) stride = v.major === "row" ? v.size : v.size * v.rows;
    return m.dm_strided(v.offset | 0, stride | 0, v.size >>> 0, parseInt(v.active, 16) >>> 0);
  }

  // Lanes above, the lines they touch below (each as its sectors), a line from each lane to
  // the sectors it reads.
  function size(svg, height) {
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", "0 0 960 " + height);
  }

  function draw(svg) {
    svg.replaceChildren();
    size(svg, 190);
    const per = m.dm_sectors_per_line();
    const lanes = [], lines = new Map();
    for (let l = 0; l < 32; l++) {
      const a = m.dm_lane_first_sector(l), b = m.dm_lane_last_sector(l);
      lanes.push([a, b]);
      for (let s = a; a >= 0 && s <= b; s++) lines.set(Math.floor(s / per), true);
    }
    const order = [...lines.keys()].sort((x, y) => x - y);
    const W = 960, laneW = W / 32, cell = Math.min(24, W / (order.length * per + order.length));
    const lineX = new Map();
    const span = order.length * (per * cell + cell / 2);
    let x = (W - span) / 2;
    for (const line of order) { lineX.set(line, x); x += per * cell + cell / 2; }
    const sectorX = (s) => lineX.get(Math.floor(s / per)) + (s % per) * cell;
    el("text", { x: 4, y: 14, class: "cd-label" }, svg).textContent = _("lanes 0-31");
    el("text", { x: 4, y: 172, class: "cd-label" }, svg).textContent =
      fmt(_("{lines} line(s) of {per} sectors"), { lines: order.length, per });
    lanes.forEach(([a, b], l) => {
      const active = a >= 0;
      el("rect", { x: l * laneW + 1, y: 20, width: laneW - 2, height: 18,
        class: active ? "cd-lane" : "cd-lane cd-off" }, svg);
      for (let s = a; active && s <= b; s++)
        el("line", { x1: l * laneW + laneW / 2, y1: 38, x2: sectorX(s) + cell / 2, y2: 120,
          class: "cd-wire" }, svg);
    });
    const used = new Set();
    lanes.forEach(([a, b]) => { for (let s = a; a >= 0 && s <= b; s++) used.add(s); });
    for (const line of order)
      for (let i = 0; i < per; i++) {
        const s = line * per + i;
        el("rect", { x: sectorX(s), y: 120, width: cell - 2, height: 28,
          class: used.has(s) ? "cd-sector cd-used" : "cd-sector" }, svg);
      }
  }

  function show(v) {
    const out = $("cd-result"), svg = $("cd-figure");
    const status = cost(v);
    out.dataset.status = status;
    if (status !== 0) {
      svg.replaceChildren();
      out.textContent = status >= 100
        ? fmt(_("lane {lane}'s address is not a multiple of {size} bytes: the GPU faults on " +
          "such an access (misaligned address), and the model refuses it"),
          { lane: status - 100, size: v.size })
        : _("not a request: choose a size of 1, 2, 4, 8 or 16 bytes and at least one lane");
      return;
    }
    const r = {
      sectors: m.dm_sectors(), lines: m.dm_lines(), unique: m.dm_unique_bytes(),
      ideal: m.dm_ideal_sectors(), active: m.dm_active_lanes(),
      efficiency: (100 * m.dm_efficiency()).toFixed(1),
      bytesPerSector: (100 * m.dm_bytes_per_sector()).toFixed(1),
    };
    Object.assign(out.dataset, r);
    out.textContent = fmt(_("{active} lanes of {size} bytes: {sectors} sectors, {lines} lines, " +
      "{unique} bytes asked for, {ideal} sectors would carry them: efficiency {efficiency}% " +
      "({bytesPerSector}% bytes per sector, as Nsight Compute counts)"),
      Object.assign({ size: v.size }, r));
    draw(svg);
  }

  // The bandwidth view: bars from the explore runs' CSV files (coalesce-wasm.js holds them).
  function bars(svg, csv, xKey, yKey, label, y0) {
    const rows = csv.trim().split("\n");
    const head = rows[0].split(",");
    const xi = head.indexOf(xKey), yi = head.indexOf(yKey);
    const data = rows.slice(1).map((r) => r.split(",")).map((c) => [c[xi], +c[yi]]);
    const max = Math.max(...data.map((d) => d[1]));
    el("text", { x: 4, y: y0, class: "cd-label" }, svg).textContent = label;
    const step = Math.min(88, 890 / data.length);
    data.forEach(([x, y], i) => {
      const h = 110 * y / max, bx = 60 + i * step;
      el("rect", { x: bx, y: y0 + 130 - h, width: step * 0.7, height: h, class: "cd-bar" }, svg);
      el("text", { x: bx, y: y0 + 145, class: "cd-label" }, svg).textContent = x;
      el("text", { x: bx, y: y0 + 126 - h, class: "cd-label" }, svg).textContent = Math.round(y);
    });
    return data.length;
  }

  function bandwidth() {
    const svg = $("cd-figure");
    svg.replaceChildren();
    size(svg, 340);
    const out = $("cd-result");
    const n1 = bars(svg, CL_DEMO_EXPLORE["01"], "run_bytes", "useful_gb_s",
      _("lab 01: useful GB/s against contiguous bytes per run"), 16);
    const n2 = bars(svg, CL_DEMO_EXPLORE["02"], "stride", "useful_gb_s",
      _("lab 02: useful GB/s against the stride (floats)"), 186);
    out.dataset.status = 0;
    out.dataset.bars = n1 + n2;
    out.textContent = _("measured on an H200 by 'grade --explore 01' and '--explore 02' " +
      "(handouts/figures/explore-*-h200.csv); run them on your GPU for its own curve");
  }

  // The student's report: the blamed instruction of the first lab that has one.
  function report(text) {
    const out = $("cd-result");
    let worst = null, lab = null;
    try {
      for (const l of JSON.parse(text).labs || []) {
        const w = l.coalescing && l.coalescing.trace && l.coalescing.trace.worst;
        if (w && w.addresses) { worst = w; lab = l; break; }
      }
    } catch (e) {
      out.textContent = fmt(_("not a report of 'grade --format json': {error}"),
        { error: e.message });
      return;
    }
    if (!worst) { out.textContent = _("this report names no traced instruction"); return; }
    // Addresses from a 128-byte boundary below the lowest: the same sectors and lines.
    const low = Math.min(...worst.addresses.filter((a) => a !== null));
    const base = low - (low % 128);
    show({ list: worst.addresses.map((a) => (a === null ? null : a - base)), active: worst.active,
      size: worst.size });
    out.textContent = fmt(_("lab {lab}, {file}:{line} ({op}, {source}): {result}"),
      { lab: lab.id, file: worst.file, line: worst.line, op: worst.op, source: worst.source,
        result: out.textContent });
  }

  function inputs(v) {
    for (const k of ["size", "stride", "offset", "active", "rows", "major"]) {
      const e = $("cd-" + k);
      const has = v[k] !== undefined;
      e.closest("label").hidden = !has;
      if (has) e.value = v[k];
    }
  }

  function read(name) {
    const v = Object.assign({}, views[name]);
    for (const k of ["size", "stride", "offset", "rows"])
      if (v[k] !== undefined) v[k] = Number($("cd-" + k).value);
    for (const k of ["active", "major"])
      if (v[k] !== undefined) v[k] = $("cd-" + k).value;
    return v;
  }

  let current = null;
  function select(name) {
    current = name;
    root.dataset.view = name;
    for (const b of root.querySelectorAll("[data-view-button]"))
      b.classList.toggle("cd-current", b.dataset.viewButton === name);
    $("cd-text").textContent = views[name].text;
    $("cd-file").closest("label").hidden = name !== "report";
    inputs(views[name]);
    if (name === "bandwidth") bandwidth();
    else if (name === "report") { $("cd-figure").replaceChildren(); $("cd-result").textContent = ""; }
    else show(read(name));
  }

  for (const b of root.querySelectorAll("[data-view-button]"))
    b.addEventListener("click", () => select(b.dataset.viewButton));
  for (const e of root.querySelectorAll("input:not([type=file]), select"))
    e.addEventListener("input", () => { if (current !== "bandwidth" && current !== "report") show(read(current)); });
  $("cd-file").addEventListener("change", async (e) => report(await e.target.files[0].text()));

  const first = views[q.get("view")] ? q.get("view") : "coalesced";
  for (const k of ["size", "stride", "offset", "active", "rows", "major"])
    if (q.has(k)) views[first][k] = k === "active" || k === "major" ? q.get(k) : Number(q.get(k));
  select(first);
  if (first === "report" && q.has("report")) // a report by its address (the test's way)
    report(await (await fetch(q.get("report"))).text());
  root.dataset.ready = "1";
})();
