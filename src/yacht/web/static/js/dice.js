// Dice drawn as SVG: an ivory die with pips (a number for faces above nine).

import { s } from "./dom.js";

const L = 27, M = 50, R = 73;
const PIPS = {
  1: [[M, M]],
  2: [[L, L], [R, R]],
  3: [[L, L], [M, M], [R, R]],
  4: [[L, L], [R, L], [L, R], [R, R]],
  5: [[L, L], [R, L], [M, M], [L, R], [R, R]],
  6: [[L, L], [L, M], [L, R], [R, L], [R, M], [R, R]],
  7: [[L, L], [L, M], [L, R], [M, M], [R, L], [R, M], [R, R]],
  8: [[L, L], [L, M], [L, R], [M, L], [M, R], [R, L], [R, M], [R, R]],
  9: [[L, L], [L, M], [L, R], [M, L], [M, M], [M, R], [R, L], [R, M], [R, R]],
};

/** A die's picture (decorative: the button around it carries the name); `colour`: its
 * pips' colour on coloured dice (see drawDie). */
export function dieSvg(value, colour = "") {
  const svg = s("svg", { viewBox: "0 0 100 100", class: "die-svg", "aria-hidden": "true", focusable: "false" });
  drawDie(svg, value, colour);
  return svg;
}

/** A pip's shape by the colour of coloured dice (Kismet): the colour has a shape of its
 * own, so that no one needs the colour to tell the dice apart. */
const SHAPES = { black: "circle", red: "diamond", green: "square" };

function pip(shape, cx, cy, r, cls) {
  if (shape === "diamond") {
    const d = r * 1.3;
    return s("polygon", { class: cls, points: `${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d} ${cx - d},${cy}` });
  }
  if (shape === "square") {
    const d = r * 0.9;
    return s("rect", { class: cls, x: cx - d, y: cy - d, width: 2 * d, height: 2 * d, rx: 1.5 });
  }
  return s("circle", { class: cls, cx, cy, r });
}

/** Draw `value` (0 or null: a blank die) on a die's picture; `colour`: the colour of
 * its pips on coloured dice ("black", "red", "green"), else "". */
export function drawDie(svg, value, colour = "") {
  const key = `${value ?? 0}${colour}`;
  if (svg.dataset.value === key) return;
  svg.dataset.value = key;
  const parts = [
    s("rect", { class: "die-shadow", x: 6, y: 9, width: 90, height: 88, rx: 19 }),
    s("rect", { class: "die-body", x: 4, y: 4, width: 90, height: 90, rx: 19 }),
    s("rect", { class: "die-shine", x: 10, y: 9, width: 78, height: 40, rx: 14 }),
  ];
  if (value && PIPS[value]) {
    const shape = SHAPES[colour] || "circle";
    const cls = `${value === 1 ? "pip pip-ace" : "pip"}${colour ? ` pip-${colour}` : ""}`;
    for (const [cx, cy] of PIPS[value]) {
      parts.push(pip(shape, cx - 1, cy - 1, value === 1 ? 11 : 8.6, cls));
    }
  } else if (value) {
    parts.push(s("text", { class: "die-number", x: 49, y: 51, "text-anchor": "middle", "dominant-baseline": "central" }, String(value)));
  }
  svg.replaceChildren(...parts);
}

/** The mark of a die chosen to roll again: a round arrow on a gold disc. */
export function rerollBadge() {
  return s("svg", { viewBox: "0 0 24 24", class: "die-badge", "aria-hidden": "true", focusable: "false" },
    s("circle", { class: "badge-disc", cx: 12, cy: 12, r: 11 }),
    s("path", { class: "badge-arrow", d: "M17.2 9.2A6 6 0 1 0 18 13" }),
    s("path", { class: "badge-head", d: "M18.6 5.4 18.2 10.2 13.6 9.2Z" }));
}
