// The end's chart: every player's running total after each of their turns (SVG).

import { h, s } from "./dom.js";

const W = 520, H = 270, PAD = { left: 42, right: 14, top: 12, bottom: 34 };
const DASHES = ["", "8 5", "2 5", "12 4 2 4", "4 3", "1 3", "10 3 3 3 3 3", "6 2"];
const MARKS = ["circle", "square", "triangle", "diamond", "circle", "square", "triangle", "diamond"];

function niceStep(max) {
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

function marker(kind, x, y, cls) {
  const r = 4;
  if (kind === "square") return s("rect", { class: cls, x: x - r, y: y - r, width: 2 * r, height: 2 * r });
  if (kind === "triangle") return s("polygon", { class: cls, points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}` });
  if (kind === "diamond") return s("polygon", { class: cls, points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}` });
  return s("circle", { class: cls, cx: x, cy: y, r });
}

/** The chart and its legend for `progress` (one list per player) and `names`. */
export function progressChart(progress, names) {
  const turns = Math.max(1, ...progress.map((p) => p.length - 1));
  const top = Math.max(10, ...progress.flat());
  const step = niceStep(top);
  const yMax = Math.ceil(top / step) * step;
  const x = (t) => PAD.left + (t / turns) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);
  const titleId = `chart-${Math.random().toString(36).slice(2, 8)}`;
  const summary = names.map((n, i) => `${n}: ${progress[i][progress[i].length - 1]}`).join(", ");
  const grid = [];
  for (let v = 0; v <= yMax; v += step) {
    grid.push(s("line", { class: "chart-grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }));
    grid.push(s("text", { class: "chart-label", x: PAD.left - 8, y: y(v), "text-anchor": "end", "dominant-baseline": "middle" }, String(v)));
  }
  const every = turns > 16 ? 4 : turns > 8 ? 2 : 1;
  for (let t = 0; t <= turns; t += every) {
    grid.push(s("text", { class: "chart-label", x: x(t), y: H - PAD.bottom + 18, "text-anchor": "middle" }, String(t)));
  }
  grid.push(s("text", { class: "chart-axis", x: (PAD.left + W - PAD.right) / 2, y: H - 3, "text-anchor": "middle" }, "turn"));
  const lines = progress.map((points, i) => {
    const cls = `series series-${i % 8}`;
    const path = points.map((v, t) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    return s("g", { class: cls },
      s("polyline", { class: "chart-line", points: path, "stroke-dasharray": DASHES[i % 8] || null }),
      points.map((v, t) => marker(MARKS[i % 8], x(t), y(v), "chart-mark")));
  });
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": titleId },
    s("title", { id: titleId }, `Running totals over the turns. Final: ${summary}.`),
    s("line", { class: "chart-axisline", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom }),
    grid, lines);
  const legend = h("ul", { class: "chart-legend" }, names.map((name, i) =>
    h("li", { class: `series series-${i % 8}` },
      s("svg", { viewBox: "0 0 36 12", class: "legend-swatch", "aria-hidden": "true" },
        s("line", { class: "chart-line", x1: 2, x2: 34, y1: 6, y2: 6, "stroke-dasharray": DASHES[i % 8] || null }),
        marker(MARKS[i % 8], 18, 6, "chart-mark")),
      h("span", { text: name }))));
  return h("figure", { class: "chart-figure" }, svg, legend);
}
