// A table, /t/ID: the lobby until every seat is taken, then the game, then its end.
// Everything drawn comes from the server's state (the snapshot); the page holds no
// rules: what may be done now is snapshot.can, the previews and help come with it.

import { byDevice, h, fill, isYou, listText, nameField, plural, possessive, reducedMotion, setAttr, setText, touchOnly, verb } from "./dom.js";
import { getJSON, postJSON, query, rules, variants } from "./api.js";
import { ScoreCards } from "./card.js";
import { TableSocket } from "./socket.js";
import { dieSvg, drawDie, rerollBadge } from "./dice.js";
import { progressChart } from "./chart.js";
import { AnalysisView } from "./analysis.js";
import { DICE_MARKS, SPEEDS, computerPause, diceMark, lastName, markLabel, markWords, seatPrefs, setComputerPause, setDailyTable, setDiceMark, setLastName, setToken, tokenFor } from "./prefs.js";
import * as sound from "./sound.js";
import { announce, dialogOpen, openDialog, rulesDialog, shareLink, toast } from "./ui.js";
import { optionsText, topTenTable } from "./home.js";
import { dailyResult } from "./daily.js";
import { ReactionBar, showReaction } from "./reactions.js";
import { TurnNotifier, tableManifest } from "./notify.js";
import { TurnClock, againLobby, drawSeats, readyMark, seriesLine } from "./online.js";
import { cardName, fieldPanel, invitePanel } from "./field.js";

/** Why there is no hint, as the line game and the terminal game say it: one sentence
 * ("No hint: the advisor is not available in this installation."), or two when the
 * reason has a colon of its own ("No hint. Roll first: the advice is about the dice
 * showing.", not two colons in a row; a colon in brackets is apart). */
export const noHintText = (why) => {
  const text = String(why ?? "").trim().replace(/\.$/, "");
  if (!text) return "No hint.";
  if (text.replace(/\([^()]*\)/g, "").includes(": ")) return `No hint. ${text[0].toUpperCase()}${text.slice(1)}.`;
  return `No hint: ${text}.`;
};

/** The keys; the first two say what a die's click or key does (`mark`: the seat's way),
 * for a game of `dice` dice and `columns` columns (the keys of those it has). */
const keysHelp = (mark, dice = 10, columns = 1) => [
  [`${dice >= 10 ? "1-9, 0" : `1-${dice}`} or click a die`, mark === "hold" ? `hold dice 1-${dice} (again: let go)` : `choose dice 1-${dice} to roll again`],
  ["a / s / n", mark === "hold" ? "hold all / hold the matched dice (the unmatched roll) / hold none"
    : "all dice / the unmatched dice (a face showing once) / none"],
  ["r or Enter, or Roll", "roll (or go on to the next player)"],
  ["a box's letter, or click it", columns > 1 ? "score that box (Shift+letter: column 2)" : "score that box"],
  ["Tab, arrows, Space, Enter", "move between the dice, Roll and the card; choose; act"],
  ["o", "Oops: give back my dice / I scored the wrong box"],
  ["h", "hint: the advisor's ranking (the game is marked assisted); a move in it, or Enter on it, plays it"],
  ["b, + / -", "sound on/off, computer speed"],
  ["p / n / a at the game's end", "play again / new game / the analysis of every decision"],
  ["? or F1", "these keys (the rules are one step further)"],
];

/** The words of the buttons under the dice (all, singlets, none), by the seat's way; a
 * singlet is "unmatched" here: a die whose face no other die shows. */
const SELECT_WORDS = {
  hold: { all: "Hold all", singlets: "Hold matched", none: "Hold none" },
  reroll: { all: "All", singlets: "Unmatched", none: "None" },
};

/** What each of those buttons does, said in full (its tooltip). */
const SELECT_TITLES = {
  hold: { all: "Hold every die", singlets: "Hold every die that matches another; the unmatched ones roll", none: "Hold no die: all roll" },
  reroll: { all: "Roll every die again", singlets: "Roll again every die that matches no other", none: "Roll no die again" },
};

const REFUSALS = {
  get paused() { return byDevice("Go on first (Enter or r)", "Tap Go on first"); },
  computer_turn: "Wait: the computer is playing",
  stale: "The table moved on: look again",
  disconnected: "Not connected: reconnecting…",
};

const ROLL_ANIMATION_MS = 480;

/** A line of the table's news as a sentence (a full stop at its end). */
const sentence = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);

/** A chance (0-1) as a percentage: "9.3%", "0.04%", "100%". */
const percent = (p) => {
  const pct = 100 * p;
  if (pct > 0 && pct < 0.1) return `${pct.toFixed(2)}%`;
  if (pct >= 99.95 && pct < 100) return "99.9%";
  return `${Number.parseFloat(pct.toFixed(1))}%`;
};

/** One move of the hint: a button that plays it, with its figures. */
function hintItem(m, cls, figures, play) {
  return h("li", { class: cls },
    h("button", { type: "button", class: "hint-play", data: { reroll: m.reroll.join(" "), category: m.category || "" },
      onclick: () => play(m) },
    h("span", { class: "hint-move", text: m.text }), figures));
}

/** The players whose scores go to the list apart from the top ten (they asked the
 * advisor, or the computer played for them; every person once dice were entered). */
const marked = (snap) => snap.players.map((p, i) => i).filter((i) =>
  snap.dice_entered ? snap.players[i].kind === "person" : (snap.assisted_players || []).includes(i));

/** This page's game goes to the list apart: one of its own players is marked (a
 * watcher's: every person at the table). */
const apart = (snap) => {
  const mine = snap.players.map((p, i) => i).filter((i) => snap.players[i].mine);
  const who = mine.length ? mine : snap.players.map((p, i) => i).filter((i) => snap.players[i].kind === "person");
  const set = new Set(marked(snap));
  return who.length > 0 && (mine.length ? who.some((i) => set.has(i)) : who.every((i) => set.has(i)));
};


/** What a page that is not the mover's says while a person plays (the snapshot's help is
 * the mover's instructions: "Roll: roll the 4 dice not held..."): who is playing and
 * where they are in their turn. Null: the snapshot's help stands (the mover's own page,
 * a computer's turn, a pause, the end). */
function othersHelp(snap) {
  if (snap.over || snap.pause !== null || snap.thinking || (snap.seat && snap.seat.my_turn)) return null;
  const p = snap.players[snap.current];
  if (!p || p.kind !== "person") return null;
  if (!snap.dice.length) return `${p.name} is playing: waiting for ${p.name} to roll.`;
  const left = snap.rolls_left ? `${plural(snap.rolls_left, "roll")} left` : "no roll left";
  return `${p.name} is playing: choosing dice or a box (${left}).`;
}

/** How many turns the computer played for a player since they last left: the newest run
 * of their turns it played one after another while they were away (played_by's `turn`,
 * the player's own; a turn of theirs between two runs means they were back). */
function awaySinceLeft(by) {
  const turns = by.filter((b) => b.by !== "clock").map((b) => b.turn);
  if (!turns.length) return 0;
  if (turns.some((t) => !Number.isInteger(t))) return turns.length; // (no turns said)
  const played = new Set(turns);
  let n = 0;
  for (let t = Math.max(...turns); played.has(t); t -= 1) n += 1;
  return n;
}

/** What the computer played for this page's own players (their card's played_by: the
 * clock ran out, or they were away and it stood in), as sentences; "" when nothing. */
function playedForYou(snap) {
  const mine = snap.players.map((p, i) => [p, i]).filter(([p]) => p.mine);
  const you = mine.length === 1;
  const lines = [];
  for (const [p, i] of mine) {
    const by = (snap.cards[i] && snap.cards[i].played_by) || [];
    const away = awaySinceLeft(by);
    const clock = by.filter((b) => b.by === "clock").length;
    const whose = you ? "your" : possessive(p.name);
    if (away) lines.push(`The computer played ${away} of ${whose} turns while ${you ? "you were" : `${p.name} was`} away.`);
    if (clock) lines.push(`${you ? "Your" : possessive(p.name, true)} time ran out on ${plural(clock, "turn")}: the computer played ${clock === 1 ? "it" : "them"}.`);
  }
  return lines.length ? `${lines.join(" ")} (Marked on the card.)` : "";
}

/** Whose turn it is, in the live region's words: "Ann, your turn." (a player of this
 * page's), "Your turn." (one called You), "Cpu's turn." */
const turnWords = (player) => (player.mine && !isYou(player.name) ? `${player.name}, your turn.` : `${possessive(player.name, true)} turn.`);

/** Why the mover's keys and buttons (Oops, Hint) do nothing on this page now: it is not
 * this page's turn, said with whose it is. Null: it is this page's turn (or the end). */
function notYourTurn(snap) {
  if (snap.over || (snap.seat && snap.seat.my_turn)) return null;
  const p = snap.players[snap.current];
  if (!p) return null;
  const who = verb(p.kind === "computer" ? `${p.name} (computer)` : p.name, "is", "are");
  return snap.seat ? `Not your turn: ${who} playing` : `You are watching: ${who} playing`;
}

export class TableView {
  constructor(tableId, navigate) {
    this.id = tableId;
    this.navigate = navigate;
    this.snap = null;
    this.lobby = null;
    this.joinError = null; // (what is wrong with the name in the lobby's field)
    this.presence = [];
    this.status = "connecting";
    this.rolling = null; // {positions, player} from the last rolled event
    this.animations = new Map(); // die index -> timer
    this.endShownFor = null;
    this.hintBox = null;
    this.onKey = (e) => this.key(e);
    this.field = null; // a duplicate table's last field message
    this.card = null; // which card of it this table is (its seat is numbered by it)
    this.variantInfo = undefined; // the variant's entry of GET /api/variants (its options' words)
    this.steps = []; // what the player did, not yet sent (see later())
    this.stepping = false;
    this.el = h("div", { class: "table-page" });
  }

  mount(app) {
    document.title = "Yacht table";
    this.title = h("h1", { class: "bar-title", text: "Yacht" });
    this.chips = h("span", { class: "chips" });
    this.soundBtn = h("button", { type: "button", class: "btn btn-bar", id: "sound-btn", onclick: () => this.toggleSound() });
    this.speedSelect = h("select", { id: "speed-select", class: "bar-select", onchange: () => this.setSpeed(this.speedSelect.value) },
      SPEEDS.map((sp) => h("option", { value: sp }, sp[0].toUpperCase() + sp.slice(1))));
    // (one who may not set the pace reads it: words, not a menu greyed out)
    this.speedText = h("span", { class: "speed-text", id: "speed-text", hidden: true,
      title: "Only a player at the table, or whoever started it, sets the computers' pace" });
    this.speedBox = h("span", { class: "speed-box", hidden: true },
      h("label", { for: "speed-select", text: "Speed" }), this.speedSelect, this.speedText);
    // what a click on a die does (remembered in this browser; the server is told)
    this.markSelect = h("select", { id: "mark-select", class: "bar-select", onchange: () => this.setMark(this.markSelect.value) },
      DICE_MARKS.map(([k]) => h("option", { value: k, selected: k === diceMark() }, markWords(k))));
    this.markBox = h("span", { class: "speed-box mark-box", hidden: true },
      h("label", { for: "mark-select", text: markLabel() }), this.markSelect);
    this.rulesBtn = h("button", { type: "button", class: "btn btn-bar", id: "rules-btn", onclick: () => this.showRules() }, "Rules");
    this.notifier = new TurnNotifier(this.id);
    this.keysBtn = h("button", { type: "button", class: "btn btn-bar", id: "keys-btn", aria: { keyshortcuts: "? F1" }, onclick: () => this.showKeys() }, "Keys ?");
    // a phone held sideways has little height: its bar is one row, the tools behind
    // this button (style.css: it shows only there; elsewhere the tools are always out)
    this.toolsBtn = h("button", { type: "button", class: "btn btn-bar tools-btn", id: "tools-btn",
      aria: { expanded: "false", controls: "bar-tools" }, onclick: () => this.toggleTools() }, "Menu");
    this.banner = h("div", { class: "conn-banner", role: "status", hidden: true });
    this.elsewhere = h("div", { class: "conn-banner elsewhere-banner", role: "status", hidden: true });
    this.body = h("div", { class: "table-body" });
    this.fieldBox = h("div", { class: "field-box", hidden: true }); // a duplicate table's field
    this.inviteBox = h("div", { class: "invite-box", hidden: true }); // ...and its open seats' links
    fill(this.el,
      this.bar = h("header", { class: "table-bar" },
        h("a", { href: "/", class: "btn btn-bar home-link", onclick: (e) => { e.preventDefault(); this.navigate("/"); } }, "← Home"),
        this.title, this.chips, this.toolsBtn,
        h("span", { class: "bar-tools", id: "bar-tools" }, this.markBox, this.speedBox, this.soundBtn, this.notifier.button, this.keysBtn, this.rulesBtn)),
      this.banner, this.elsewhere, this.inviteBox, this.body, this.fieldBox);
    this.drawSound();
    this.drawKeyless(true);
    this.mountAway();
    app.append(this.el);
    document.addEventListener("keydown", this.onKey);
    this.claim().then(() => {
      if (!this.el.isConnected) return; // (left meanwhile)
      this.socket = new TableSocket(this.id, tokenFor(this.id), {
        onmessage: (msg) => this.message(msg),
        onstatus: (status, seconds) => this.connection(status, seconds),
        onfatal: (message, code) => this.fatal(message, code),
        prefs: seatPrefs,
      });
    });
  }

  /** The bar's Menu (a short screen's): its tools out, or away again. */
  toggleTools() {
    const open = this.toolsBtn.getAttribute("aria-expanded") !== "true";
    this.toolsBtn.setAttribute("aria-expanded", String(open));
    this.bar.classList.toggle("tools-open", open);
  }

  /** A one-time link (`yacht resume ID --web`: /t/ID#claim=KEY): its key is traded for
   * this browser's own token to the game's seats, once; the address keeps no key. */
  async claim() {
    const key = /^#claim=([A-Za-z0-9_-]{16,64})$/.exec(window.location.hash);
    if (!key) return;
    window.history.replaceState(window.history.state, "", window.location.pathname);
    try {
      const made = await postJSON(`/api/tables/${encodeURIComponent(this.id)}/claim`, { key: key[1] });
      setToken(this.id, made.token);
      toast("This game is yours in this browser now: the link will not open it again.");
    } catch (e) {
      toast(tokenFor(this.id) ? `${e.message} (this browser has its seats already)` : e.message);
    }
  }

  unmount() {
    document.removeEventListener("keydown", this.onKey);
    this.unmountAway();
    if (this.cards) this.cards.destroy();
    if (this.clock) this.clock.stop();
    if (this.seatsTimer) window.clearInterval(this.seatsTimer);
    if (this.socket) this.socket.close();
    for (const t of this.animations.values()) window.clearInterval(t);
    this.el.remove();
  }

  // --- the connection -------------------------------------------------------------
  connection(status, seconds) {
    this.status = status;
    if (status === "open") {
      this.banner.hidden = true;
      if (this.lostAt) announce("Connected again.");
      this.lostAt = null;
      return;
    }
    if (status === "waiting") {
      if (!this.lostAt) {
        this.lostAt = Date.now();
        announce("Connection lost: reconnecting.");
      }
      setText(this.banner, `Connection lost: trying again${seconds ? ` in ${seconds} s` : ""}…`);
      this.banner.hidden = false;
    } else if (status === "connecting" && this.lostAt) {
      setText(this.banner, "Reconnecting…");
      this.banner.hidden = false;
    }
  }

  fatal(message, code = "not_found") {
    fill(this.body, h("section", { class: "panel notice" },
      h("h2", { text: code === "private" ? "A private game" : "No such table" }), h("p", { text: message }),
      h("p", {}, h("a", { href: "/", onclick: (e) => { e.preventDefault(); this.navigate("/"); } }, "Back to the home page"))));
  }

  /** A scoring may be taken back (never at a duplicate table's card: the others see it). */
  canTakeBack(snap) {
    return snap.can.take_back && !this.duplicate;
  }

  message(msg) {
    switch (msg.type) {
      case "state":
        // what happened since the last state first: it is told against the old snapshot
        for (const ev of Array.isArray(msg.events) ? msg.events : []) this.event(ev);
        this.presence = Array.isArray(msg.presence) ? msg.presence : [];
        this.host = msg.table.host === true; // this browser made the table
        this.reactionsOn = msg.table.reactions !== false;
        this.online = msg.table.phase === "game" ? msg.table : null; // seats, series
        this.onlineAt = performance.now();
        if (msg.table.phase === "lobby") this.drawLobby(msg.table);
        else this.drawGame(msg.table.snapshot);
        break;
      case "error":
        if (msg.id === undefined && msg.code !== "not_found" && msg.code !== "private") toast(REFUSALS[msg.code] || msg.message);
        break;
      case "reaction":
        if (this.game && this.game.isConnected) showReaction(msg, this.cardsPanel, this.watcherReactions);
        break;
      case "field": // a duplicate table: the others' cards, as far as this player may see
        this.duplicate = true;
        if (msg.next && this.wantNext) { // this player asked to play again: their new card
          this.goNext(msg.next);
          break;
        }
        fill(this.fieldBox, fieldPanel(msg, { onNext: (url) => this.goNext(url) }));
        this.fieldBox.hidden = false;
        this.takeField(msg);
        break;
      case "reconnect": // the server is stopping: it closes this socket, the page comes back
        this.lostAt = this.lostAt || Date.now();
        setText(this.banner, typeof msg.message === "string" ? `${msg.message}…` : "Reconnecting…");
        this.banner.hidden = false;
        break;
      default:
        break;
    }
  }

  /**
   * What the player does (a key, a click) is a step of one queue, in the order it was
   * done: each step is decided against the table as it is when its turn comes, after the
   * answers to the steps before it (the server sends a command's state before its
   * answer). So a typist's keys are applied in order at any speed and any latency, and
   * never checked against a table the page has not seen yet. A step that is refused (or
   * not sent: the page said why) drops the steps queued behind it: they were meant for
   * a table that did not come.
   */
  later(step, kind = "other") {
    this.lastKind = kind;
    this.steps.push(step);
    if (!this.stepping) this.runSteps();
  }

  async runSteps() {
    this.stepping = true;
    try {
      while (this.steps.length) {
        const step = this.steps.shift();
        let done = false;
        try {
          done = await step();
        } catch {
          done = false;
        }
        if (done === false) this.steps.length = 0;
      }
    } finally {
      this.stepping = false;
    }
  }

  /**
   * Send a command with the version of the table the player sees (`version`, or the
   * newest); true once it is done, false (and the reason shown) when refused. Called by
   * a step of the queue.
   */
  async send(command, version) {
    const seen = version !== undefined ? version : this.snap ? this.snap.version : undefined;
    if (seen === undefined) return false; // (no game shown: nothing to decide it against)
    const reply = await this.socket.send({ type: "command", command, version: seen });
    if (reply.type === "error") toast(REFUSALS[reply.code] || reply.message);
    return reply.type === "ack";
  }

  // --- a duplicate table: this card's number, the open seats' links -------------------
  /** A field came: which card this table is (a player's is `me`; a visitor's, the card
   * whose link this is), so the lobby numbers its seat as the field does ("Take seat 2"
   * beside "Player 2"); a player whose friends' seats are open is given their links. */
  takeField(field) {
    this.field = field;
    const here = field.cards.find((c) => c.url === `/t/${this.id}`);
    const card = field.me !== null ? field.me : here ? here.card : this.card;
    const renumbered = card !== this.card;
    this.card = card;
    if (renumbered && this.lobby) this.drawLobby(this.lobby);
    this.drawInvite(field);
  }

  drawInvite(field) {
    const open = field.me === null || field.end ? [] : field.cards.filter((c) => c.open && c.kind === "person");
    const key = open.map((c) => c.card).join(" ");
    if (key === this.inviteKey) return;
    this.inviteKey = key;
    if (!open.length) {
      this.inviteBox.hidden = true;
      fill(this.inviteBox);
      return;
    }
    // (a player's field has no links: the watchers' has the open seats')
    const draw = (links) => {
      if (this.inviteKey !== key) return;
      fill(this.inviteBox, invitePanel(field, open, links));
      this.inviteBox.hidden = false;
    };
    getJSON(`/api/groups/${encodeURIComponent(field.group)}`)
      .then((watched) => draw(Object.fromEntries(watched.cards.filter((c) => c.url).map((c) => [c.card, c.url]))))
      .catch(() => draw({}));
  }

  /** The number a seat of this table is called by: at a duplicate table's card, the card's. */
  seatNumber(i) {
    return this.card !== null ? this.card + 1 : i + 1;
  }

  // --- the lobby ------------------------------------------------------------------
  drawLobby(t) {
    this.lobby = t;
    this.snap = null;
    this.drawKeyless(true);
    document.title = `${t.name}: waiting for players`;
    this.notifier.lobby();
    setText(this.title, t.name);
    this.speedBox.hidden = true;
    this.markBox.hidden = true;
    fill(this.chips, h("span", { class: "chip", text: "lobby" }));
    const focusedId = document.activeElement && document.activeElement.id;
    const mine = t.seats.some((s) => s.mine);
    const openSeats = t.seats.map((s, i) => [s, i]).filter(([s]) => s.open);
    const nameInput = this.joinName && this.joinName.isConnected ? this.joinName
      : nameField({ id: "join-name", autocomplete: "nickname", value: mine ? "" : lastName() });
    this.joinName = nameInput;
    const connected = this.connectedSeats();
    const again = Boolean(t.series && t.series.games); // the table's next game
    const seats = h("ol", { class: "seats", aria: { label: "Seats" } }, t.seats.map((s, i) => {
      let who;
      if (s.kind === "computer") who = [h("span", { class: "seat-name", text: s.name }), h("span", { class: "muted", text: ` computer, ${s.level}` })];
      else if (s.open) who = [h("span", { class: "seat-open", text: s.name ? `Open seat, kept for ${s.name}` : "Open seat" })];
      else who = [h("span", { class: "seat-name", text: s.name }), s.mine ? h("span", { class: "player-kind you", text: "you" }) : null];
      const here = s.kind === "person" && !s.open && connected.has(i);
      return h("li", { class: ["seat", s.open ? "is-open" : "", s.mine ? "is-mine" : ""] },
        h("span", { class: "seat-num", "aria-hidden": "true", text: String(this.seatNumber(i)) }),
        h("span", { class: "seat-who" }, who),
        s.kind === "person" && !s.open ? h("span", { class: ["presence-dot", here ? "on" : ""], text: here ? "connected" : "away" }) : null,
        again ? readyMark(s) : null,
        s.open ? h("button", { type: "button", class: mine ? "btn" : "btn btn-primary", id: `take-${i}`,
          onclick: () => this.join(i) }, mine ? `Seat ${this.seatNumber(i)} for them` : `Take seat ${this.seatNumber(i)}`) : null);
    }));
    const options = optionsText(this.variantInfo, t.options);
    if (this.variantInfo === undefined && Object.keys(t.options || {}).length) {
      this.variantInfo = null; // (its options' words: asked once, then the lobby again)
      variants().then((list) => {
        this.variantInfo = list.find((v) => v.id === t.variant) || null;
        if (this.lobby) this.drawLobby(this.lobby);
      }).catch(() => {});
    }
    const share = shareLink({ id: "share-link", path: `/t/${this.id}`,
      // (with no seat open the link can only watch: it is not an invitation to play)
      label: this.card === null ? (openSeats.length ? "Invite: send this link to your friends"
        : "This table's link: anyone with it can watch")
        : `This seat's link: send it to ${cardName(this.field, this.card)}` });
    // (a name the server or the page refused: said under the field until it changes)
    setAttr(nameInput, "aria-invalid", this.joinError ? "true" : null);
    setAttr(nameInput, "aria-describedby", this.joinError ? "join-name-error" : null);
    nameInput.oninput = () => {
      if (this.joinError) this.markJoinName(null);
    };
    const joinField = openSeats.length ? h("div", { class: mine ? "field hot-seat" : "field" },
      h("label", { for: "join-name", text: mine ? "Someone else at this screen? Their name" : "Your name" }), nameInput,
      this.joinError ? h("p", { class: "field-error", id: "join-name-error", text: this.joinError }) : null) : null;
    fill(this.body, h("section", { class: "panel lobby", aria: { labelledby: "lobby-title" } },
      h("h2", { id: "lobby-title", text: again ? `Play again? Game ${t.series.games + 1} at this table` : openSeats.length ? "Waiting for players" : "Starting…" }),
      h("p", { class: "muted", text: `${t.name}${options ? ` (${options})` : ""} · computer speed ${t.speed}${t.clock ? ` · clock ${t.clock}` : ""}` }),
      again ? againLobby(t, (kind) => this.again(kind)) : null,
      again ? seriesLine(t.series, t.seats.map((seat) => seat.name || "")) : null,
      mine ? share : null,
      joinField,
      seats,
      mine || (this.card !== null && !this.host) ? null : share, // (a card's: its host's to send)
      t.can_start && openSeats.length ? h("div", { class: "lobby-start" },
        h("button", { type: "button", class: "btn btn-big", id: "start-now", onclick: () => this.startNow() }, "Start now, without the open seats")) : null,
      this.presenceLine()));
    if (focusedId) {
      // the focus stays where it was; a seat's button that went away (its seat taken)
      // hands it on: to the name of the next one at this screen (ready to be typed
      // over), else to Start now, else to the lobby's heading - never to nothing
      const again = document.getElementById(focusedId);
      const heading = document.getElementById("lobby-title");
      heading.setAttribute("tabindex", "-1");
      const next = again || (this.joinName.isConnected ? this.joinName : document.getElementById("start-now") || heading);
      next.focus();
      if (next === this.joinName && !again) this.joinName.select();
    }
  }

  async join(seat) {
    const name = (this.joinName && this.joinName.value || "").trim();
    if (!name) {
      this.markJoinName("Give your name first: 1-20 characters.");
      return;
    }
    const reply = await this.socket.send({ type: "join", seat, name, token: tokenFor(this.id) || undefined });
    if (reply.type === "joined") {
      setToken(this.id, reply.token);
      this.socket.setToken(reply.token);
      setLastName(name);
      // (the field is for the next person at this screen: not this one's name again)
      if (this.joinName && this.joinName.value.trim() === name) this.joinName.value = "";
      if (this.joinError) this.markJoinName(null);
      announce(`You took seat ${this.seatNumber(seat)} as ${name}.`);
    } else if (reply.type === "error" && /\bname\b/i.test(reply.message || "")) {
      this.markJoinName(reply.message);
    } else if (reply.type === "error") {
      toast(reply.message);
    }
  }

  /** Say under the lobby's name field what is wrong with the name in it, and go there
   * to put it right (null: the field is fine again). */
  markJoinName(message) {
    this.joinError = message;
    if (this.lobby) this.drawLobby(this.lobby);
    if (message && this.joinName && this.joinName.isConnected) {
      this.joinName.focus();
      this.joinName.select();
    }
  }

  async startNow() {
    const reply = await this.socket.send({ type: "start" });
    if (reply.type === "error") toast(reply.message);
  }

  connectedSeats() {
    const on = new Set();
    for (const p of this.presence) for (const s of p.seats || []) on.add(s);
    return on;
  }

  presenceLine() {
    const watchers = this.presence.reduce((n, p) => n + (p.watchers || 0), 0);
    const names = this.presence.flatMap((p) => p.names || []);
    const text = `Here now: ${names.length ? listText(names) : "no player"}${watchers ? ` · ${plural(watchers, "watcher")}` : ""}`;
    return h("p", { class: "presence", text });
  }

  // --- the game -------------------------------------------------------------------
  buildGame(snap) {
    if (this.cards) this.cards.destroy();
    this.analysis = null;
    this.cards = new ScoreCards((category, column) => this.score(category, column));
    rules(snap.ruleset.id, snap.ruleset.options).then((r) => {
      this.rulesData = r;
      if (r.upper_bonus && this.cards) {
        this.cards.setBonus(r.upper_bonus);
        if (this.snap) this.cards.render(this.snap, !this.endShown());
      }
    }).catch(() => {});
    const n = snap.ruleset.dice;
    this.dice = [];
    for (let i = 0; i < n; i += 1) {
      const svg = dieSvg(0);
      const key = i < 9 ? String(i + 1) : "0";
      const keyLabel = h("span", { class: "die-key", "aria-hidden": "true", data: { key } }, h("span", { class: "key-letter", text: key }));
      const btn = h("button", { type: "button", class: "die", data: { index: i }, aria: { pressed: "false", keyshortcuts: key },
        onclick: () => this.clickDie(i),
        onkeydown: (e) => this.dieKey(e, i) },
      h("span", { class: "die-lift" }, svg, rerollBadge()), keyLabel);
      this.dice.push({ btn, svg, key: keyLabel });
    }
    this.turnLine = h("p", { class: "turn-line", id: "turn-line" });
    this.diceRow = h("div", { class: ["dice", n > 6 ? "dice-many" : ""], role: "group", aria: { label: "Dice" } }, this.dice.map((d) => d.btn));
    this.diceRow.style.setProperty("--dice", String(n)); // (the CSS shares the row's width by it)
    this.dots = h("div", { class: "rolls-left" });
    this.rollBtn = h("button", { type: "button", class: "btn btn-roll", id: "roll", aria: { keyshortcuts: "r" }, onclick: (e) => { if (e.detail <= 1) this.rollOrGoOn(); } }, "Roll");
    this.oopsBtn = h("button", { type: "button", class: "btn btn-felt", id: "oops", aria: { keyshortcuts: "o" }, onclick: () => this.oops() }, "Oops");
    this.hintBtn = h("button", { type: "button", class: "btn btn-felt", id: "hint", aria: { keyshortcuts: "h" }, onclick: () => this.hint() }, "Hint");
    this.selectBtns = h("div", { class: "select-row", role: "group", aria: { label: "Choose dice" } },
      [["all", "a"], ["singlets", "s"], ["none", "n"]].map(([which, key]) =>
        h("button", { type: "button", class: "btn btn-felt btn-small", data: { select: which }, aria: { keyshortcuts: key },
          onclick: () => this.select(which) }, SELECT_WORDS.reroll[which])));
    this.help = h("p", { class: "help-line", id: "help-line" });
    this.note = h("p", { class: "note-line" });
    this.playedFor = h("p", { class: "note-line played-for", id: "played-for", hidden: true });
    this.progress = h("div", { class: "thinking", hidden: true });
    this.news = h("ol", { class: "news", aria: { label: "What happened" } });
    this.presenceBox = h("div", { class: "presence-box" });
    if (this.clock) this.clock.stop();
    this.clock = new TurnClock();
    // (each part of the table a heading of its own, to go to by a screen reader's keys)
    this.felt = h("section", { class: "felt", aria: { labelledby: "felt-title" } },
      h("h2", { class: "sr-only", id: "felt-title", text: "The dice" }), this.clock.el, this.turnLine, this.diceRow,
      h("div", { class: "felt-controls" }, this.dots, this.selectBtns),
      h("div", { class: "felt-actions" }, this.rollBtn, this.oopsBtn, this.hintBtn),
      this.help, this.note, this.playedFor, this.progress);
    this.endPanel = h("section", { class: "end-panel", hidden: true, aria: { labelledby: "end-title" } });
    this.side = h("div", { class: "game-side" }, this.felt, this.endPanel, this.reactionRow());
    const log = h("section", { class: "log-box", aria: { labelledby: "log-title" } },
      h("h2", { class: "small-head", id: "log-title", text: "At the table" }), this.presenceBox, this.news);
    this.cardsPanel = h("section", { class: "cards-panel", aria: { labelledby: "cards-title" } },
      h("h2", { class: "sr-only", id: "cards-title", text: "Score cards" }), this.cards.el);
    this.game = h("div", { class: "game" }, this.side, this.cardsPanel, log);
    fill(this.body, this.game);
    this.gameKey = JSON.stringify([snap.game_id, snap.ruleset.key, snap.players.map((p) => p.name)]);
  }

  drawGame(snap) {
    const prev = this.snap;
    const key = JSON.stringify([snap.game_id, snap.ruleset.key, snap.players.map((p) => p.name)]);
    const focused = document.activeElement;
    const focusInside = focused && focused !== document.body && this.body.contains(focused);
    const fresh = !this.game || this.gameKey !== key || !this.game.isConnected;
    if (fresh) this.buildGame(snap);
    // a game drawn anew (opened, or the next one after Play again) says whose turn it is,
    // as a turn passed does: no event tells its first turn
    if (fresh && !snap.over) announce(turnWords(snap.players[snap.current]));
    this.lobby = null;
    this.snap = snap;
    // what this page shows (the tests wait on it); this browser's games and their tables
    this.game.dataset.version = String(snap.version);
    this.game.dataset.over = String(snap.over);
    const rs = snap.ruleset;
    const me = snap.players[snap.current];
    const myTurn = Boolean(snap.seat && snap.seat.my_turn);
    document.title = snap.over ? `${rs.name}: game over` : `${myTurn ? "Your" : possessive(me.name, true)} turn · ${rs.name}`;
    setText(this.title, rs.name);
    const chips = [];
    if (snap.demo) chips.push(h("span", { class: "chip", text: "demo" }));
    // a daily challenge says so while it is played (not only at its end): the same dice for everyone
    if (snap.daily) chips.push(h("span", { class: "chip chip-daily", title: `The challenge of ${snap.daily} (UTC): the same dice for everyone`, text: "daily challenge" }));
    if (snap.assisted) {
      const names = (snap.assisted_players || []).map((i) => snap.players[i].mine ? "you" : snap.players[i].name);
      const allMine = names.length && names.every((n) => n === "you");
      chips.push(h("span", { class: "chip chip-warn", title: "Their scores go to the list apart from the top ten",
        text: allMine || !names.length ? "assisted" : `assisted: ${listText(names)}` }));
    }
    if (snap.dice_entered) chips.push(h("span", { class: "chip chip-warn", text: "dice entered" }));
    if (!snap.seat) chips.push(h("span", { class: "chip", text: "watching" }));
    fill(this.chips, chips);
    this.drawKeyless(Boolean(snap.seat));
    const computers = snap.players.some((p) => p.kind === "computer");
    this.speedBox.hidden = !computers;
    if (document.activeElement !== this.speedSelect) this.speedSelect.value = snap.speed;
    const mayPace = this.mayPace(snap);
    this.speedSelect.hidden = !mayPace;
    this.speedText.hidden = mayPace;
    setText(this.speedText, snap.speed[0].toUpperCase() + snap.speed.slice(1));
    // a player's own way with the dice (a watcher's clicks do nothing)
    this.markBox.hidden = !snap.seat || snap.over;
    const variantWay = this.markSelect.querySelector('option[value="variant"]');
    setText(variantWay, markWords("variant", rs.dice_mark));
    if (document.activeElement !== this.markSelect) this.markSelect.value = diceMark();
    // the saved game went on elsewhere: this table is not saved any more
    if (snap.elsewhere && this.elsewhere.dataset.text !== snap.elsewhere) {
      this.elsewhere.dataset.text = snap.elsewhere;
      fill(this.elsewhere, h("span", { text: snap.elsewhere }),
        h("button", { type: "button", class: "btn btn-small", onclick: () => window.location.reload() }, "Reload"));
    }
    this.elsewhere.hidden = !snap.elsewhere;
    if (snap.warning && snap.warning !== this.warned) {
      this.warned = snap.warning;
      toast(snap.warning, "warn", 6);
    }

    this.drawDice(snap);
    this.drawControls(snap, myTurn);
    this.cards.render(snap, !this.endShown(snap));
    this.bonusSounds(prev, snap);
    fill(this.news, snap.news.slice(-4).map((line) => h("li", { text: line })));
    this.drawOnline(snap);
    this.drawEnd(snap);
    this.drawAway(snap);
    if (focusInside && !focused.isConnected) {
      // the focused box was scored: go on from the Roll button (or the results)
      const target = this.endShown() ? document.getElementById("end-title") : this.rollBtn;
      if (target) target.focus();
    }
  }

  /** The turn clock, who is at the table (the vote for an absent player's seat), the
   * series at this link (online.js). */
  drawOnline(snap) {
    this.clock.update(snap, announce);
    const view = this.online;
    if (!view || !view.seats) {
      fill(this.presenceBox, this.presenceLine());
      return;
    }
    const draw = () => {
      if (!this.snap || this.online !== view) return;
      fill(this.presenceBox, this.presenceLine());
      const box = h("div", { class: "online-seats" });
      drawSeats(box, { ...view, may_vote: Boolean(this.snap.seat) || view.host }, this.snap,
        (seat, on) => this.vote(seat, on), this.onlineAt);
      this.presenceBox.append(box);
    };
    draw();
    if (this.seatsTimer) window.clearInterval(this.seatsTimer);
    this.seatsTimer = view.seats.some((s) => s.absent !== null && !s.away) ? window.setInterval(draw, 1000) : null;
  }

  async vote(seat, on) {
    const reply = await this.socket.send({ type: "away", seat, on });
    if (reply.type === "error") toast(reply.message);
    else announce(on ? "Vote sent." : "Vote taken back.");
  }

  async again(kind) {
    const reply = await this.socket.send({ type: kind });
    if (reply.type === "error") toast(reply.message);
  }

  drawDice(snap) {
    const showing = snap.dice.length ? snap.dice : snap.last_score ? snap.last_score.dice : [];
    const dim = !snap.dice.length;
    const marks = snap.dice.length ? snap.marks : [];
    const canChoose = snap.can.choose;
    const rolling = this.rolling;
    this.rolling = null;
    this.diceRow.dataset.mark = snap.dice_mark; // (what a click does here: the tests read it)
    this.dice.forEach((d, i) => {
      const value = showing[i] || 0;
      const isChosen = marks[i] === "roll";
      const isHeld = marks[i] === "held";
      d.btn.classList.toggle("is-chosen", isChosen);
      d.btn.classList.toggle("is-held", isHeld);
      d.btn.classList.toggle("is-dim", dim);
      d.btn.classList.toggle("is-blank", !value);
      d.key.classList.toggle("is-held", isHeld); // ("Hold" before the key: the CSS's)
      setAttr(d.btn, "aria-pressed", isChosen || isHeld ? "true" : "false");
      setAttr(d.btn, "aria-disabled", canChoose ? null : "true");
      const colour = (value && snap.ruleset.die_colours[value - 1]) || "";
      const hue = colour ? ` (${colour})` : "";
      const what = value ? (dim ? `showed ${value}${hue} (last turn)` : `showing ${value}${hue}`) : "not rolled yet";
      setAttr(d.btn, "aria-label", `Die ${i + 1}, ${what}${isChosen ? ", chosen to roll again" : isHeld ? ", held" : ""}`);
      if (rolling && rolling.positions.includes(i) && value) this.animateDie(d, i);
      else if (!this.animations.has(i)) drawDie(d.svg, value, colour);
    });
  }

  animateDie(d, i) {
    if (reducedMotion()) {
      drawDie(d.svg, this.currentDie(i), this.dieColour(this.currentDie(i)));
      return;
    }
    if (this.animations.has(i)) window.clearInterval(this.animations.get(i));
    d.btn.classList.remove("rolling");
    void d.btn.offsetWidth; // restart the CSS animation
    d.btn.classList.add("rolling");
    const faces = (this.snap && this.snap.ruleset.faces) || 6;
    const started = performance.now();
    const timer = window.setInterval(() => {
      if (performance.now() - started >= ROLL_ANIMATION_MS) {
        window.clearInterval(timer);
        this.animations.delete(i);
        d.btn.classList.remove("rolling");
        drawDie(d.svg, this.currentDie(i), this.dieColour(this.currentDie(i)));
        return;
      }
      drawDie(d.svg, 1 + Math.floor(Math.random() * Math.min(faces, 9)));
    }, 70);
    this.animations.set(i, timer);
  }

  /** The colour of a face on coloured dice (Kismet), else "". */
  dieColour(value) {
    return (value && this.snap && this.snap.ruleset.die_colours[value - 1]) || "";
  }

  currentDie(i) {
    const snap = this.snap;
    if (!snap) return 0;
    const showing = snap.dice.length ? snap.dice : snap.last_score ? snap.last_score.dice : [];
    return showing[i] || 0;
  }

  drawControls(snap, myTurn) {
    const rs = snap.ruleset;
    const me = snap.players[snap.current];
    let turn;
    if (snap.over) turn = "Game over";
    else if (myTurn) turn = `${snap.players.filter((p) => p.mine).length > 1 ? `${me.name}, your` : "Your"} turn · turn ${snap.turn} of ${snap.turns}`;
    else turn = `${possessive(me.name, true)} turn${me.kind === "computer" ? ` (${me.level || "computer"})` : ""} · turn ${snap.turn} of ${snap.turns}`;
    setText(this.turnLine, turn);
    this.turnLine.classList.toggle("mine", myTurn);

    // rolls left as dots (filled: still to roll)
    // with saved rolls to use: the turn's own as dots, then "+ 4 saved" (Maxi Yatzy)
    const left = snap.over ? 0 : snap.rolls_left;
    const saved = snap.over ? 0 : snap.saved_rolls;
    const own = left - saved;
    const most = saved ? rs.rolls : snap.max_rolls;
    const key = `${left}/${snap.max_rolls}/${saved}`;
    if (this.dots.dataset.key !== key) {
      this.dots.dataset.key = key;
      const dots = [];
      for (let i = 0; i < most; i += 1) dots.push(h("span", { class: ["dot", i < own ? "full" : ""] }));
      const label = saved ? `${plural(left, "roll")} left: ${snap.rolls_text}` : `${plural(left, "roll")} left of ${snap.max_rolls}`;
      fill(this.dots, h("span", { class: "dots-label", "aria-hidden": "true", text: "Rolls" }),
        h("span", { class: "dot-row", role: "img", aria: { label } }, dots),
        saved ? h("span", { class: "saved-rolls", "aria-hidden": "true", text: `+ ${saved} saved` }) : null);
    }

    // the big button: roll, or go on (its words and state are the table's)
    const { label, enabled } = snap.button;
    setText(this.rollBtn, label);
    setAttr(this.rollBtn, "aria-disabled", enabled ? null : "true");
    this.rollBtn.classList.toggle("is-go-on", snap.pause !== null);
    const choosing = snap.can.choose;
    this.selectBtns.hidden = !choosing;
    const words = SELECT_WORDS[snap.dice_mark] || SELECT_WORDS.reroll;
    const titles = SELECT_TITLES[snap.dice_mark] || SELECT_TITLES.reroll;
    for (const b of this.selectBtns.querySelectorAll("button")) {
      setText(b, words[b.dataset.select]);
      setAttr(b, "title", titles[b.dataset.select]);
    }
    setAttr(this.selectBtns, "aria-label", snap.dice_mark === "hold" ? "Hold dice" : "Choose dice");
    this.oopsBtn.hidden = !(snap.can.give_back || this.canTakeBack(snap));
    this.hintBtn.hidden = !snap.can.hint;
    setText(this.help, othersHelp(snap) || snap.help);
    setText(this.note, snap.note);
    // (the help line of the player on turn says the note already: said once)
    this.note.hidden = !snap.note || this.help.textContent.includes(snap.note);
    const playedFor = playedForYou(snap);
    setText(this.playedFor, playedFor);
    this.playedFor.hidden = !playedFor;
    if (snap.thinking) {
      const t = snap.thinking;
      const pct = t.total > 0 ? Math.floor((100 * t.done) / t.total) : 0;
      fill(this.progress, h("span", { text: t.what }),
        t.total > 0 ? h("progress", { max: t.total, value: t.done, aria: { label: t.what } }, `${pct}%`) : null);
      this.progress.hidden = false;
    } else {
      this.progress.hidden = true;
    }
    this.felt.classList.toggle("is-my-turn", myTurn);
  }

  bonusSounds(prev, snap) {
    if (!prev || prev.game_id !== snap.game_id) return;
    snap.cards.forEach((card, i) => {
      const was = (prev.cards[i] && prev.cards[i].cells.upper_bonus) || [];
      const now = card.cells.upper_bonus || [];
      if (now.some((v, c) => Number.parseInt(v, 10) > 0 && !(Number.parseInt(was[c], 10) > 0))) {
        sound.play("bonus");
        announce(`${snap.players[i].name} earned the upper bonus.`);
      }
    });
  }

  // --- reactions, and "your turn" wherever the player is (reactions.js, notify.js) ----
  mountAway() {
    this.unmanifest = tableManifest(this.id); // (a phone's home screen opens this table)
  }

  unmountAway() {
    this.notifier.destroy();
    this.unmanifest();
    if (this.reactionBar) this.reactionBar.destroy();
  }

  /** The reaction buttons and where a watcher's reactions show, under the felt (in
   * sight on a phone too). */
  reactionRow() {
    if (this.reactionBar) this.reactionBar.destroy();
    this.reactionBar = new ReactionBar((reaction) => this.socket.send({ type: "react", reaction }));
    this.watcherReactions = h("span", { class: "watcher-reactions" });
    return h("div", { class: "reaction-row" }, this.reactionBar.el, this.watcherReactions);
  }

  drawAway(snap) {
    this.reactionBar.show(this.reactionsOn && this.someoneElseHere(snap));
    this.notifier.update(snap);
  }

  /** Another browser is at the table (a player or a watcher): reactions have someone to
   * reach (at a game of this screen and computers alone, the buttons stay away). */
  someoneElseHere(snap) {
    const mine = JSON.stringify(snap.players.flatMap((p, i) => (p.mine ? [i] : [])));
    return this.presence.some((p) => {
      const seats = Array.isArray(p.seats) ? p.seats : [];
      if (seats.length) return JSON.stringify([...seats].sort((a, b) => a - b)) !== mine;
      return (p.watchers || 0) > (mine === "[]" ? 1 : 0);
    });
  }

  // --- what the player does (each a step of the queue: see later()) ------------------
  rollOrGoOn() {
    // A second click on Roll with nothing done between and no new table seen since the
    // first is the same roll: ignored (the first roll's dice are shown); the second click
    // of a double-click (detail 2) is ignored by the button itself, however fast the
    // first roll's answer came.
    const seen = this.snap ? this.snap.version : null;
    if (seen !== null && this.lastKind === "roll" && this.rollSeen === seen) return;
    this.rollSeen = seen;
    this.later(async () => {
      const done = await this.rollStep();
      if (!done) this.rollSeen = null;
      return done;
    }, "roll");
  }

  async rollStep() {
    {
      const snap = this.snap;
      if (!snap) return false;
      if (snap.pause !== null) {
        if (snap.can.go_on) return this.send({ type: "go_on" });
        toast("Waiting for a player to go on", "info", 2);
        return false;
      }
      if (snap.over) return false;
      if (snap.dice.length && !snap.to_roll.length && snap.can.choose) {
        const keys = snap.dice.length < 10 ? `1-${snap.dice.length}` : "1-9/0";
        const words = SELECT_WORDS[snap.dice_mark] || SELECT_WORDS.reroll;
        toast(snap.dice_mark === "hold"
          ? `Every die is held: release one to roll it (${byDevice(`${keys}, n, or click it`, `tap it, or ${words.none}`)}), or score`
          : `Choose the dice to roll again first (${byDevice(`${keys}, a, s, or click them`, `tap them, or ${words.all}`)})`, "info");
        return false;
      }
      if (!snap.can.roll && snap.dice.length && !snap.can.choose && snap.can.score) {
        toast("No roll left: score a box", "info");
        return false;
      }
      return this.send({ type: "roll" });
    }
  }

  clickDie(i) {
    this.later(async () => {
      const snap = this.snap;
      if (!snap) return false;
      if (snap.can.choose) return this.send({ type: "toggle", position: i });
      if (!snap.dice.length && snap.can.roll) return this.send({ type: "roll" });
      if (snap.seat && snap.seat.my_turn && snap.dice.length) toast("No roll left: score a box", "info", 2);
      return false;
    });
  }

  dieKey(e, i) {
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      const n = this.dice.length;
      this.dice[(i + (e.key === "ArrowLeft" ? n - 1 : 1)) % n].btn.focus();
    } else if (e.key === "Enter") {
      e.preventDefault();
      e.stopPropagation();
      this.rollOrGoOn();
    }
  }

  select(which) {
    this.later(() => this.send({ type: "select", which }));
  }

  score(category, column) {
    this.later(() => this.send({ type: "score", category, column }));
  }

  /** The Oops dialog, opened once the steps before it are done (it shows what may be undone then). */
  oops() {
    this.later(async () => {
      const snap = this.snap;
      if (!snap) return false;
      const notMine = notYourTurn(snap);
      if (notMine && !snap.can.give_back && !this.canTakeBack(snap)) {
        toast(notMine, "info", 3);
        return false;
      }
      const undo = (type) => () => this.later(() => this.send({ type }));
      openDialog({
        title: "Oops",
        body: [h("p", { text: "Undo a slip (a roll can never be taken back)." })],
        actions: [
          { label: snap.dice_mark === "hold" ? "Give me back my dice (hold none)" : "Give me back my dice", disabled: !snap.can.give_back, data: { oops: "give_back" }, onclick: undo("give_back") },
          { label: "I scored the wrong box", disabled: !this.canTakeBack(snap), data: { oops: "take_back" }, onclick: undo("take_back") },
          { label: "Never mind" },
        ],
      });
      return true;
    });
  }

  /** The hint (a step too: "r h" typed at once asks about the dice just rolled). */
  hint() {
    this.later(async () => {
      const snap = this.snap;
      if (!snap) return false;
      if (!snap.can.hint) {
        toast(notYourTurn(snap) || (snap.dice.length ? "A hint is for your own turn" : "Roll first: the hint is about the dice showing"), "info", 3);
        return false;
      }
      if (this.hintBox) return true;
      if (snap.hint_notice) {
        // the game's first hint: what it does to the game is said before, not after
        openDialog({
          title: "Hint", id: "hint-confirm",
          body: [h("p", { text: snap.hint_notice })],
          actions: [
            { label: "Show the hint", primary: true, data: { hint: "yes" }, onclick: () => this.later(async () => {
              if (!this.hintBox && this.snap && this.snap.can.hint) this.askHint(this.snap);
              return true;
            }) },
            { label: "Never mind" },
          ],
        });
        return true;
      }
      this.askHint(snap); // (its answer is not waited for)
      return true;
    });
  }

  async askHint(snap) {
    const version = snap.version;
    const body = h("div", { class: "hint-body" }, h("p", { class: "hint-wait", text: "Asking the advisor…" }));
    this.hintBody = body;
    this.hintBox = openDialog({
      title: "Hint: the advisor's ranking", wide: true, id: "hint-dialog",
      body: [body], onclose: () => { this.hintBox = null; },
    });
    const box = this.hintBox;
    const reply = await this.socket.send({ type: "hint" }, 300000); // a first hint may build tables
    if (this.hintBox !== box) return;
    if (reply.type !== "hint") {
      fill(body, h("p", { text: noHintText(reply.message) }));
      return;
    }
    const moves = reply.moves || [];
    const win = reply.to_win && reply.to_win.differ && reply.to_win.moves.length ? reply.to_win : null;
    const play = (m) => this.playHint(m, version);
    const best = moves.length ? moves[0].expected : 0;
    const forScore = h("ol", { class: "hint-list", aria: { labelledby: win ? "hint-score-title" : null, label: win ? null : "Moves, best first" } },
      moves.map((m) => hintItem(m, m.loss < 0.005 ? "best" : "",
        [h("span", { class: "hint-exp", text: `expect ${m.expected.toFixed(1)}` }),
          h("span", { class: "hint-loss", text: m.loss < 0.005 ? "best" : `−${m.loss.toFixed(1)}` })], play)));
    const note = h("p", { class: "muted", text: `Expected final total with the best move: ${best.toFixed(1)}. Each other move shows what it loses on average.` });
    const assisted = reply.marked ? h("p", { class: "assisted-note", text: "Your score is now marked assisted: it goes to the assisted top ten, apart from the others'." }) : null;
    const how = h("p", { class: "muted", text: `${byDevice("Press a move (or Tab to it, Enter)", "Tap a move")} to play it: a keep rolls the other dice again.` });
    if (win) {
      const top = win.moves[0].chance;
      const toWin = h("ol", { class: "hint-list hint-win", aria: { labelledby: "hint-win-title" } },
        win.moves.map((m) => hintItem(m, m.chance >= top - 1e-9 ? "best" : "",
          [h("span", { class: "hint-chance", text: `chance ${percent(m.chance)}` })], play)));
      fill(body,
        h("h3", { class: "hint-head", id: "hint-score-title", text: "Best for your score" }), forScore, note,
        h("h3", { class: "hint-head", id: "hint-win-title", text: win.title }),
        h("p", { class: "hint-how", text: `${sentence(win.how[0].toUpperCase() + win.how.slice(1))}` }), toWin,
        how, assisted);
    } else {
      const same = reply.to_win && reply.to_win.moves.length ? reply.to_win : null;
      const wait = reply.to_win && reply.to_win.preparing != null ? reply.to_win : null;
      const also = same ? h("p", { class: "hint-how", text: `${same.title} too: chance ${percent(same.moves[0].chance)}; ${same.how}.` })
        : wait ? h("p", { class: "hint-how", text: `${wait.title}: ${wait.how}.` }) : null;
      fill(body, forScore, note, also, how, assisted);
    }
    const first = body.querySelector(".hint-play");
    const focus = document.activeElement;
    if (first && (!focus || focus === document.body || focus.classList.contains("btn-icon"))) first.focus();
    announce(win ? `Hint: best for your score ${moves[0].text}; ${win.title.toLowerCase()} ${win.moves[0].text}, chance ${percent(win.moves[0].chance)}.`
      : `Hint: best ${moves.length ? moves[0].text : "nothing"}.`);
  }

  /** Play a move of the hint: a keep chooses exactly its dice and rolls them; a box scores. */
  playHint(m, version) {
    if (this.hintBox) this.hintBox.close();
    this.later(async () => {
      if (m.category) return this.send({ type: "score", category: m.category, column: m.column }, version);
      return await this.send({ type: "choose", dice: m.reroll }, version) && this.send({ type: "roll" });
    });
  }

  toggleSound() {
    sound.toggle();
    this.drawSound();
    announce(sound.isOn() ? "Sound on" : "Sound off");
  }

  drawSound() {
    const on = sound.isOn();
    setText(this.soundBtn, on ? "♪ Sound on" : "♪ Sound off");
    setAttr(this.soundBtn, "aria-pressed", on ? "true" : "false");
    setAttr(this.soundBtn, "aria-keyshortcuts", "b");
  }

  /** What a click on a die does, from the bar or the keys' dialog: remembered here, and
   * the server told (it changes no die: only what this browser's clicks mean). */
  setMark(value) {
    setDiceMark(value);
    this.markSelect.value = value;
    this.later(async () => {
      const reply = await this.socket.send({ type: "prefs", dice_mark: value });
      if (reply.type === "error") toast(reply.message);
      return reply.type === "ack";
    });
  }

  /** The Next player pause after this browser's player scores, before a computer plays. */
  setPause(on) {
    setComputerPause(on);
    this.later(async () => {
      const reply = await this.socket.send({ type: "prefs", pause: on });
      if (reply.type === "error") toast(reply.message);
      return reply.type === "ack";
    });
  }

  async setSpeed(speed) {
    const reply = await this.socket.send({ type: "speed", speed });
    if (reply.type === "error") toast(reply.message);
    return reply.type === "ack";
  }

  /** Who sets the computers' pace (the server's rule, for the menu and + / - alike): a
   * player at the table, or the browser that made it (a demo's has no seat). */
  mayPace(snap = this.snap) {
    return Boolean(snap && (snap.seat || this.host));
  }

  stepSpeed(step) {
    this.later(async () => {
      const snap = this.snap;
      if (!snap || !snap.players.some((p) => p.kind === "computer")) return true;
      if (!this.mayPace(snap)) {
        toast("Only a player at the table, or whoever started it, sets the computers' pace", "info", 3);
        return false;
      }
      const i = SPEEDS.indexOf(snap.speed);
      const next = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + step))];
      return next === snap.speed || this.setSpeed(next);
    });
  }

  /** ? and F1 (and the bar's Keys): the keys and the box letters, all in view at once,
   * and this browser's settings; the rules are one step further (the dialog's button). A
   * page with no keys to tell (`keyless`: a watcher's, a touch-only screen's unless ? or
   * F1 was `typed` on it) has the settings alone. */
  showKeys(typed = false) {
    const name = this.snap ? this.snap.ruleset.name : this.lobby ? this.lobby.name : null;
    if (!name) return;
    const letters = this.snap ? this.snap.rows.filter((row) => row.letter) : [];
    const mark = this.snap ? this.snap.dice_mark : "reroll";
    const variantMark = this.snap ? this.snap.ruleset.dice_mark : null;
    // the two settings of this browser's play (also in the new game's form)
    const markChoice = h("select", { id: "keys-mark", onchange: () => this.setMark(markChoice.value) },
      DICE_MARKS.map(([k]) => h("option", { value: k, selected: k === diceMark() }, markWords(k, variantMark))));
    const pause = h("input", { type: "checkbox", id: "keys-pause", checked: computerPause(), onchange: () => this.setPause(pause.checked) });
    const settings = [
      h("div", { class: "field" }, h("label", { for: "keys-mark", text: markLabel() }), markChoice),
      h("div", { class: "field check" }, pause,
        h("label", { for: "keys-pause", text: "Pause after my score, before a computer plays (time for Oops)" })),
      h("p", { class: "muted", text: "This browser remembers them (the new game's form has them too)." })];
    const keyless = this.keyless(typed);
    openDialog({
      title: keyless ? "Settings" : "Keys", wide: !keyless, id: "keys-dialog",
      body: keyless ? settings : [
        h("dl", { class: "keys-help" }, keysHelp(mark, this.snap ? this.snap.ruleset.dice : 10, this.snap ? this.snap.ruleset.columns.length : 2).map(([k, what]) => [h("dt", { text: k }), h("dd", { text: what })])),
        letters.length ? h("p", { class: "muted", text: `Box letters: ${letters.map((row) => `${row.letter} ${row.label}`).join(" · ")}` }) : null,
        h("details", { class: "keys-settings" },
          h("summary", { text: `Settings: ${markLabel().toLowerCase()}, the pause before a computer` }), settings),
      ],
      // (the dialog closes first: the rules' dialog gives the focus back where it was)
      actions: [{ label: `The rules of ${name}`, primary: true, onclick: () => this.showRules() }],
    });
  }

  /** The bar's Rules: the variant's rules, the keys one step from them. */
  async showRules() {
    const ids = this.snap ? [this.snap.ruleset.id, this.snap.ruleset.options]
      : this.lobby ? [this.lobby.variant, this.lobby.options] : null;
    if (!ids) return;
    try {
      const r = await rules(ids[0], ids[1]);
      const keyless = this.keyless();
      const box = rulesDialog(`Rules: ${r.name}`, r.text, [], [
        h("p", { class: "rules-lead" }, h("button", { type: "button", class: "btn btn-small",
          onclick: () => { box.close(); this.showKeys(); } }, keyless ? "Settings" : "The keys"),
        keyless ? null : h("span", { class: "muted", text: " ? or F1 at the table" })),
      ]);
    } catch (e) {
      toast(e.message);
    }
  }

  // --- keys -----------------------------------------------------------------------
  /** The keys (a card's letters, the dice's, the bar's Keys, the keys' list) are for a
   * keyboard at a seat: a watcher's page (`seated` false) and a screen that only takes
   * touches have none (style.css's .keyless; showKeys shows the settings alone). */
  drawKeyless(seated) {
    this.seated = seated;
    this.el.classList.toggle("keyless", this.keyless());
  }

  /** No keys to tell this page: a watcher's, or a screen that only takes touches (one a
   * key was `typed` on has a keyboard after all). */
  keyless(typed = false) {
    return !this.seated || (touchOnly() && !typed);
  }

  key(e) {
    if (dialogOpen() || e.defaultPrevented) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    const k = e.key;
    if (e.repeat && k !== "Tab") return; // a key held down acts once
    if (k === "?" || k === "F1") {
      e.preventDefault();
      this.showKeys(true);
      return;
    }
    if (k === "b" || k === "B") {
      this.toggleSound();
      return;
    }
    const snap = this.snap;
    if (!snap) return;
    if (this.endShown()) {
      if (k === "p") this.playAgain();
      else if (k === "n") this.navigate("/");
      else if (k === "a") this.toggleAnalysis();
      return;
    }
    if (k === "Enter") {
      const tag = t && t.tagName;
      if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return; // the control acts
      e.preventDefault();
      this.rollOrGoOn();
      return;
    }
    if (k === "F1") return;
    if (/^[0-9]$/.test(k)) {
      const i = k === "0" ? 9 : Number(k) - 1;
      if (i < snap.ruleset.dice) {
        e.preventDefault();
        this.clickDie(i);
      }
      return;
    }
    const plain = { r: () => this.rollOrGoOn(), a: () => this.select("all"), s: () => this.select("singlets"),
      n: () => this.select("none"), o: () => this.oops(), h: () => this.hint(),
      "+": () => this.stepSpeed(1), "=": () => this.stepSpeed(1), "-": () => this.stepSpeed(-1) };
    if (plain[k]) {
      e.preventDefault();
      plain[k]();
      return;
    }
    if (k.length === 1 && /[a-z]/i.test(k)) {
      const row = snap.rows.find((r) => r.letter === k) || snap.rows.find((r) => r.letter === k.toLowerCase());
      if (!row) return;
      e.preventDefault();
      const two = snap.ruleset.columns.length > 1;
      this.score(row.category, e.shiftKey && two ? 1 : null);
    }
  }

  // --- events: sounds, the roll animation, the live region -------------------------
  event(ev) {
    const snap = this.snap;
    const names = snap ? snap.players.map((p) => p.name) : [];
    const who = ev.player !== null && ev.player !== undefined ? names[ev.player] || "" : "";
    const d = ev.data || {};
    switch (ev.kind) {
      case "rolled": {
        this.rolling = { positions: d.positions || [], player: ev.player };
        sound.play("roll", (d.positions || []).length);
        const dice = d.dice || [];
        if (dice.length > 1 && dice.every((v) => v === dice[0])) window.setTimeout(() => sound.play("yacht"), 420);
        const all = !snap || (d.positions || []).length === dice.length;
        const which = all ? "" : ` dice ${listText((d.positions || []).map((p) => p + 1))} again`;
        const left = d.rolls_left === 0 ? " No roll left." : ` ${plural(d.rolls_left, "roll")} left.`;
        announce(`${who} rolled${which}: ${dice.join(" ")}.${left}`);
        break;
      }
      case "chosen":
        if (ev.text) announce(sentence(ev.text));
        else if (snap && snap.players[ev.player] && snap.players[ev.player].mine) {
          const chosen = (d.chosen || []).map((p) => p + 1);
          announce(chosen.length ? `To roll again: ${chosen.length === 1 ? "die" : "dice"} ${listText(chosen)}.` : "No dice chosen.");
        }
        break;
      case "scored":
        sound.play(d.bonus > 0 ? "bonus" : d.total === 0 ? "zero" : "score");
        announce(`${sentence(ev.text)}${d.grand !== undefined ? ` Total ${d.grand}.` : ""}`);
        break;
      case "turn_passed": {
        const next = snap && snap.players[ev.player];
        if (next) announce(turnWords(next));
        break;
      }
      case "paused":
        if (d.pause === "next_player" && snap && snap.seat) announce(`${byDevice("Go on (Enter)", "Go on")} for the next player's turn, or Oops to take the score back.`);
        break;
      case "game_over":
        sound.play("end");
        announce("Game over.");
        break;
      case "computer_failed":
      case "store_warning":
      case "elsewhere":
        toast(ev.text, "warn", 6);
        announce(sentence(ev.text));
        break;
      case "gave_back":
      case "took_back":
        if (ev.text) announce(sentence(ev.text));
        break;
      case "assisted": {
        const who = snap && snap.players[ev.player];
        announce(!who || who.mine ? "Your game is now marked assisted." : `${possessive(who.name, true)} game is now marked assisted.`);
        break;
      }
      case "held":
        if (snap && snap.players[ev.player] && snap.players[ev.player].mine) {
          const held = (d.held || []).map((p) => p + 1);
          announce(held.length ? `Held: ${held.length === 1 ? "die" : "dice"} ${listText(held)}.` : "No die held.");
        }
        break;
      case "speed":
        if (this.snap) announce(`Computer speed: ${d.speed}.`);
        break;
      case "computer_thinking":
      case "computer_progress":
        // the advisor's first hint of a variant builds its tables: say how far
        if (this.hintBox && this.hintBody) {
          const wait = this.hintBody.querySelector(".hint-wait");
          const pct = d.total > 0 ? ` ${Math.floor((100 * d.done) / d.total)}%` : "";
          if (wait && d.what) setText(wait, `${d.what}…${pct}`);
        }
        break;
      default:
        break;
    }
  }

  // --- the end ----------------------------------------------------------------------
  endShown(snap = this.snap) {
    return Boolean(snap && snap.over && (snap.finished || snap.pause === null));
  }

  drawEnd(snap) {
    const shown = this.endShown(snap);
    this.felt.hidden = shown;
    this.endPanel.hidden = !shown;
    this.game.classList.toggle("is-over", shown);
    if (!shown) {
      this.endShownFor = null;
      if (this.analysis) this.analysis.hide();
      return;
    }
    const key = `${snap.game_id}|${snap.finished}|${snap.new_entries.length}`;
    if (this.endShownFor === key) return;
    const first = this.endShownFor === null;
    this.endShownFor = key;
    const heading = h("h2", { id: "end-title", tabindex: "-1", text: snap.result || "Game over" });
    const many = snap.players.length > 1;
    const comments = h("ul", { class: "comments" }, snap.comments.map((c) =>
      h("li", {}, many ? h("strong", { text: `${snap.players[c.player].name}: ` }) : null, h("span", { text: c.text }))));
    const mine = snap.players.some((p) => p.mine);
    const actions = h("div", { class: "end-actions" },
      (mine || snap.demo) ? h("button", { type: "button", class: "btn btn-primary btn-big", id: "play-again", aria: { keyshortcuts: "p" }, onclick: () => this.playAgain() }, snap.daily ? "Again, for practice" : "Play again") : null,
      h("button", { type: "button", class: "btn btn-big", id: "new-game", aria: { keyshortcuts: "n" }, onclick: () => this.navigate("/") }, "New game"),
      snap.finished && snap.game_id && snap.daily && !(snap.dice_seed && snap.dice_seed.seed)
        ? h("p", { class: "muted small", id: "analysis-later", text: "The analysis opens once the day is over (UTC): today's dice are every player's." }) : null,
      snap.finished && snap.game_id && !(snap.daily && !(snap.dice_seed && snap.dice_seed.seed)) ? h("button", { type: "button", class: "btn btn-big", id: "analysis-btn",
        aria: { keyshortcuts: "a", controls: "analysis", expanded: this.analysisOpen(snap) ? "true" : "false" },
        onclick: () => this.toggleAnalysis() }, "Analysis") : null);
    const topBox = h("div", { class: "end-topten" }, h("p", { class: "muted", text: snap.finished ? "Looking up the top ten…" : "" }));
    const winners = new Set(snap.winners);
    const totals = h("ol", { class: "final-totals" }, snap.players
      .map((p, i) => [p, i]).sort((a, b) => b[0].total - a[0].total)
      .map(([p, i]) => h("li", { class: winners.has(i) ? "winner" : "" },
        h("span", { class: "final-name", text: p.name }), winners.has(i) && many ? h("span", { class: "crown", text: " ★ winner" }) : null,
        h("span", { class: "final-score", text: String(p.total) }))));
    fill(this.endPanel,
      h("div", { class: "end-head" }, heading, many ? totals : null, comments, actions),
      snap.progress.length ? h("div", { class: "end-chart" }, h("h3", { text: "Running totals" }), progressChart(snap.progress, snap.players.map((p) => p.name))) : null,
      dailyResult(snap),
      this.diceProof(snap),
      h("div", { class: "end-scores" }, h("h3", { text: `Top ten${apart(snap) ? " (games apart: assisted, or dice entered)" : ""}` }), topBox));
    if (snap.finished) this.loadTopTen(snap, topBox);
    if (first) {
      announce(`${snap.result || "Game over."} ${snap.comments.map((c) => c.text).join(" ")}`);
      window.setTimeout(() => {
        // the result takes the focus from the game (or the page's heading, or nothing),
        // not from a control of the bar or a dialog the player is using
        const el = document.getElementById("end-title");
        const at = document.activeElement;
        const idle = !at || at === document.body || at === this.title || at.id === "app" || this.body.contains(at);
        if (el && idle) el.focus();
      }, 0);
    }
  }

  /** Where the dice came from: the seed's commitment (shown from the start), and once the
   * game is finished the seed and a check anyone can make (GET /api/games/ID/verify). */
  diceProof(snap) {
    const proof = snap.dice_seed;
    if (!proof || !snap.game_id) return null;
    const said = h("p", { class: "muted dice-verdict", role: "status" });
    const check = snap.finished && proof.seed ? h("button", { type: "button", class: "btn btn-small", id: "verify-btn",
      onclick: async (e) => {
        e.currentTarget.disabled = true;
        try {
          const verdict = await getJSON(`/api/games/${encodeURIComponent(snap.game_id)}/verify`);
          setText(said, verdict.line);
          said.classList.toggle("verdict-bad", !verdict.ok);
        } catch (err) {
          setText(said, err.message);
        }
      } }, "Check the dice") : null;
    return h("div", { class: "end-dice" },
      h("p", { class: "muted small" }, `The dice came from a secret seed this game committed to at its start (SHA-256 ${proof.commitment.slice(0, 16)}…)${proof.seed ? "; it is revealed now." : "."}`, check ? " " : null, check),
      said);
  }

  analysisOpen(snap = this.snap) {
    return Boolean(snap && this.analysis && this.analysis.gameId === snap.game_id && this.analysis.open);
  }

  /** Show (the first time: ask the server for) the analysis of the game, or hide it. */
  toggleAnalysis() {
    const snap = this.snap;
    if (!snap || !snap.finished || !snap.game_id) return;
    if (!this.analysis || this.analysis.gameId !== snap.game_id) {
      if (this.analysis) this.analysis.el.remove();
      this.analysis = new AnalysisView(snap.game_id, snap.rows);
      this.game.append(this.analysis.el);
    }
    const opening = !this.analysis.open;
    if (opening) this.analysis.show();
    else this.analysis.hide();
    const btn = document.getElementById("analysis-btn");
    if (btn) btn.setAttribute("aria-expanded", opening ? "true" : "false");
    if (opening) {
      this.analysis.heading.focus({ preventScroll: true });
      this.analysis.el.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
    }
  }

  async loadTopTen(snap, box) {
    try {
      const tables = await getJSON(`/api/scores?${query({ variant: snap.ruleset.id, assisted: apart(snap) ? "true" : "false", ...snap.ruleset.options })}`);
      const entries = tables.length ? tables[0].entries : [];
      // the game's new lines are in two lists (the top ten, and the one apart): each is
      // told with its list, and only the shown list's lines are marked new in it
      const fresh = snap.new_entries.filter((e) => Boolean(e.assisted) === apart(snap));
      fill(box, entries.length ? topTenTable(entries, fresh, snap.game_id)
        : h("p", { class: "muted", text: snap.demo ? "Demo games do not enter the top ten." : "No scores yet." }));
      const lines = (assisted) => snap.new_entries.filter((e) => Boolean(e.assisted) === assisted)
        .map((e) => `${e.name}, ${e.score}, place ${e.rank}`).join("; ");
      if (lines(false)) announce(`New in the top ten: ${lines(false)}.`);
      if (lines(true)) announce(`New in the top ten apart (assisted, or dice entered): ${lines(true)}.`);
    } catch (e) {
      fill(box, h("p", { class: "muted", text: e.message }));
    }
  }

  /** A duplicate table's next game: this browser's card there (the same token holds it). */
  goNext(url) {
    const id = url.split("/").pop();
    const token = tokenFor(this.id);
    if (token && url.startsWith("/t/")) setToken(id, token);
    this.wantNext = false;
    this.navigate(url);
  }

  async playAgain() {
    const snap = this.snap;
    if (!snap) return;
    if (snap.daily) return this.dailyAgain(snap);
    if (this.duplicate && snap.seat) {
      // a new duplicate table with the same players, new dice: made by the first to ask;
      // the field then says where this player's card is, and the page goes there
      this.wantNext = true;
      const reply = await this.socket.send({ type: "again" });
      if (reply.type === "error") {
        this.wantNext = false;
        toast(reply.message);
      }
      return;
    }
    if (this.online && (this.online.can_again || snap.seat)) {
      this.again("again"); // the same seats at this link: each person accepts or leaves
      return;
    }
    const seats = snap.players.map((p) => {
      if (p.kind === "computer") return { kind: p.level || "intermediate", name: p.name };
      if (p.mine) return { kind: "person", name: p.name, here: true };
      return { kind: "person", here: false };
    });
    try {
      const made = await postJSON("/api/tables", { variant: snap.ruleset.id, options: snap.ruleset.options, speed: snap.speed, seats });
      setToken(made.id, made.token);
      this.navigate(made.url);
    } catch (e) {
      toast(e.message);
    }
  }

  /** A daily challenge again: today's, as practice (a name's first game is the ranked one). */
  async dailyAgain(snap) {
    const me = snap.players.find((p) => p.mine) || snap.players[0];
    try {
      const made = await postJSON("/api/daily", { variant: snap.ruleset.id, name: me.name });
      setToken(made.id, made.token);
      setDailyTable(snap.ruleset.id, made.id);
      this.navigate(made.url);
    } catch (e) {
      toast(e.message);
    }
  }
}

