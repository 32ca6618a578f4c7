// Reactions (PROTOCOL.md): a fixed few, sent to everyone at the table and shown a
// moment beside the sender's name (a watcher's beside "At the table"). Never text.
// The server keeps the limits (3 a seat, or a watcher's address, in 10 s; 6 for all the
// watchers together); the bar waits out its own, so a player sees why a button does
// nothing instead of being told off.

import { h, listText, reducedMotion } from "./dom.js";
import { announce, toast } from "./ui.js";

/** Every reaction: its name on the wire, how it is drawn, and its words. */
export const REACTIONS = [
  ["clap", "👏", "applause"],
  ["wow", "😮", "wow"],
  ["laugh", "😂", "laughter"],
  ["dice", "🎲", "dice"],
  ["luck", "🍀", "good luck"],
  ["sad", "😢", "sadness"],
];
const BY_NAME = new Map(REACTIONS.map(([name, emoji, words]) => [name, { emoji, words }]));

/** How long a reaction stays beside the name (ms), and the browser's own limit. */
const SHOWN_MS = 4000;
const PER_WINDOW = 3;
const WINDOW_MS = 10000;

/** The row of reaction buttons; `send(name)` resolves with the server's answer. */
export class ReactionBar {
  constructor(send) {
    this.send = send;
    this.sent = []; // when this browser's last reactions were sent (ms)
    this.timer = 0;
    this.buttons = REACTIONS.map(([name, emoji, words]) =>
      h("button", { type: "button", class: "reaction-btn", data: { reaction: name }, title: words,
        aria: { label: `React: ${words}` }, onclick: () => this.react(name) }, emoji));
    this.el = h("div", { class: "reaction-bar", role: "group", aria: { label: "Reactions" }, hidden: true }, this.buttons);
  }

  /** Shown while the table takes reactions (a table setting). */
  show(on) {
    this.el.hidden = !on;
  }

  async react(name) {
    const now = Date.now();
    this.sent = this.sent.filter((t) => now - t < WINDOW_MS);
    if (this.sent.length >= PER_WINDOW) {
      this.wait();
      return;
    }
    this.sent.push(now);
    const reply = await this.send(name);
    if (reply.type === "error") toast(reply.message, "info", 3);
    if (this.sent.length >= PER_WINDOW) this.wait();
  }

  /** Past the limit: the buttons rest until the oldest reaction is out of the window. */
  wait() {
    const left = WINDOW_MS - (Date.now() - this.sent[0]);
    for (const b of this.buttons) b.disabled = true;
    this.el.dataset.resting = "true";
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      for (const b of this.buttons) b.disabled = false;
      delete this.el.dataset.resting;
    }, Math.max(0, left));
  }

  destroy() {
    window.clearTimeout(this.timer);
  }
}

/** Someone's reaction (a `reaction` message): beside each of their names (the corner of
 * their column's head) on the score cards in `root`, or, a watcher's, in `watchers` (the "At the table" box); said to a
 * screen reader once. */
export function showReaction(msg, root, watchers) {
  const known = BY_NAME.get(msg.reaction);
  if (!known) return;
  const seats = Array.isArray(msg.seats) ? msg.seats : [];
  const names = Array.isArray(msg.names) ? msg.names : [];
  const places = seats.map((i) => root.querySelector(`.player-head[data-player="${Number(i)}"]`)).filter(Boolean);
  if (!places.length && watchers) places.push(watchers);
  for (const place of places) {
    const who = seats.length ? null : h("span", { class: "reaction-who", text: "a watcher" });
    const pop = h("span", { class: ["reaction-pop", reducedMotion() ? "still" : ""], "aria-hidden": "true", data: { reaction: msg.reaction } }, who, known.emoji);
    place.querySelectorAll(":scope > .reaction-pop").forEach((old) => old.remove());
    place.append(pop);
    window.setTimeout(() => pop.remove(), SHOWN_MS);
  }
  announce(`${names.length ? listText(names) : "A watcher"}: ${known.words}.`);
}
