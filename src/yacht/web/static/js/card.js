// Every player's score card side by side, drawn from the snapshot's rows and cells;
// the player on turn's open boxes show what they would score (snapshot.previews), and
// when it is this browser's turn those are buttons that score.

import { h, fill, setAttr, setText } from "./dom.js";

/** A label's text with a place to break after each "/" (a tiered bonus's "≥63/71/78"
 * goes on over two lines in a narrow card rather than past its column). */
function breakable(label) {
  return label.split("/").flatMap((part, i, all) => (i < all.length - 1 ? [`${part}/`, h("wbr")] : [part]));
}

export class ScoreCards {
  /** `onScore(category, column)` is called when a box is clicked. */
  constructor(onScore) {
    this.onScore = onScore;
    // (a group, not a region: the panel around it is the landmark "Score cards")
    this.el = h("div", { class: "cards-scroll", role: "group", aria: { label: "Score table" } });
    this.shape = "";
    this.cells = new Map(); // "row|player|column" -> {td, state}
    this.bonus = null; // {threshold} from the rules, for the progress bar
    this.el.addEventListener("keydown", (e) => this.arrows(e));
    this.onResize = () => this.fit();
    window.addEventListener("resize", this.onResize);
  }

  setBonus(bonus) {
    this.bonus = bonus && bonus.threshold > 0 ? bonus : null;
    this.shape = ""; // drawn again with the bars
  }

  /** Draw `snap`; `live`: previews and buttons (false at the game's end). */
  render(snap, live = true) {
    const ncol = snap.ruleset.columns.length;
    const names = snap.players.map((p) => p.name);
    const shape = JSON.stringify([snap.ruleset.key, names, snap.rows.map((r) => r.id), ncol, Boolean(this.bonus)]);
    if (shape !== this.shape) {
      this.build(snap, ncol);
      this.shape = shape;
      window.requestAnimationFrame(() => this.fit());
    }
    const places = new Map();
    if (live && !snap.over) for (const p of snap.previews) places.set(`${p.category}|${p.column}`, p);
    const scoring = live && snap.can.score;
    snap.players.forEach((player, i) => {
      const head = this.heads[i];
      const current = live && !snap.over && i === snap.current;
      head.classList.toggle("is-current", current);
      setText(head.querySelector(".turn-mark"), current ? "▶ " : "");
      setText(head.querySelector(".sr-turn"), current ? " (on turn)" : "");
      setText(head.querySelector(".player-total"), String(player.total));
      this.el.querySelectorAll(`[data-player="${i}"]`).forEach((td) => td.classList.toggle("is-current", current));
    });
    for (const row of snap.rows) {
      snap.cards.forEach((card, i) => {
        for (let c = 0; c < ncol; c += 1) {
          const cell = this.cells.get(`${row.id}|${i}|${c}`);
          if (!cell) continue;
          const value = (card.cells[row.id] || [])[c] ?? "";
          if (row.kind === "total") {
            this.total(cell, row, value, card, c);
            continue;
          }
          const pl = i === snap.current ? places.get(`${row.category}|${c}`) : undefined;
          let want;
          if (pl && (!value || pl.repeat)) {
            const text = value ? `${value}+${pl.text}` : pl.text;
            const where = ncol > 1 ? ` in column ${c + 1}` : "";
            want = scoring && player(snap, i).mine
              ? { kind: "button", text, label: `Score ${row.label}${where} for ${pl.total}${pl.repeat ? " more" : ""}` }
              : { kind: "preview", text, label: `${row.label}${where}: would score ${pl.total}` };
          } else if (value) {
            want = { kind: "text", text: value };
          } else {
            want = { kind: "empty", text: "" };
          }
          this.box(cell, want, row, c);
          this.playedBy(cell, card, row, c);
        }
      });
    }
  }

  /** A box the computer scored for its player (their clock ran out, or they were away). */
  playedBy(cell, card, row, c) {
    const by = (card.played_by || []).find((p) => p.category === row.category && p.column === c);
    const why = by ? (by.by === "clock" ? "played by the clock" : "played by the computer while away") : "";
    cell.td.classList.toggle("by-computer", Boolean(by));
    if (by) cell.td.title = why;
    else cell.td.removeAttribute("title");
  }

  build(snap, ncol) {
    this.cells.clear();
    const two = ncol > 1;
    const headRow = h("tr", {},
      h("th", { scope: "col", class: "col-key" }, h("span", { class: "sr-only", text: "Key" })),
      h("th", { scope: "col", class: "col-label", text: "Box" }));
    this.heads = snap.players.map((p, i) => {
      const th = h("th", { scope: two ? "colgroup" : "col", colspan: two ? ncol : null, class: "player-head", data: { player: i } },
        h("span", { class: "head-who" }, // (the mark stays on the name's line)
          h("span", { class: "turn-mark", "aria-hidden": "true" }),
          h("span", { class: "player-name", text: p.name })),
        h("span", { class: "sr-turn sr-only" }),
        p.kind === "computer" ? h("span", { class: "player-kind", text: p.level || "computer" }) : null,
        p.mine ? h("span", { class: "player-kind you", text: "you" }) : null,
        h("span", { class: "player-total", aria: { label: "total" } }));
      return th;
    });
    headRow.append(...this.heads);
    const thead = h("thead", {}, headRow);
    if (two) {
      const sub = h("tr", { class: "col-sub" }, h("td", { class: "col-key" }), h("td", { class: "col-label" }));
      snap.players.forEach((p, i) => {
        snap.ruleset.columns.forEach((mult, c) => {
          sub.append(h("th", { scope: "col", data: { player: i }, class: "col-num" },
            `${c + 1}`, mult !== 1 ? h("span", { class: "mult", text: `×${mult}` }) : null));
        });
      });
      thead.append(sub);
    }
    const tbody = h("tbody");
    let section = null;
    for (const row of snap.rows) {
      const sectionStart = row.kind === "box" && row.section !== section;
      if (row.kind === "box") section = row.section;
      const tr = h("tr", {
        class: ["row", `row-${row.kind}`, `row-id-${row.id}`, sectionStart ? "section-start" : ""],
        data: { row: row.id },
      },
      h("td", { class: "key" }, row.letter ? h("kbd", { title: two ? `${row.letter} / Shift+${row.letter.toUpperCase()}` : row.letter, text: row.letter }) : null),
      h("th", { scope: "row", class: "label" }, ...breakable(row.label)));
      snap.players.forEach((p, i) => {
        for (let c = 0; c < ncol; c += 1) {
          const td = h("td", { class: ["cell", c === ncol - 1 ? "last-col" : ""], data: { player: i, col: c } });
          tr.append(td);
          this.cells.set(`${row.id}|${i}|${c}`, { td, state: "" });
        }
      });
      tbody.append(tr);
    }
    fill(this.el, h("table", { class: ["scorecard", two ? "two-columns" : ""] },
      h("caption", { class: "sr-only", text: "Score cards" }), thead, tbody));
  }

  total(cell, row, value, card, c) {
    const bar = this.bonus && row.id === "upper_total";
    const key = JSON.stringify([value, bar ? (card.cells.upper_bonus || [])[c] : null]);
    if (cell.state === key) return;
    cell.state = key;
    if (!bar) {
      fill(cell.td, value);
      return;
    }
    const total = Number.parseInt(value, 10) || 0;
    const won = Number.parseInt((card.cells.upper_bonus || [])[c], 10) > 0;
    const share = won ? 1 : Math.min(1, total / this.bonus.threshold);
    const fillEl = h("span", { class: "bonus-fill" });
    fillEl.style.setProperty("--share", share.toFixed(3));
    fill(cell.td, h("span", { text: value }),
      h("span", { class: ["bonus-bar", won ? "won" : ""], "aria-hidden": "true", title: `${total} of ${this.bonus.threshold} for the bonus` }, fillEl),
      h("span", { class: "sr-only", text: won ? " (bonus won)" : ` (${total} of ${this.bonus.threshold} for the bonus)` }));
  }

  box(cell, want, row, c) {
    const key = JSON.stringify(want);
    if (cell.state === key) return;
    const old = cell.state ? JSON.parse(cell.state) : null;
    cell.state = key;
    cell.td.classList.toggle("has-preview", want.kind === "button" || want.kind === "preview");
    if (want.kind === "button" && old && old.kind === "button") {
      const btn = cell.td.firstElementChild; // kept: it may have the focus
      setText(btn, want.text);
      setAttr(btn, "aria-label", want.label);
      return;
    }
    if (want.kind === "button") {
      fill(cell.td, h("button", {
        type: "button", class: "score-btn", aria: { label: want.label },
        data: { category: row.category, column: c, letter: row.letter || "" },
        onclick: () => this.onScore(row.category, c),
      }, want.text));
    } else if (want.kind === "preview") {
      fill(cell.td, h("span", { class: "preview", title: want.label }, want.text));
    } else if (want.kind === "text") {
      fill(cell.td, want.text);
    } else {
      fill(cell.td, h("span", { class: "open-box", "aria-hidden": "true" }, "·"));
    }
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
  }

  /** A frame that scrolls sideways can be scrolled from the keyboard too (a tab stop). */
  fit() {
    const scrolls = this.el.scrollWidth > this.el.clientWidth + 1;
    setAttr(this.el, "tabindex", scrolls ? "0" : null);
  }

  /** Arrow keys move between the boxes that can be scored. */
  arrows(e) {
    if (!e.target.classList || !e.target.classList.contains("score-btn")) return;
    if (!["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"].includes(e.key)) return;
    const buttons = [...this.el.querySelectorAll(".score-btn")];
    const me = e.target;
    const col = me.dataset.column;
    let list = buttons;
    if (e.key === "ArrowUp" || e.key === "ArrowDown") list = buttons.filter((b) => b.dataset.column === col);
    const i = list.indexOf(me);
    const step = e.key === "ArrowUp" || e.key === "ArrowLeft" ? -1 : 1;
    let next = list[(i + step + list.length) % list.length];
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      // the same box in the other column, or the next box
      const row = me.closest("tr");
      const same = [...row.querySelectorAll(".score-btn")].filter((b) => b !== me);
      next = same[0] || next;
    }
    if (next) {
      e.preventDefault();
      next.focus();
    }
  }
}

function player(snap, i) {
  return snap.players[i];
}
