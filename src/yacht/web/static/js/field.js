// A duplicate table's field: everyone plays the same dice at once, each on a card of
// their own. The server sends what this page may see (a "field" message on a card's
// socket, /ws/d/ID for a watcher): the others' boxes only up to the turns
// this player has finished (a watcher: up to the slowest player). Drawn here, on a
// card's page under the game and on the group's page /d/ID.

import { h, fill, plural } from "./dom.js";
import { getJSON } from "./api.js";
import { TableSocket } from "./socket.js";
import { shareLink } from "./ui.js";

const WATCH_EVERY_MS = 3000;

/** A card's player: their name, or "Player 2" while their seat (seat 2) is open. */
const nameOf = (c) => c.name || `Player ${c.card + 1}`;

/** The name of card `index` of a field (as the field's table calls it). */
export const cardName = (field, index) => (field && field.cards[index] ? nameOf(field.cards[index]) : `Player ${index + 1}`);

/** "+3.5", "-2", "0": a turn's points against the mean of the others'. */
const signed = (x) => (x > 0 ? `+${Number.parseFloat(x.toFixed(1))}` : `${Number.parseFloat(x.toFixed(1))}`);

/** Where a card is: "on turn 4 of 13", "finished", "open: waiting for someone to take seat 2". */
function where(c, length) {
  if (c.open) return `open: waiting for someone to take seat ${c.card + 1}`;
  if (c.done >= length) return "finished";
  return `on turn ${c.done + 1} of ${length}`;
}

/** The field as a panel: who is on which turn, the totals shown, the end's comparison. */
export function fieldPanel(field, { links = null, onNext = null } = {}) {
  const length = field.length;
  const rows = field.cards.map((c) => h("tr", { class: c.mine ? "mine" : "", data: { card: c.card, done: c.done, shown: c.shown } },
    h("th", { scope: "row" }, nameOf(c), c.kind === "computer" && nameOf(c).toLowerCase() !== c.level ? h("span", { class: "hint-text", text: ` (${c.level})` }) : null,
      c.mine ? h("span", { class: "hint-text", text: " (you)" }) : null),
    h("td", { class: "field-where" }, where(c, length),
      links && links[c.card] ? h("span", {}, " · ", h("a", { href: links[c.card] }, `the link to seat ${c.card + 1}`)) : null),
    h("td", { class: "num" }, c.shown ? `${c.total}` : "–"),
    h("td", { class: "hint-text" }, c.shown ? `after ${plural(c.shown, "turn")}` : "")));
  const upto = field.end ? "Every card is full." : field.me === null
    ? (field.upto ? `Shown: every card up to turn ${field.upto}, the slowest player's.` : "Shown once every player has finished a turn.")
    : (field.upto ? `Shown: every card up to your turn ${field.upto}; the others' later turns come as you finish yours.` : "The others' cards show as you finish your turns.");
  const parts = [
    h("h2", { id: "field-title", text: "The field: every player's card" }),
    h("p", { class: "hint-text", text: upto }),
    h("table", { class: "field-table" },
      h("thead", {}, h("tr", {}, h("th", { text: "Player" }), h("th", { text: "Where" }), h("th", { class: "num", text: "Total" }), h("th", {}))),
      h("tbody", {}, rows)),
  ];
  if (field.end) parts.push(endPart(field));
  if (field.next) parts.push(nextPart(field, onNext));
  if (field.me !== null) {
    const url = `/d/${field.group}`;
    parts.push(h("p", { class: "hint-text" }, "Friends' seats and the field for watchers: ",
      h("a", { href: url, target: "_blank", rel: "noopener" }, `${window.location.origin}${url}`)));
  }
  return h("section", { class: "panel field-panel", id: "field", data: { upto: field.upto, over: Boolean(field.end) }, aria: { labelledby: "field-title" } }, parts);
}

/** A player's invitation to the friends whose seats are still open: each seat's own link
 * (`links`: card -> its address, as the field's watchers are sent them), and the field's
 * page, which lists every open seat. Drawn above the game, while a seat is open. */
export function invitePanel(field, open, links) {
  return h("section", { class: "panel invite-panel", id: "invite", aria: { labelledby: "invite-title" } },
    h("h2", { id: "invite-title", text: open.length === 1 ? "Invite your friend" : "Invite your friends" }),
    h("p", { class: "muted", text: "Everyone plays the same dice at once, so no one waits: send each friend the link of their seat, and play on." }),
    open.map((c) => (links[c.card] ? shareLink({ id: `invite-${c.card}`, path: links[c.card],
      label: `${nameOf(c)} (seat ${c.card + 1}): send ${c.name || "them"} this link` }) : null)),
    h("p", { class: "hint-text" }, "Or send the field's page, which lists every open seat (and lets anyone watch): ",
      h("a", { href: `/d/${field.group}`, target: "_blank", rel: "noopener", id: "invite-field" }, `${window.location.origin}/d/${field.group}`)));
}

/** Someone asked to play again: a new duplicate table (same players, new dice). A player
 * goes to their own card there (this browser holds it), a watcher to its field. */
function nextPart(field, onNext) {
  const go = (e) => {
    if (!onNext) return;
    e.preventDefault();
    onNext(field.next);
  };
  return h("div", { class: "field-next", id: "field-next" },
    h("p", { text: field.me === null
      ? "They play again: a new duplicate table with the same players and new dice."
      : "Play again: a new duplicate table with the same players and new dice is ready, with a card for you." }),
    h("a", { class: "btn btn-primary", id: "field-next-link", href: field.next, onclick: go },
      field.me === null ? "Watch the next game" : "Go to the next game"));
}

/** A duplicate table's games compared, in the analysis of one of them (the same_dice of
 * GET /api/games/ID/analysis): drawn as the end of the field is. */
export function sameDicePart(same) {
  return h("section", { class: "field-panel same-dice", id: "same-dice" }, endPart(same));
}

function endPart(field) {
  const end = field.end;
  const names = new Map(field.cards.map((c) => [c.card, nameOf(c)]));
  const mine = new Set(field.cards.filter((c) => c.mine).map((c) => c.card));
  const winners = end.ranking.filter((p) => p.place === 1).map((p) => p.name);
  const lines = [
    h("h3", { text: "On the same dice" }),
    h("ol", { class: "field-ranking" }, end.ranking.map((p) => h("li", { class: mine.has(p.card) ? "mine" : "" },
      `${p.place}. ${p.name}: ${p.total}`, mine.has(p.card) ? h("span", { class: "hint-text", text: " ← this game" }) : null))),
  ];
  if (end.expert !== null) {
    lines.push(h("p", { class: "field-expert" }, `The expert's own game on these dice: ${end.expert}`,
      winners.length ? ` (best here: ${winners.join(", ")}, ${end.ranking[0].total})` : ""));
  }
  // each turn: the points against the mean of the others', and who did best
  const head = h("tr", {}, h("th", { text: "Turn" }), field.cards.filter((c) => !c.open).map((c) => h("th", { class: "num", text: nameOf(c) })), h("th", { text: "Best" }));
  const body = [];
  for (let k = 0; k < field.length; k += 1) {
    body.push(h("tr", {}, h("th", { scope: "row", text: `${k + 1}` }),
      field.cards.filter((c) => !c.open).map((c) => {
        const t = c.turns[k];
        const vs = end.against[c.card][k];
        return h("td", { class: `num${end.best[k].includes(c.card) ? " best" : ""}`, title: t ? t.category : "" },
          t ? `${t.points} ` : "", h("span", { class: "hint-text", text: vs === undefined ? "" : `(${signed(vs)})` }));
      }),
      h("td", { text: end.best[k].map((i) => names.get(i)).join(", ") })));
  }
  lines.push(h("details", { class: "field-turns" },
    h("summary", { text: "Each turn against the field (the mean of the others)" }),
    h("div", { class: "table-scroll" }, h("table", { class: "field-table" }, h("thead", {}, head), h("tbody", {}, body)))));
  return h("div", { class: "field-end" }, lines);
}

/** The group's page, /d/ID: the field as a watcher sees it, pushed by the server over
 * the group's socket (/ws/d/ID) as the cards are played; looked at again every few
 * seconds only while that socket is down. */
export class GroupView {
  constructor(id, navigate) {
    this.id = id;
    this.navigate = navigate;
    this.el = h("div", { class: "group-page", data: { feed: "none" } });
    this.timer = null;
    this.live = false; // the socket is open: the server pushes the field
    this.over = false;
    this.socket = null;
  }

  mount(app) {
    document.title = "Yacht: same dice for everyone";
    this.body = h("div", { class: "table-body" });
    fill(this.el,
      h("header", { class: "table-bar" },
        h("a", { href: "/", class: "btn btn-bar home-link", onclick: (e) => { e.preventDefault(); this.navigate("/"); } }, "← Home"),
        h("h1", { class: "bar-title", text: "Same dice for everyone" })),
      this.body);
    app.append(this.el);
    this.look();
    this.socket = new TableSocket(this.id, null, {
      path: `/ws/d/${encodeURIComponent(this.id)}`,
      first: "field",
      onmessage: (msg) => { if (msg.type === "field") this.draw(msg); },
      onstatus: (status) => this.connection(status),
      onfatal: (message) => this.fatal(message),
    });
  }

  /** The socket's state: open, the server pushes; down, the page looks again itself. */
  connection(status) {
    this.live = status === "open";
    this.el.dataset.feed = this.live ? "socket" : "polling";
    if (this.live && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    } else if (!this.live && !this.timer && !this.over) {
      this.timer = setTimeout(() => this.look(), WATCH_EVERY_MS);
    }
  }

  fatal(message) {
    fill(this.body, h("section", { class: "panel notice" }, h("h2", { text: "No such table" }), h("p", { text: message })));
  }

  async look() {
    this.timer = null;
    let field;
    try {
      field = await getJSON(`/api/groups/${this.id}`);
    } catch (e) {
      this.fatal(e.message);
      return;
    }
    if (!this.el.isConnected) return;
    this.draw(field);
    if (!field.end && !this.live && !this.timer) this.timer = setTimeout(() => this.look(), WATCH_EVERY_MS);
  }

  draw(field) {
    // (an answer older than what is shown is left: the field only grows)
    if (this.shown && (field.upto < this.shown.upto || (this.shown.end && !field.end))) return;
    this.shown = field;
    this.over = Boolean(field.end);
    const links = Object.fromEntries(field.cards.filter((c) => c.url).map((c) => [c.card, c.url]));
    const panel = fieldPanel(field, { links, onNext: (url) => this.navigate(url) });
    panel.querySelector("h2").after(h("p", { text: `${field.name}: every player rolls the same dice, from a seed committed to at the start (SHA-256 ${field.commitment.slice(0, 16)}…).` }));
    fill(this.body, panel);
  }

  unmount() {
    if (this.timer) clearTimeout(this.timer);
    if (this.socket) this.socket.close();
    this.el.remove();
  }
}
