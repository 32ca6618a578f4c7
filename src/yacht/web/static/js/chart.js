// Line charts (SVG) with their legends: the end's running totals, and the analysis's
// expected scores and chances of winning. Each series has its colour, its dash and its
// marker (told apart without colour); the SVG's title is its text alternative.

import { h, s } from "./dom.js";

// (the bottom holds the turns' numbers and the axis's name, each a line of type below
// the other: up to 28 units high on a phone, style.css)
const W = 520, H = 300, MARGIN = { right: 14, top: 16, bottom: 80 };
const DASHES = ["", "8 5", "2 5", "12 4 2 4", "4 3", "1 3", "10 3 3 3 3 3", "6 2"];
const MARKS = ["circle", "square", "triangle", "diamond", "circle", "square", "triangle", "diamond"];

/** A round step for about five grid lines over `range`. */
export function niceStep(range) {
  const raw = range / 5;
  const mag = 10 ** Math.floor(Math.log10(Math.max(1e-9, raw)));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

function marker(kind, x, y, cls, r = 4) {
  if (kind === "square") return s("rect", { class: cls, x: x - r, y: y - r, width: 2 * r, height: 2 * r });
  if (kind === "triangle") return s("polygon", { class: cls, points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}` });
  if (kind === "diamond") return s("polygon", { class: cls, points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}` });
  return s("circle", { class: cls, cx: x, cy: y, r });
}

/**
 * A line chart and its legend. `series`: one list of values per name; `xs`: their x
 * (default 0, 1, ...); the y axis from `yMin` to `yMax` by `yStep`, labelled by
 * `yFormat`; `title`: what a screen reader hears of the picture.
 */
export function lineChart({ series, names, xs = null, yMin, yMax, yStep, yFormat = String, xLabel, title, cls = "" }) {
  const at = series.map((ys, i) => (xs ? xs[i] : ys.map((_, t) => t)));
  const ticks = [];
  for (let i = 0; yMin + i * yStep <= yMax + 1e-9; i += 1) ticks.push(yMin + i * yStep);
  // room for the longest label at the left (up to 28 units of type on a phone: style.css)
  const left = Math.max(42, 16 + 16 * Math.max(...ticks.map((v) => yFormat(v).length)));
  const PAD = { ...MARGIN, left };
  const xMax = Math.max(1, ...at.flat());
  const x = (t) => PAD.left + (t / xMax) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - ((v - yMin) / (yMax - yMin || 1)) * (H - PAD.top - PAD.bottom);
  const titleId = `chart-${Math.random().toString(36).slice(2, 8)}`;
  const grid = [];
  for (const v of ticks) {
    grid.push(s("line", { class: "chart-grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }));
    grid.push(s("text", { class: "chart-label", x: PAD.left - 8, y: y(v), "text-anchor": "end", "dominant-baseline": "middle" }, yFormat(v)));
  }
  const every = xMax > 24 ? [5, 10, 20, 25, 50].find((e) => xMax / e <= 8) || 50 : xMax > 16 ? 4 : xMax > 8 ? 2 : 1;
  for (let t = 0; t <= xMax; t += every) {
    grid.push(s("text", { class: "chart-label", x: x(t), y: H - PAD.bottom, dy: "0.6em", "text-anchor": "middle", "dominant-baseline": "hanging" }, String(t)));
  }
  grid.push(s("text", { class: "chart-axis", x: (PAD.left + W - PAD.right) / 2, y: H - PAD.bottom, dy: "1.9em", "text-anchor": "middle", "dominant-baseline": "hanging" }, xLabel));
  const dense = Math.max(...series.map((ys) => ys.length)) > 20;
  const lines = series.map((ys, i) => {
    const path = ys.map((v, k) => `${x(at[i][k]).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    return s("g", { class: `series series-${i % 8}` },
      s("polyline", { class: "chart-line", points: path, "stroke-dasharray": DASHES[i % 8] || null }),
      ys.map((v, k) => marker(MARKS[i % 8], x(at[i][k]), y(v), "chart-mark", dense ? 3 : 4)));
  });
  const svg = s("svg", { class: ["chart", cls], viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": titleId },
    s("title", { id: titleId }, title),
    s("line", { class: "chart-axisline", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom }),
    grid, lines);
  const legend = h("ul", { class: "chart-legend", aria: { label: "Legend" } }, names.map((name, i) =>
    h("li", { class: `series series-${i % 8}` },
      s("svg", { viewBox: "0 0 36 12", class: "legend-swatch", "aria-hidden": "true" },
        s("line", { class: "chart-line", x1: 2, x2: 34, y1: 6, y2: 6, "stroke-dasharray": DASHES[i % 8] || null }),
        marker(MARKS[i % 8], 18, 6, "chart-mark")),
      h("span", { text: name }))));
  return h("figure", { class: "chart-figure" }, svg, legend);
}

/** The end's chart: every player's running total after each of their turns. */
export function progressChart(progress, names) {
  const top = Math.max(10, ...progress.flat());
  const step = niceStep(top);
  const summary = names.map((n, i) => `${n}: ${progress[i][progress[i].length - 1]}`).join(", ");
  return lineChart({
    series: progress, names, yMin: 0, yMax: Math.ceil(top / step) * step, yStep: step,
    xLabel: "turn", title: `Running totals over the turns. Final: ${summary}.`,
  });
}
