// A table that keeps going: the turn clock counting down, who is at the table (and the
// vote to hand an absent player's seat to the computer), the series of games played at
// this link and the next one. Drawn from the server's state: the page decides nothing.

import { h, fill, listText, possessive, setText } from "./dom.js";

/** "1:05", "0:09" */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The turn clock: counts down locally to the snapshot's deadline (from `left`, the time
 * left when the state was made: no need for this computer's clock to agree with the
 * server's), every quarter of a second. */
export class TurnClock {
  constructor() {
    this.el = h("div", { class: "turn-clock", id: "turn-clock", role: "timer", aria: { live: "off" }, hidden: true });
    this.face = h("span", { class: "clock-face" });
    this.label = h("span", { class: "clock-label" });
    this.banks = h("span", { class: "clock-banks muted" });
    this.el.append(h("span", { class: "clock-icon", "aria-hidden": "true", text: "⏱" }), this.label, this.face, this.banks);
    this.timer = null;
    this.endsAt = null;
    this.said = null;
  }

  update(snap, announce) {
    const c = snap.clock;
    this.el.hidden = !c || snap.over;
    this.announce = announce;
    if (!c || snap.over) return this.stop();
    const who = c.player === null ? null : snap.players[c.player];
    this.mine = Boolean(who && who.mine);
    this.endsAt = c.left === null ? null : performance.now() + c.left;
    this.out = c.out;
    setText(this.label, who ? (this.mine ? "Your time" : `${possessive(who.name, true)} time`) : c.text);
    this.el.title = `Turn clock: ${c.text}`;
    setText(this.banks, c.banks ? `bank ${snap.players.map((p, i) => `${p.name} ${clockText(c.banks[i])}`).join(" · ")}` : "");
    this.tick();
    if (this.endsAt !== null && !this.timer) this.timer = window.setInterval(() => this.tick(), 250);
    if (this.endsAt === null) this.stop(false);
  }

  tick() {
    if (this.endsAt === null) {
      setText(this.face, "");
      return;
    }
    const left = this.endsAt - performance.now();
    const up = this.out || left <= 0;
    setText(this.face, up ? "time is up" : clockText(left));
    this.el.classList.toggle("is-short", !up && left < 10000);
    this.el.classList.toggle("is-up", up);
    // a screen reader hears the last ten seconds of its own turn once, and the end (a
    // turn shorter than that hears the seconds it has: not "Ten seconds left" for five)
    const said = up ? "up" : left < 10000 ? "ten" : null;
    if (this.mine && said && said !== this.said && this.announce) {
      const secs = Math.ceil(left / 1000);
      this.announce(up ? "Your time is up: the computer plays your turn."
        : secs >= 10 ? "Ten seconds left." : `${secs} ${secs === 1 ? "second" : "seconds"} left.`);
    }
    this.said = said;
  }

  stop(hide = true) {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
    if (hide) this.endsAt = null;
  }
}

/** The series at this link: "Series after 2 games: Ann 1 · Bob 1". */
export function seriesLine(series, names) {
  if (!series || !series.games) return null;
  const wins = names.map((n, i) => `${n} ${series.wins[i] || 0}`).join(" · ");
  return h("p", { class: "series-line", id: "series-line", text: `Series after ${series.games} ${series.games === 1 ? "game" : "games"}: ${wins}` });
}

/** Each seat of a game: here or gone (for how long), away (the computer plays for them),
 * and for the others the vote to hand an absent seat to the computer. `vote(seat, on)`
 * sends it. The page's own count of time since the state says when a vote opens. */
export function seatsList(view, snap, vote, received) {
  const since = (performance.now() - received) / 1000;
  const items = snap.players.map((p, i) => {
    const s = view.seats[i];
    if (!s || p.kind === "computer") {
      return h("li", { class: "seat-line" }, h("span", { class: "seat-name", text: p.name }), h("span", { class: "muted", text: " computer" }));
    }
    const gone = s.absent === null ? null : s.absent + since;
    const state = s.away ? "the computer plays for them" : s.connected ? "here" : `gone ${clockText(gone * 1000)}`;
    const open = !p.mine && !snap.over && (s.can_vote || (s.absent !== null && gone >= view.absent_after && !snap.clock && view.may_vote));
    const button = open && !s.away ? h("button", {
      type: "button", class: "btn btn-small btn-felt", data: { seat: i },
      onclick: () => vote(i, !s.voted),
    }, s.voted ? `Take back my vote (${s.votes}/${s.needed})` : (view.host ? "Hand to the computer" : `Vote: the computer plays (${s.votes}/${s.needed})`)) : null;
    return h("li", { class: ["seat-line", s.away ? "is-away" : ""], data: { seat: i } },
      h("span", { class: ["presence-dot", s.connected ? "on" : ""], "aria-hidden": "true" }),
      h("span", { class: "seat-name", text: p.name }), p.mine ? h("span", { class: "player-kind you", text: "you" }) : null,
      h("span", { class: "seat-state muted", text: ` ${state}` }), button);
  });
  return h("ul", { class: "seat-lines", aria: { label: "Who is at the table" } }, items);
}

/** The lobby of the table's next game (after "Play again"): who accepted, who has not
 * answered; this browser's people accept or leave. */
export function againLobby(t, act) {
  const mine = t.seats.filter((s) => s.mine);
  const asked = (s) => s.kind === "person" && !s.open && !s.ready;
  const waiting = t.seats.filter((s) => asked(s) && !s.mine).map((s) => s.name);
  const answered = mine.length && mine.every((s) => s.ready);
  return h("div", { class: "again-box" },
    h("p", { id: "again-line", text: againLine(mine.filter(asked).map((s) => s.name), waiting, mine.length) }),
    mine.length ? h("div", { class: "inline again-actions" },
      answered ? null : h("button", { type: "button", class: "btn btn-primary btn-big", id: "accept-again", onclick: () => act("again") }, "Play again"),
      h("button", { type: "button", class: "btn btn-big", id: "leave-table", onclick: () => act("leave") }, "Leave"),
      answered && waiting.length && t.can_start ? h("button", { type: "button", class: "btn btn-big", id: "start-now",
        onclick: () => act("start") }, "Start without them") : null) : null);
}

/** That lobby's line: it speaks to this browser's people who have not answered yet (never
 * "Waiting for Felix" on Felix's own page), then names the others still asked. */
function againLine(mineAsked, othersAsked, mineCount) {
  const others = othersAsked.length ? `Waiting for ${listText(othersAsked)} to accept or leave.` : "";
  if (mineAsked.length) {
    const you = mineCount > 1 ? `${listText(mineAsked)}: accept` : "Accept";
    return `${you} to join the next game, or leave the table.${others ? ` ${others}` : ""}`;
  }
  return others || "Everyone is ready: starting…";
}

/** A seat's line in that lobby: ready, or asked. */
export function readyMark(seat) {
  if (seat.kind !== "person" || seat.open) return null;
  return h("span", { class: ["ready-mark", seat.ready ? "is-ready" : ""], text: seat.ready ? "ready" : "asked" });
}

/** Fill `box` with the seats and the series of a game. */
export function drawSeats(box, view, snap, vote, received) {
  fill(box, seatsList(view, snap, vote, received), seriesLine(view.series, snap.players.map((p) => p.name)));
}
