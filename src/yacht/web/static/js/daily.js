// The daily challenge (GET/POST /api/daily, PROTOCOL.md): the home page's box - today's
// standings, yesterday's result, a button to play today's game - and a daily game's
// result at its end: the place, the expert's total on the same dice, a line to share.

import { h, fill, nameField } from "./dom.js";
import { getJSON, postJSON, query } from "./api.js";
import { dailyTable, lastName, setDailyTable, setLastName, setToken, tokenFor } from "./prefs.js";
import { toast } from "./ui.js";

/** The day before ``day`` (YYYY-MM-DD, UTC). */
function dayBefore(day) {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

function ordinal(n) {
  const t = n % 100, o = n % 10;
  return `${n}${t >= 11 && t <= 13 ? "th" : o === 1 ? "st" : o === 2 ? "nd" : o === 3 ? "rd" : "th"}`;
}

/** A day's standings as a list (``mine``: a game id to mark). */
function standingsList(st, mine = "") {
  if (!st.standings.length) return h("p", { class: "muted", text: "No finished game yet: be the first." });
  return h("ul", { class: "daily-standings" }, st.standings.map((e) =>
    h("li", { class: e.game_id === mine ? "is-mine" : "" },
      h("span", { class: "daily-place", text: e.place ? `${e.place}.` : "–" }),
      h("span", { class: "daily-name", text: e.name }),
      h("span", { class: "daily-score", text: String(e.score) }),
      // (every line has both marks' places, empty or not: the scores stand in one column)
      h("span", { class: "muted small", text: e.place ? "" : " practice" }),
      h("span", { class: "muted small", text: e.assisted ? " assisted" : "" }))));
}

// (its own game on those dice, beside a score's comment on the expert's average: two numbers)
const expertLine = (st, when) => st.expert === null ? "" : `The expert's own game on ${when} dice: ${st.expert}.`;

/** The home page's box: play today's challenge of a variant, and how the day goes. */
export class DailyBox {
  constructor(variants, navigate, variant) {
    this.variants = variants;
    this.navigate = navigate;
    this.variant = variants.some((v) => v.id === variant) ? variant : "yahtzee";
    this.el = h("section", { class: "panel panel-daily", aria: { labelledby: "h-daily" } });
  }

  draw() {
    const select = h("select", { id: "daily-variant", onchange: () => { this.variant = select.value; this.load(); } },
      this.variants.map((v) => h("option", { value: v.id, selected: v.id === this.variant }, v.name)));
    const name = nameField({ id: "daily-name", autocomplete: "nickname", value: lastName() || "",
      oninput: () => this.markName(name, null) });
    const play = h("button", { type: "submit", class: "btn btn-primary", id: "daily-play" }, "Play today's challenge");
    const form = h("form", { class: "daily-form", onsubmit: (e) => { e.preventDefault(); this.play(name, play); } },
      h("div", { class: "field" }, h("label", { for: "daily-variant", text: "Variant" }), select),
      h("div", { class: "field" }, h("label", { for: "daily-name", text: "Your name" }), name),
      play);
    this.today = h("div", { class: "daily-today", aria: { live: "polite" } });
    this.before = h("div", { class: "daily-yesterday" });
    fill(this.el, h("h2", { id: "h-daily", text: "Today's challenge" }),
      h("p", { class: "muted", text: "The same dice for everyone today (UTC): the first game a name starts today is its ranked one (counted once it is finished), later ones are practice. The dice come from a seed kept secret until the day is over." }),
      form, this.today, this.before);
    this.load();
    return this.el;
  }

  async load() {
    const variant = this.variant;
    fill(this.today, h("p", { class: "muted", text: "Looking…" }));
    fill(this.before);
    let st;
    try {
      st = await getJSON(`/api/daily?${query({ variant })}`);
    } catch (e) {
      fill(this.today, h("p", { class: "muted", text: e.message }));
      return;
    }
    if (variant !== this.variant) return; // (another variant was chosen meanwhile)
    fill(this.today, h("h3", { text: `Today, ${st.date}` }),
      h("p", { class: "muted small", text: `${expertLine(st, "today's")} Commitment ${st.commitment.slice(0, 16)}…` }),
      standingsList(st));
    if (!st.first || dayBefore(st.date) < st.first) { // (before the first challenge here: not asked)
      fill(this.before, h("h3", { text: `Yesterday, ${dayBefore(st.date)}` }),
        h("p", { class: "muted small", text: "No one played it here." }));
      return;
    }
    try {
      const past = await getJSON(`/api/daily?${query({ variant, date: dayBefore(st.date) })}`);
      if (variant !== this.variant) return;
      const best = past.standings.find((e) => e.place === 1);
      fill(this.before, h("h3", { text: `Yesterday, ${past.date}` }),
        h("p", { class: "muted small", text: best
          ? `${best.name} won with ${best.score}. ${expertLine(past, "those")}`
          : `No one played it. ${expertLine(past, "its")}` }),
        past.seed ? h("p", { class: "muted small daily-seed", text: `Its seed, revealed: ${past.seed}` }) : null);
    } catch (e) {
      if (variant !== this.variant) return;
      // (a day no one played here, or before the first challenge here: nothing was
      // made for it, and nothing is made after the fact)
      if (e.code === "not_found" || e.code === "bad_request") {
        fill(this.before, h("h3", { text: `Yesterday, ${dayBefore(st.date)}` }),
          h("p", { class: "muted small", text: "No one played it here." }));
      } else {
        fill(this.before);
      }
    }
  }

  async play(nameInput, button) {
    const name = nameInput.value.trim();
    if (!name) {
      this.markName(nameInput, "Give your name for the standings: 1-20 characters.");
      return;
    }
    button.disabled = true;
    // this browser's newest daily table of the variant: the name's game under way there
    // is answered instead of a new one (a name plays one game of the day at a time)
    const tables = {};
    const last = dailyTable(this.variant);
    if (last && tokenFor(last)) tables[last] = tokenFor(last);
    try {
      const made = await postJSON("/api/daily", { variant: this.variant, name, tables });
      setLastName(name);
      setToken(made.id, made.token);
      setDailyTable(this.variant, made.id);
      this.navigate(made.url);
      // (after the page changes: a new page starts without the last one's message)
      if (made.resumed) toast(`Going on with ${name}'s game of today`, "info");
      else if (!made.ranked) toast(`Practice: ${name}'s first game of today is the ranked one`, "info");
    } catch (e) {
      if (/\bname\b/.test(e.message)) this.markName(nameInput, e.message);
      else toast(e.message);
      button.disabled = false;
    }
  }

  /** Say under the name field what is wrong with the name in it, and go there to put
   * it right (null: the field is fine again). */
  markName(input, message) {
    const old = document.getElementById("daily-name-error");
    if (old) old.remove();
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    if (!message) return;
    input.after(h("p", { class: "field-error", id: "daily-name-error", text: message }));
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "daily-name-error");
    input.focus();
    input.select();
  }
}

/** A daily game's result at its end: the place, the expert's total on the same dice and a
 * line to copy (filled in from GET /api/daily once the game is finished). */
export function dailyResult(snap) {
  if (!snap.daily || !snap.finished || !snap.game_id) return null;
  const box = h("div", { class: "end-daily", aria: { live: "polite" } },
    h("h3", { text: `Daily challenge, ${snap.daily}` }), h("p", { class: "muted", text: "Looking up the standings…" }));
  (async () => {
    let st;
    try {
      st = await getJSON(`/api/daily?${query({ variant: snap.ruleset.id, date: snap.daily, game: snap.game_id })}`);
    } catch (e) {
      fill(box, h("h3", { text: `Daily challenge, ${snap.daily}` }), h("p", { class: "muted", text: e.message }));
      return;
    }
    const mine = st.mine;
    const ranked = st.standings.filter((e) => e.place).length;
    const said = mine === null ? "Your game is not in the standings yet."
      : mine.place ? `Your place: ${ordinal(mine.place)} of ${ranked}.` : "A practice game: the first game you started today is the one ranked.";
    const share = mine ? h("input", { type: "text", readonly: true, class: "daily-share", id: "daily-share", value: mine.share, aria: { label: "Your result, to copy" } }) : null;
    const copy = share ? h("button", { type: "button", class: "btn btn-small", onclick: async () => {
      share.select();
      try {
        await navigator.clipboard.writeText(share.value);
        toast("Copied", "info", 2);
      } catch {
        toast("Select the line and copy it", "info", 3);
      }
    } }, "Copy") : null;
    fill(box, h("h3", { text: `Daily challenge, ${st.date}` }),
      h("p", { text: `${said} ${expertLine(st, "these")}` }),
      share ? h("div", { class: "daily-share-row" }, share, " ", copy) : null,
      standingsList(st, snap.game_id));
  })();
  return box;
}
