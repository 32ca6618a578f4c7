// Home: a new game (remembered), unfinished games, tables to join or watch, the top
// tens, statistics and every variant's rules.

import { h, fill, nameField, plural } from "./dom.js";
import { getJSON, postJSON, query, rules, variants } from "./api.js";
import { DICE_MARKS, SPEEDS, aClick, computerPause, diceMark, loadSetup, markLabel, markWords, saveSetup, setComputerPause, setDiceMark, setToken, setLastName, lastName, myTables, tokenFor } from "./prefs.js";
import { rulesDialog, toast } from "./ui.js";
import { DailyBox } from "./daily.js";

const KINDS = [
  ["here", "A person, here"],
  ["friend", "A friend (open seat)"],
  ["beginner", "Computer: beginner"],
  ["intermediate", "Computer: intermediate"],
  ["expert", "Computer: expert"],
  ["champion", "Computer: champion"],
];
const MAX_PLAYERS = 8;

/** A closed menu shows this many characters on a phone's narrow form, and no more. */
const MENU_WORDS = 32;

/** A value of a variant's option in a player's words: its own (`help`: "100 at 84 or
 * more", not "100@84"), a number with them ("3 (hard)"); its name without them. */
const valueWords = (value, help) => {
  if (!help) return String(value).replace(/_/g, " ");
  return /^\d+$/.test(value) ? `${value} (${help})` : help;
};

/** A variant option's values as a player reads them in its menu: their words when every
 * value's words fit the closed menu, else the values' own short names ("forced", "ace
 * high"), whose words the line under the menu then says for the value chosen (`explain`). */
function optionWords(opt) {
  const plain = opt.values.map((v) => valueWords(v, ""));
  const words = opt.values.map((v, i) => valueWords(v, opt.value_help[i]));
  const fit = words.every((w) => w.length <= MENU_WORDS);
  return {
    labels: fit ? words : plain,
    explain: (value) => {
      const i = opt.values.indexOf(value);
      return fit || i < 0 || !opt.value_help[i] ? opt.help
        : `${opt.help} ${plain[i][0].toUpperCase()}${plain[i].slice(1)}: ${opt.value_help[i]}.`;
    },
  };
}

/** A table's options in a line of words ("bonus: 50 at 75 or more; saved rolls: ..."):
 * `variant` is the variant's entry of GET /api/variants (null: not known yet, the values'
 * names then). */
export function optionsText(variant, values) {
  return Object.entries(values || {}).map(([key, value]) => {
    const opt = variant && variant.options[key];
    const i = opt ? opt.values.indexOf(value) : -1;
    return `${key.replace(/_/g, " ")}: ${valueWords(value, i >= 0 ? opt.value_help[i] : "")}`;
  }).join("; ");
}

/** The turn clocks the form offers (the API takes any 5-600 seconds, or 1-60 minutes). */
const CLOCKS = [
  ["none", "No clock", { kind: "none" }],
  ["30", "30 s a turn", { kind: "turn", seconds: 30 }],
  ["60", "1 min a turn", { kind: "turn", seconds: 60 }],
  ["120", "2 min a turn", { kind: "turn", seconds: 120 }],
  ["bank5", "5 min each + 10 s a turn", { kind: "bank", minutes: 5, seconds: 10 }],
  ["bank15", "15 min each + 20 s a turn", { kind: "bank", minutes: 15, seconds: 20 }],
];

function defaultSetup() {
  return {
    variant: "yahtzee",
    options: {},
    players: [{ kind: "here", name: lastName() || "You" }, { kind: "intermediate", name: "Computer" }],
    demo: false,
    speed: "normal",
    reactions: true,
    clock: "none",
  };
}

function cleanSetup(raw, known) {
  const base = defaultSetup();
  if (!raw) return base;
  const setup = { ...base };
  if (typeof raw.variant === "string" && known.has(raw.variant)) setup.variant = raw.variant;
  if (raw.options && typeof raw.options === "object") setup.options = raw.options;
  if (Array.isArray(raw.players) && raw.players.length >= 1) {
    setup.players = raw.players.slice(0, MAX_PLAYERS)
      .filter((p) => p && KINDS.some(([k]) => k === p.kind))
      .map((p) => ({ kind: p.kind, name: typeof p.name === "string" ? p.name.slice(0, 20) : "" }));
    if (!setup.players.length) setup.players = base.players;
  }
  setup.demo = raw.demo === true;
  if (SPEEDS.includes(raw.speed)) setup.speed = raw.speed;
  setup.reactions = raw.reactions !== false;
  if (CLOCKS.some(([k]) => k === raw.clock)) setup.clock = raw.clock;
  setup.duplicate = raw.duplicate === true;
  return setup;
}

function when(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export class HomeView {
  constructor(navigate) {
    this.navigate = navigate;
    this.el = h("div", { class: "home" });
  }

  async mount(app) {
    document.title = "Yacht";
    app.append(this.el);
    let list;
    try {
      list = await variants();
    } catch (e) {
      fill(this.el, h("p", { class: "panel", text: e.message }));
      return;
    }
    this.variants = list;
    this.byId = new Map(list.map((v) => [v.id, v]));
    this.setup = cleanSetup(loadSetup(), this.byId);
    this.newGame = h("section", { class: "panel panel-new", aria: { labelledby: "h-new" } });
    this.resumeBox = h("section", { class: "panel", aria: { labelledby: "h-resume" } });
    this.tablesBox = h("section", { class: "panel", aria: { labelledby: "h-tables" } });
    this.scoresBox = h("section", { class: "panel", aria: { labelledby: "h-scores" } });
    this.statsBox = h("section", { class: "panel panel-wide", aria: { labelledby: "h-stats" } });
    this.daily = new DailyBox(list, this.navigate, this.setup.variant);
    fill(this.el,
      h("div", { class: "home-intro" },
        h("h1", { class: "home-title" }, "Yacht"),
        h("p", { class: "home-lede", text: "The Yacht dice family: Ancient Yacht, Windows Yacht, Yatsee, Yatcy, Tommy's games, Yahtzee, Yatzy, Maxi Yatzy, Kismet, Generala and Sackson's Yacht. Alone, at one screen, or online with friends." })),
      h("div", { class: "home-grid" },
        this.newGame,
        h("div", { class: "home-side" }, this.daily.draw(), this.resumeBox, this.tablesBox, this.scoresBox)),
      this.statsBox);
    this.drawNewGame();
    this.loadLists();
  }

  unmount() {
    this.el.remove();
  }

  // --- a new game -----------------------------------------------------------------
  drawNewGame() {
    const setup = this.setup;
    const variantSelect = h("select", { id: "variant", name: "variant" },
      this.variants.map((v) => h("option", { value: v.id, selected: v.id === setup.variant }, v.name)));
    const desc = h("p", { class: "variant-desc", id: "variant-desc" });
    const optionsBox = h("div", { class: "variant-options" });
    variantSelect.setAttribute("aria-describedby", "variant-desc");
    // the closed menu says it short ("as the variant (marks it)"); the line under it says
    // in full what a click does with the choice and the variant made
    const markHelp = h("p", { class: "hint-text", id: "dice-mark-help" });
    const sayMark = () => {
      const way = mark.value === "variant" ? this.byId.get(variantSelect.value).dice_mark : mark.value;
      markHelp.textContent = way === "hold" ? `${aClick()} holds the die: Roll rolls the others.`
        : `${aClick()} marks the die to roll again: Roll rolls the marked dice.`;
    };
    const mark = h("select", { id: "dice-mark", aria: { describedby: "dice-mark-help" },
      onchange: () => { setDiceMark(mark.value); sayMark(); } },
      DICE_MARKS.map(([k, label]) => h("option", { value: k, selected: k === diceMark() }, label)));
    const drawOptions = () => {
      const v = this.byId.get(variantSelect.value);
      setup.variant = v.id;
      // "as the variant (holds it)": what a click does in the variant chosen
      mark.options[0].textContent = markWords("variant", v.dice_mark);
      sayMark();
      desc.textContent = `${v.description} ${v.dice} dice, ${v.rolls} rolls, ${v.categories} boxes${v.columns > 1 ? ` in ${v.columns} columns` : ""}.`;
      const chosen = (setup.options[v.id] = setup.options[v.id] || {});
      fill(optionsBox, Object.entries(v.options).map(([key, opt]) => {
        const id = `opt-${key}`;
        const helpId = `${id}-help`;
        const said = optionWords(opt);
        const help = h("p", { class: "hint-text", id: helpId });
        const sel = h("select", { id, aria: { describedby: helpId }, onchange: () => {
          chosen[key] = sel.value;
          help.textContent = said.explain(sel.value);
        } },
        opt.values.map((value, i) => h("option", { value, selected: (chosen[key] ?? opt.default) === value }, said.labels[i])));
        if (!opt.values.includes(chosen[key])) chosen[key] = opt.default;
        help.textContent = said.explain(chosen[key]);
        return h("div", { class: "field" },
          h("label", { for: id, text: key.replace(/_/g, " ") }), sel, help);
      }));
    };
    variantSelect.addEventListener("change", drawOptions);
    drawOptions();

    const playersList = h("ol", { class: "players" });
    const addButton = h("button", { type: "button", class: "btn", onclick: () => {
      if (setup.players.length >= MAX_PLAYERS) return;
      setup.players.push({ kind: "intermediate", name: `Computer ${setup.players.length + 1}` });
      drawPlayers();
      playersList.lastElementChild.querySelector("select").focus();
    } }, "+ Add a player");
    const drawPlayers = () => {
      fill(playersList, setup.players.map((p, i) => {
        const kindId = `p${i}-kind`, nameId = `p${i}-name`;
        const kind = h("select", { id: kindId, class: "kind", aria: { label: `Player ${i + 1}: who plays` },
          onchange: () => {
            const wasComputer = !["here", "friend"].includes(p.kind);
            p.kind = kind.value;
            const isComputer = !["here", "friend"].includes(p.kind);
            if (wasComputer !== isComputer || p.kind === "friend") p.name = p.kind === "friend" ? "" : isComputer ? `Computer ${i + 1}` : (lastName() || `Player ${i + 1}`);
            drawPlayers();
            document.getElementById(kindId).focus();
          } },
        KINDS.map(([k, label]) => h("option", { value: k, selected: p.kind === k }, label)));
        const name = nameField({
          id: nameId, class: "name", autocomplete: "off",
          value: p.name, disabled: p.kind === "friend",
          placeholder: p.kind === "friend" ? "their name, when they join" : "name",
          aria: { label: `Player ${i + 1}: name` },
          oninput: () => {
            p.name = name.value;
            this.unmarkName(i);
          },
        });
        const remove = h("button", { type: "button", class: "btn-icon", disabled: setup.players.length <= 1,
          aria: { label: `Remove player ${i + 1}` },
          onclick: () => {
            setup.players.splice(i, 1);
            drawPlayers();
            const next = playersList.querySelectorAll("select")[Math.min(i, setup.players.length - 1)];
            if (next) next.focus();
          } }, "✕");
        return h("li", { class: "player-row" }, h("span", { class: "player-num", "aria-hidden": "true", text: String(i + 1) }), kind, name, remove);
      }));
      addButton.disabled = setup.players.length >= MAX_PLAYERS;
    };
    drawPlayers();

    const demo = h("input", { type: "checkbox", id: "demo", checked: setup.demo, onchange: () => { setup.demo = demo.checked; } });
    const pause = h("input", { type: "checkbox", id: "computer-pause", checked: computerPause(), onchange: () => setComputerPause(pause.checked) });
    const speed = h("select", { id: "speed", onchange: () => { setup.speed = speed.value; } },
      SPEEDS.map((sp) => h("option", { value: sp, selected: sp === setup.speed }, sp[0].toUpperCase() + sp.slice(1))));
    // a setting of the table's (its players and watchers may send 👏 😮 😂 🎲 🍀 😢)
    const reactions = h("input", { type: "checkbox", id: "reactions", checked: setup.reactions, onchange: () => { setup.reactions = reactions.checked; } });
    const clock = h("select", { id: "clock", onchange: () => { setup.clock = clock.value; } },
      CLOCKS.map(([k, label]) => h("option", { value: k, selected: k === setup.clock }, label)));
    // a duplicate table: every seat its own card, the same dice, everyone at once
    const duplicate = h("input", { type: "checkbox", id: "duplicate", checked: setup.duplicate, onchange: () => { setup.duplicate = duplicate.checked; } });
    const start = h("button", { type: "submit", class: "btn btn-primary btn-big", id: "start" }, "Start the game");
    const form = h("form", { class: "new-game-form", onsubmit: (e) => { e.preventDefault(); this.start(start); } },
      h("div", { class: "field field-variant" },
        h("label", { for: "variant", text: "Game" }),
        h("div", { class: "inline" }, variantSelect,
          h("button", { type: "button", class: "btn", onclick: () => this.showRules(setup.variant, setup.options[setup.variant]) }, "Rules")),
        desc),
      optionsBox,
      h("fieldset", { class: "players-box" },
        h("legend", {}, "Players ", h("span", { class: "hint-text", text: "(1-8; a friend's seat is taken by whoever opens the link)" })),
        playersList, addButton),
      h("div", { class: "field-row" },
        h("div", { class: "field check" }, demo, h("label", { for: "demo", text: "Demo: computers play every seat" })),
        h("div", { class: "field" }, h("label", { for: "speed", text: "Computer speed" }), speed),
        h("div", { class: "field" }, h("label", { for: "clock", text: "Turn clock" }), clock)),
      h("div", { class: "field-row" },
        h("div", { class: "field" }, h("label", { for: "dice-mark", text: markLabel() }), mark, markHelp),
        h("div", { class: "field check" }, pause,
          h("label", { for: "computer-pause", text: "Pause after my score, before a computer plays (time for Oops)" }))),
      h("div", { class: "field-row" },
        h("div", { class: "field check" }, reactions,
          h("label", { for: "reactions" }, "Reactions at the table (", h("span", { class: "emoji", text: "👏 😮 😂 🎲 🍀 😢" }), ", no text)"))),
      h("div", { class: "field-row" },
        h("div", { class: "field check" }, duplicate,
          h("label", { for: "duplicate", text: "Same dice for everyone – all play at once (each on a card of their own; 2-8 players, one of them here)" }))),
      start);
    fill(this.newGame, h("h2", { id: "h-new", text: "New game" }), form);
  }

  seats() {
    const setup = this.setup;
    return setup.players.map((p, i) => {
      let kind = p.kind;
      if (setup.demo && (kind === "here" || kind === "friend")) kind = "intermediate";
      const name = (p.name || "").trim();
      if (kind === "here") return { kind: "person", name, here: true };
      if (kind === "friend") return { kind: "person", here: false };
      return { kind, name: name || `Computer ${i + 1}` };
    });
  }

  /** The first name the server would refuse that the page can tell: a person here
   * without one, or a name given twice; {i, message} or null. */
  nameProblem() {
    const seats = this.seats();
    const seen = new Map();
    for (let i = 0; i < seats.length; i += 1) {
      const seat = seats[i];
      if (seat.here && !seat.name) return { i, message: `Player ${i + 1} needs a name (1-20 characters).` };
      if (!seat.name) continue;
      // (as the server reads a name: inner runs of spaces made one, accents composed)
      const key = seat.name.replace(/ +/g, " ").normalize("NFC").toLowerCase();
      if (seen.has(key)) {
        const first = seen.get(key);
        return { i, message: `Players ${first + 1} and ${i + 1} are both called ${seats[first].name}: give each their own name.` };
      }
      seen.set(key, i);
    }
    return null;
  }

  /** Mark player `i`'s name field with `message` (said beside it) and go there. */
  markName(i, message) {
    const input = document.getElementById(`p${i}-name`);
    if (!input) {
      toast(message);
      return;
    }
    this.unmarkName(i);
    const error = h("p", { class: "field-error", id: `p${i}-error`, text: message });
    input.closest(".player-row").append(error);
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", error.id);
    input.focus();
  }

  unmarkName(i) {
    const input = document.getElementById(`p${i}-name`);
    const error = document.getElementById(`p${i}-error`);
    if (error) error.remove();
    if (input) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  }

  /** A refusal of the server that names a player's name: that player's field, if any. */
  nameRefused(message) {
    // (the server names the seat: "seat 1: The name 'Bo' has an invisible character
    // (U+200B ZERO WIDTH SPACE)...", the name as it shows, not as typed)
    const seat = /^seat (\d+): .*\bname\b/.exec(message);
    if (seat && Number(seat[1]) <= this.setup.players.length) return Number(seat[1]) - 1;
    const seats = this.seats();
    for (let i = seats.length - 1; i >= 0; i -= 1) {
      if (seats[i].name && message.includes(`'${seats[i].name}'`)) return i;
    }
    return -1;
  }

  async start(button) {
    const setup = this.setup;
    saveSetup(setup);
    const problem = this.nameProblem();
    if (problem) {
      this.markName(problem.i, problem.message);
      return;
    }
    const firstHere = setup.players.find((p) => p.kind === "here" && p.name.trim());
    if (firstHere) setLastName(firstHere.name.trim());
    const v = this.byId.get(setup.variant);
    const options = {};
    for (const key of Object.keys(v.options)) options[key] = setup.options[v.id][key];
    button.disabled = true;
    try {
      const turnClock = (CLOCKS.find(([k]) => k === setup.clock) || CLOCKS[0])[2];
      const made = await postJSON("/api/tables", { variant: v.id, options, speed: setup.speed, seats: this.seats(), reactions: setup.reactions, clock: turnClock, dice: setup.duplicate ? "duplicate" : "own" });
      setToken(made.id, made.token);
      this.navigate(made.url);
    } catch (e) {
      const who = this.nameRefused(e.message);
      if (who >= 0) this.markName(who, `Player ${who + 1}: ${e.message.replace(/^seat \d+: /, "")}`);
      else toast(e.message);
      button.disabled = false;
    }
  }

  async showRules(variant, options) {
    try {
      const r = await rules(variant, options || {});
      rulesDialog(`Rules: ${r.name}`, r.text);
    } catch (e) {
      toast(e.message);
    }
  }

  // --- the lists ----------------------------------------------------------------
  async loadLists() {
    this.drawResume();
    this.drawTables();
    this.drawScores(this.setup.variant);
    this.drawStats();
  }

  variantName(id) {
    return (this.byId.get(id) || { name: id }).name;
  }

  async drawResume() {
    const box = this.resumeBox;
    fill(box, h("h2", { id: "h-resume", text: "Unfinished games" }), h("p", { class: "muted", text: "Looking…" }));
    let games;
    try {
      games = await postJSON("/api/my/games", { tables: myTables() });
    } catch (e) {
      fill(box, h("h2", { id: "h-resume", text: "Unfinished games" }), h("p", { class: "muted", text: e.message }));
      return;
    }
    games.sort((a, b) => String(b.last_played).localeCompare(String(a.last_played)));
    const list = games.slice(0, 8).map((g) => h("li", { class: "list-item" },
      h("div", { class: "list-main" },
        h("strong", { text: this.variantName(g.variant) }),
        h("span", { class: "muted", text: ` · ${g.players.map((p) => p.name).join(", ")}` }),
        h("div", { class: "muted small", text: `turn ${Math.min(g.turn, g.turns)} of ${g.turns} · ${when(g.last_played)}` })),
      this.resumeButton(g)));
    fill(box, h("h2", { id: "h-resume", text: "Unfinished games" }),
      list.length ? h("ul", { class: "list" }, list) : h("p", { class: "muted", text: "None in this browser. A game saved in the terminal comes here with yacht resume ID --web." }));
  }

  resumeButton(g) {
    const label = `${this.variantName(g.variant)} with ${g.players.map((p) => p.name).join(", ")}`;
    return h("a", { class: "btn", href: `/t/${g.table}`, aria: { label: `Continue ${label}` },
      onclick: (e) => { e.preventDefault(); this.navigate(`/t/${g.table}`); } }, "Continue");
  }

  async drawTables() {
    const box = this.tablesBox;
    const head = () => h("div", { class: "panel-head" }, h("h2", { id: "h-tables", text: "Tables online" }),
      h("button", { type: "button", class: "btn btn-small", onclick: () => this.drawTables() }, "Refresh"));
    let tables;
    try {
      tables = await getJSON("/api/tables");
    } catch (e) {
      fill(box, head(), h("p", { class: "muted", text: e.message }));
      return;
    }
    const items = tables.slice(0, 10).map((t) => {
      const mine = tokenFor(t.id) !== null; // this browser holds a seat there
      const join = !mine && !t.started && t.open_seats > 0;
      const verb = mine ? "Open" : join ? "Join" : "Watch";
      const who = t.players.length ? t.players.join(", ") : "no one yet";
      return h("li", { class: "list-item" },
        h("div", { class: "list-main" },
          h("strong", { text: t.name }),
          h("span", { class: "muted", text: ` · ${who}` }),
          h("div", { class: "muted small", text: t.started ? "playing" : `waiting: ${plural(t.open_seats, "open seat")}` })),
        h("a", { class: "btn", href: `/t/${t.id}`, aria: { label: `${verb} ${t.name} with ${who}` },
          onclick: (e) => { e.preventDefault(); this.navigate(`/t/${t.id}`); } }, verb));
    });
    fill(box, head(), items.length ? h("ul", { class: "list" }, items)
      : h("p", { class: "muted", text: "No open tables. Start a game with a friend's seat, then send them its link." }));
  }

  async drawScores(variant) {
    const box = this.scoresBox;
    const select = h("select", { id: "scores-variant", onchange: () => this.drawScores(select.value) },
      this.variants.map((v) => h("option", { value: v.id, selected: v.id === variant }, v.name)));
    const assisted = h("input", { type: "checkbox", id: "scores-assisted", checked: this.assisted === true,
      onchange: () => { this.assisted = assisted.checked; this.drawScores(select.value); } });
    const body = h("div", { class: "scores-body" }, h("p", { class: "muted", text: "Looking…" }));
    fill(box, h("h2", { id: "h-scores", text: "Top ten" }),
      h("div", { class: "field-row" },
        h("div", { class: "field" }, h("label", { for: "scores-variant", class: "sr-only", text: "Top ten of" }), select),
        h("div", { class: "field check" }, assisted, h("label", { for: "scores-assisted", text: "assisted games" }))),
      body);
    const opts = this.setup.options[variant] || {};
    try {
      const tables = await getJSON(`/api/scores?${query({ variant, assisted: this.assisted ? "true" : "false", ...opts })}`);
      const entries = tables.length ? tables[0].entries : [];
      fill(body, entries.length ? topTenTable(entries, [], "") : h("p", { class: "muted", text: "No scores yet: be the first." }));
    } catch (e) {
      fill(body, h("p", { class: "muted", text: e.message }));
    }
  }

  async drawStats() {
    const box = this.statsBox;
    let rows;
    try {
      rows = await getJSON("/api/stats");
    } catch (e) {
      fill(box, h("h2", { id: "h-stats", text: "Statistics" }), h("p", { class: "muted", text: e.message }));
      return;
    }
    if (!rows.length) {
      fill(box, h("h2", { id: "h-stats", text: "Statistics" }), h("p", { class: "muted", text: "No finished games yet." }));
      return;
    }
    const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`);
    const table = h("table", { class: "data-table" },
      h("thead", {}, h("tr", {}, ["Player", "Game", "Games", "Wins", "Average", "Best", "Bonus", "Yachts"].map((t, i) =>
        h("th", { scope: "col", class: i >= 2 ? "num" : null, text: t })))),
      h("tbody", {}, rows.map((r) => h("tr", {},
        h("th", { scope: "row", text: r.name }),
        h("td", { text: r.title }), // the kind of game in the server's words (as `yacht stats`)
        h("td", { class: "num", text: r.games }),
        h("td", { class: "num", text: r.multiplayer_games ? `${r.wins} of ${r.multiplayer_games}` : "–" }),
        h("td", { class: "num", text: Number(r.average).toFixed(1) }),
        h("td", { class: "num", text: r.best }),
        h("td", { class: "num", text: pct(r.upper_bonus_rate) }),
        h("td", { class: "num", text: r.yachts })))));
    fill(box, h("h2", { id: "h-stats", text: "Statistics" }), h("div", { class: "table-scroll", tabindex: "0", role: "group", aria: { label: "The statistics table" } }, table));
  }
}

/** A top ten; `fresh` entries (new ones) are marked with a star and "new". */
export function topTenTable(entries, fresh, gameId) {
  const isNew = (e) => (gameId && e.game_id === gameId)
    || fresh.some((n) => n.rank === e.rank && n.name === e.name && n.score === e.score);
  return h("table", { class: "data-table topten" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num", text: "#" }), h("th", { scope: "col", text: "Name" }),
      h("th", { scope: "col", class: "num", text: "Score" }), h("th", { scope: "col", text: "Date" }))),
    h("tbody", {}, entries.map((e) => {
      const fresh1 = isNew(e);
      return h("tr", { class: fresh1 ? "is-new" : "" },
        h("td", { class: "num", text: e.rank }),
        // the words after the line are the server's: "(dice entered)", "(won at once)"
        h("th", { scope: "row" }, h("span", { text: e.name }), e.note ? h("span", { class: "muted entry-note", text: ` ${e.note}` }) : null,
          fresh1 ? h("span", { class: "new-badge", text: "★ new" }) : null),
        h("td", { class: "num", text: e.score }),
        h("td", { class: "muted", text: new Date(e.date).toLocaleDateString() }));
    })));
}
