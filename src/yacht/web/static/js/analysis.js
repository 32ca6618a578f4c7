// A finished game's analysis (GET /api/games/ID/analysis, as `yacht analyse --json`):
// per player the points the decisions lost against the expert (the loss, never signed),
// what the dice decided (luck), accuracy, the three costliest decisions with their dice, a chart of
// each player's expected final score turn by turn and, for 2 or more players, a chart of
// their chances of winning beside it. Each chart has its figures in a table too. A
// duplicate table's game also shows its table's games on the same dice (as its end did).

import { h, fill, plural } from "./dom.js";
import { getJSON } from "./api.js";
import { announce } from "./ui.js";
import { dieSvg } from "./dice.js";
import { lineChart, niceStep } from "./chart.js";
import { sameDicePart } from "./field.js";

/** What the figures mean: the page's words for them, said here once. */
export const TERMS = [
  ["Loss", "the points the decisions (each keep and each box) lost in expected final score against the expert's; 0.0: all were the expert's."],
  ["Luck", "what the dice decided: score − expected score at the start + loss."],
  ["Accuracy", "0-100: 100 × (expected score at the start − loss) ÷ expected score at the start, the share of the expert's expected score the decisions kept (the expert: 100)."],
]

const MINUS = "\u2212";

/** |v| to `digits` decimals as the terminal and `yacht analyse` write it (Python): an
 * exact tie goes to the even digit (85.25 -> "85.2"), where toFixed would round it up. */
const decimals = (v, digits) => {
  const a = Math.abs(v);
  const exact = a.toFixed(100); // the double's own decimals (toFixed rounds on them)
  const cut = exact.indexOf(".") + 1 + digits;
  if (/^50*$/.test(exact.slice(cut)) && Number(exact[cut - (digits ? 1 : 2)]) % 2 === 0) {
    return exact.slice(0, digits ? cut : cut - 1); // a tie, and the kept digit is even
  }
  return a.toFixed(digits);
};
/** 7.6 -> "7.6"; -0.04 -> "0.0" (never "-0.0"). */
const fixed = (v, digits = 1) => {
  const text = decimals(v, digits);
  return v < 0 && Number(text) !== 0 ? `${MINUS}${text}` : text;
};
const percent = (c) => `${Math.round(100 * c)}%`;

export class AnalysisView {
  /** The view of game `gameId`; `rows`: the card's rows of the snapshot (box labels). */
  constructor(gameId, rows = []) {
    this.gameId = gameId;
    this.labels = new Map(rows.filter((r) => r.category).map((r) => [r.category, r.label]));
    this.state = "idle"; // loading, shown, failed
    this.heading = h("h2", { id: "analysis-title", tabindex: "-1", text: "Analysis" });
    this.content = h("div", { class: "analysis-content" });
    this.el = h("section", { class: "analysis-panel", id: "analysis", hidden: true, aria: { labelledby: "analysis-title", busy: "false" } },
      this.heading, this.content);
  }

  get open() {
    return !this.el.hidden;
  }

  show() {
    this.el.hidden = false;
    if (this.state === "idle" || this.state === "failed") this.load();
  }

  hide() {
    this.el.hidden = true;
  }

  async load() {
    this.state = "loading";
    this.el.setAttribute("aria-busy", "true");
    fill(this.content, h("div", { class: "analysis-status", role: "status" },
      h("p", { text: "Analysing every decision of the game…" }),
      h("progress", { aria: { label: "Analysing the game" } }),
      h("p", { class: "muted small", text: "The first analysis of a variant works out the expert's tables: it may take a while." })));
    // the Try again button is gone: the focus goes to the heading, not to the page's top
    const keepFocus = () => {
      const at = document.activeElement;
      if (!this.el.hidden && (!at || at === document.body || !at.isConnected)) this.heading.focus({ preventScroll: true });
    };
    // the page keeps what is below in place as the view grows: its top stays in sight
    const keepTop = () => {
      if (document.activeElement === this.heading && this.heading.getBoundingClientRect().top < 0) {
        this.heading.scrollIntoView({ block: "start" });
      }
    };
    keepFocus();
    let data;
    try {
      // 202 {status: "working"}: the server is at it (a variant's first analysis builds
      // its tables); ask again a moment later
      for (;;) {
        data = await getJSON(this.url);
        if (!data || data.status !== "working") break;
        await pause(data.retry);
        if (!this.el.isConnected) return; // the page moved on
      }
    } catch (e) {
      this.state = "failed";
      this.el.setAttribute("aria-busy", "false");
      const retry = h("button", { type: "button", class: "btn", id: "analysis-retry", onclick: () => this.load() }, "Try again");
      fill(this.content, h("div", { class: "analysis-error", role: "alert" },
        h("p", { text: `The analysis failed: ${e.message}` }), retry));
      return;
    }
    this.state = "shown";
    this.el.setAttribute("aria-busy", "false");
    this.data = data;
    fill(this.content, this.render(data));
    keepFocus();
    keepTop();
    announce(`Analysis ready. ${data.players.map((p) => `${p.name}: loss ${p.shown.loss}, luck ${p.shown.luck}, accuracy ${p.shown.accuracy}`).join(". ")}.`);
    if (data.win_pending) this.awaitChances(data.retry);
  }

  get url() {
    return `/api/games/${encodeURIComponent(this.gameId)}/analysis`;
  }

  /** The rest is shown; the chances of winning come when the server has them. */
  async awaitChances(retry) {
    let data;
    try {
      do {
        await pause(retry);
        if (!this.el.isConnected) return;
        data = await getJSON(this.url);
        retry = data.retry;
        const bar = this.winBox && this.winBox.querySelector("progress");
        if (bar && data.win_progress && data.win_progress[1] > 0) {
          bar.max = data.win_progress[1];
          bar.value = data.win_progress[0];
        }
      } while (data.status === "working" || data.win_pending);
    } catch (e) {
      const retryBtn = h("button", { type: "button", class: "btn btn-small", id: "chances-retry", onclick: () => {
        fill(this.winBox, this.winPending());
        this.winBox.querySelector("h3").focus({ preventScroll: true }); // the button is gone
        this.awaitChances(1);
      } }, "Try again");
      fill(this.winBox, h("h3", { id: "chart-win-title", text: "Chance of winning" }),
        h("div", { class: "analysis-error", role: "alert" }, h("p", { text: `The chances of winning could not be worked out: ${e.message}` }), retryBtn));
      return;
    }
    this.data = data;
    const names = data.players.map((p) => p.name);
    const had = this.winBox.contains(document.activeElement);
    const chart = data.win && data.win.moments.length > 1 ? this.winChart(data, names) : h("section", {});
    this.winBox.replaceWith(chart);
    this.winBox = chart;
    announce("The chances of winning are in: the chart and its figures are after the expected scores.");
    const heading = chart.querySelector("h3");
    if (had && heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
  }

  render(a) {
    const names = a.players.map((p) => p.name);
    return [
      h("p", { class: a.exact ? "analysis-ref" : "analysis-ref analysis-note", id: "analysis-reference", data: { exact: String(a.exact) } },
        h("strong", { text: "Reference: " }), `${a.reference}. `,
        `Expected score at the start: ${fixed(a.expected_start)}${a.start_note ? ` (${a.start_note})` : ""}.`),
      a.ended_text ? h("p", { class: "analysis-ended", id: "analysis-ended", text: a.ended_text }) : null,
      h("div", { class: "analysis-players" }, a.players.map((p) => this.player(p, a))),
      a.same_dice ? sameDicePart(a.same_dice) : null,
      h("h3", { class: "small-head terms-head", text: "What the figures mean" }),
      h("dl", { class: "analysis-terms" }, TERMS.map(([term, what]) => [h("dt", { text: term }), h("dd", { text: what })])),
      h("div", { class: "analysis-charts" },
        this.expectedChart(a, names),
        this.chancesBox(a, names)),
    ];
  }

  player(p, a) {
    const id = `analysis-p${p.index}`;
    const who = p.kind === "computer" ? ` (computer${p.level ? `, ${p.level}` : ""})` : "";
    const stat = (name, value, text) => h("div", { class: "stat" }, h("dt", { text: name }), h("dd", { data: { stat: name.toLowerCase(), value: String(value) }, text }));
    // how many decisions lost points, in the server's words (names spoken to as they should be)
    const said = p.decisions_text || `${p.mistakes} of ${p.decisions} decisions lost points (${fixed(p.loss)} points in all).`;
    const costly = p.costliest.length
      ? [h("p", { class: "muted small analysis-decisions", text: said }),
        h("h4", { text: p.costliest.length === 1 ? "The costliest decision" : `The ${p.costliest.length} costliest decisions` }),
        h("ol", { class: "costly" }, p.costliest.map((d) => this.decision(d, a)))]
      : [h("p", { class: "costly-none analysis-decisions", text: said })];
    return h("section", { class: "analysis-player", aria: { labelledby: id }, data: { player: p.index } },
      h("h3", { id }, h("span", { class: `analysis-swatch series series-${p.index % 8}`, "aria-hidden": "true" }),
        h("span", { class: "analysis-name", text: p.name }), h("span", { class: "muted analysis-who", text: who })),
      h("dl", { class: "analysis-stats" },
        stat("Score", p.score, String(p.score)),
        // the figures as the server writes them (yacht.render's rules, as in the terminal)
        stat("Loss", p.loss, p.shown.loss),
        stat("Luck", p.luck, p.shown.luck),
        stat("Accuracy", p.accuracy, p.shown.accuracy)),
      p.luck_text ? h("p", { class: "analysis-luck small", text: p.luck_text }) : null,
      costly);
  }

  decision(d, a) {
    const moment = d.kind === "keep" ? `${plural(d.rolls_left, "roll")} left` : "choosing a box";
    // coloured dice (Kismet) as the table draws them: each colour with a shape of its own,
    // and in words with its mark (the server's dice_text)
    const colours = a.die_colours || [];
    // (ten dice on a phone: two rows of five, as the table shows them, not nine and one)
    const dice = h("span", { class: ["costly-dice", d.dice.length > 6 ? "costly-dice-many" : ""], role: "img", aria: { label: `Dice ${d.dice_text}` } },
      d.dice.map((v) => dieSvg(v, colours[v - 1] || "")));
    return h("li", { class: "costly-item" },
      h("p", { class: "costly-when" }, h("strong", { text: `Turn ${d.turn}` }), ` · ${moment}`),
      dice,
      h("dl", { class: "costly-moves" },
        h("dt", { text: "Played" }), h("dd", { class: "costly-played", text: d.played.text }),
        h("dt", { text: "Expert" }), h("dd", { class: "costly-best", text: d.best.text }),
        h("dt", { text: "Lost" }), h("dd", { class: "costly-loss", data: { value: String(d.loss) }, text: `${d.loss.toFixed(2)} points` })),
      h("details", { class: "costly-card" }, h("summary", { text: "The card then" }),
        h("p", { text: this.cardText(d.card, a) }),
        h("p", { class: "muted small" }, "On the command line: ", h("code", { class: "costly-command", text: adviseCommand(a, d) }))));
  }

  /** "ones=1,col2:sixes=12,extra=100" -> "Ones 1 · Sixes 12 (column 2) · extra points 100". */
  cardText(card, a) {
    if (!card) return "Nothing scored yet.";
    return card.split(",").map((item) => {
      const [key, value] = item.split("=");
      if (key === "extra") return `extra points ${value}`;
      const [col, box] = key.includes(":") ? key.split(":") : ["", key];
      const label = this.labels.get(box) || box;
      return `${label} ${value}${col ? ` (column ${col.replace("col", "")})` : ""}`;
    }).join(" · ");
  }

  expectedChart(a, names) {
    const series = a.players.map((p) => p.expected);
    const all = series.flat();
    const lo = Math.min(...all), hi = Math.max(...all);
    const step = niceStep(Math.max(10, hi - lo));
    const yMin = Math.max(0, Math.floor(lo / step) * step), yMax = Math.ceil(hi / step) * step;
    const said = a.players.map((p) => {
      const e = p.expected;
      return `${p.name} from ${e[0].toFixed(1)} to ${e[e.length - 1].toFixed(1)} (lowest ${Math.min(...e).toFixed(1)}, highest ${Math.max(...e).toFixed(1)})`;
    }).join("; ");
    const turns = Math.max(...series.map((e) => e.length));
    const rows = [];
    for (let t = 0; t < turns; t += 1) {
      rows.push(h("tr", {}, h("th", { scope: "row", text: t === 0 ? "start" : String(t) }),
        series.map((e) => h("td", { class: "num", text: t < e.length ? e[t].toFixed(1) : "" }))));
    }
    return h("section", { class: "analysis-chart", aria: { labelledby: "chart-expected-title" } },
      h("h3", { id: "chart-expected-title", text: "Expected final score" }),
      h("p", { class: "muted small", text: "After each of the player's turns: the points on the card plus the points the expert would expect to add from there." }),
      lineChart({
        series, names, yMin, yMax, yStep: step, yFormat: (v) => String(Math.round(v)), xLabel: "turns played", cls: "chart-expected",
        title: `Expected final score after each turn: ${said}.`,
      }),
      figures(["turn", ...names], rows));
  }

  chancesBox(a, names) {
    if (a.win_pending) {
      this.winBox = h("section", { class: "analysis-chart", aria: { labelledby: "chart-win-title" } }, this.winPending());
    } else {
      this.winBox = a.win && a.win.moments.length > 1 ? this.winChart(a, names) : null;
    }
    return this.winBox;
  }

  winPending() {
    return [h("h3", { id: "chart-win-title", tabindex: "-1", text: "Chance of winning" }),
      h("div", { class: "analysis-status", role: "status" },
        h("p", { text: "Working out each player's chance of winning after every turn (the first time for a game of this kind, its tables are built)…" }),
        h("progress", { aria: { label: "Working out the chances of winning" } }))];
  }

  winChart(a, names) {
    const moments = a.win.moments;
    const series = a.players.map((p) => moments.map((m) => 100 * m.chances[p.index]));
    const xs = a.players.map(() => moments.map((m) => m.game_turn));
    const said = a.players.map((p) => `${p.name} from ${percent(moments[0].chances[p.index])} to ${percent(moments[moments.length - 1].chances[p.index])}`).join("; ");
    const rows = moments.map((m) => h("tr", {},
      h("th", { scope: "row", text: m.player === null ? "start" : `${m.game_turn} (${names[m.player]})` }),
      m.chances.map((c) => h("td", { class: "num", text: percent(c) }))));
    return h("section", { class: "analysis-chart", aria: { labelledby: "chart-win-title" } },
      h("h3", { id: "chart-win-title", text: "Chance of winning" }),
      h("p", { class: "muted small", text: `After each turn of the game, each player's chance of finishing first: ${a.win.how}. A shared first place counts as a win for each.` }),
      lineChart({
        series, xs, names, yMin: 0, yMax: 100, yStep: 25, yFormat: (v) => `${v}%`, xLabel: "turns of the game", cls: "chart-win",
        title: `Chance of winning after each turn of the game: ${said}.`,
      }),
      figures(["turn", ...names], rows));
  }
}

/** The command that asks the advisor about a decision's situation. */
function adviseCommand(a, d) {
  const options = Object.entries(a.options || {}).map(([k, v]) => ` -o ${k}=${v}`).join("");
  return `yacht advise ${a.variant}${options} "${d.situation}"`;
}

/** Wait `seconds` (1-10; 2 when not said), as the server asked. */
const pause = (seconds) => new Promise((done) => window.setTimeout(done, 1000 * Math.min(10, Math.max(1, Number(seconds) || 2))));

/** A chart's figures as a table, folded away. */
function figures(head, rows) {
  return h("details", { class: "chart-data" }, h("summary", { text: "The figures" }),
    h("div", { class: "table-scroll" },
      h("table", { class: "data-table" },
        h("thead", {}, h("tr", {}, head.map((name, i) => h("th", { scope: "col", class: i ? "num" : null, text: name })))),
        h("tbody", {}, rows))));
}
