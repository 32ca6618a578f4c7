// "Your turn", wherever the player is: when it becomes this browser's turn and the page
// is hidden (another tab, another app), the tab's title and icon say so, and - if the
// player asked for it and the browser allows it - a notification from this page (no
// push service: nothing reaches the player from anywhere but this page while it is
// open). While the page is visible, a chime when sound is on (in a game with another
// person). And the page can be put on a phone's home screen: the web app manifest
// (pages.py) names this table, and a small service worker (/sw.js) shows the
// notifications where a page may not (Android) and brings the table's tab back when
// one is tapped. Nothing is kept for offline play.

import { h } from "./dom.js";
import { toast } from "./ui.js";
import * as sound from "./sound.js";

const PREFIX = "● ";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";
const KEY = "yacht.notify";

/** Whether this browser can show notifications from this page at all (a secure page:
 * https, or this machine). */
export const canNotify = () => "Notification" in window && window.isSecureContext;

const wanted = () => {
  try {
    return window.localStorage.getItem(KEY) === "true";
  } catch {
    return false;
  }
};
const setWanted = (on) => {
  try {
    window.localStorage.setItem(KEY, on ? "true" : "false");
  } catch {
    // storage refused: asked again next time
  }
};

/** Notifications are on: asked for here, and allowed by the browser. */
export const notifying = () => canNotify() && wanted() && Notification.permission === "granted";

/** What the page showed, for the browser tests (the last few). */
function noted(kind, text) {
  const seen = (window.yachtNotices = window.yachtNotices || []);
  seen.push({ kind, text });
  if (seen.length > 20) seen.shift();
}

/** The service worker, registered once (null where there is none). */
let worker = null;
export function registerWorker() {
  if (worker || !("serviceWorker" in navigator) || !window.isSecureContext) return worker;
  worker = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  return worker;
}

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The page's manifest names the table (so that a phone's home screen opens it); the
 * function given back puts the home page's back. */
export function tableManifest(tableId) {
  const link = document.querySelector('link[rel="manifest"]');
  if (!link) return () => {};
  const before = link.getAttribute("href");
  link.setAttribute("href", `/t/${encodeURIComponent(tableId)}/manifest.webmanifest`);
  return () => link.setAttribute("href", before);
}

/**
 * Watches a table's snapshots for this browser's turn: `update(snap)` after each one is
 * drawn (the page has set its title then). `button` is the bar's "notify me" toggle.
 */
export class TurnNotifier {
  constructor(tableId) {
    this.tableId = tableId;
    this.myTurn = null; // unknown until the first snapshot: no alarm for a page just opened
    this.alerting = false;
    this.note = null;
    this.onVisibility = () => {
      if (!document.hidden) this.clear();
    };
    document.addEventListener("visibilitychange", this.onVisibility);
    this.button = h("button", { type: "button", class: "btn btn-bar", id: "notify-btn", hidden: true,
      onclick: () => this.toggle() });
    this.drawButton();
    registerWorker();
  }

  drawButton() {
    const on = notifying();
    this.button.textContent = on ? "🔔 Notify on" : "🔔 Notify off";
    this.button.setAttribute("aria-pressed", on ? "true" : "false");
    this.button.title = "A notification when it becomes your turn while this page is hidden";
  }

  /** The player asked (a click: the only time a browser lets a page ask). */
  async toggle() {
    if (notifying()) {
      setWanted(false);
    } else if (Notification.permission === "denied") {
      toast("Notifications are blocked for this site: allow them in the browser's site settings", "info", 5);
    } else {
      let permission = Notification.permission;
      if (permission === "default") {
        try {
          permission = await Notification.requestPermission();
        } catch {
          permission = "denied";
        }
      }
      setWanted(permission === "granted");
      if (permission !== "granted") toast("No notifications: the browser was not allowed to show them", "info", 4);
    }
    this.drawButton();
  }

  /** The table is a lobby: its game's first turn, if it is this browser's, is news. */
  lobby() {
    this.myTurn = false;
  }

  /** After each snapshot is drawn. */
  update(snap) {
    this.button.hidden = !canNotify() || !snap.seat || snap.over;
    const mine = Boolean(snap.seat && snap.seat.my_turn) && !snap.over;
    const came = mine && this.myTurn === false;
    this.myTurn = mine;
    if (!mine) {
      this.clear();
    } else if (came) {
      if (document.hidden) this.alert(snap);
      else if (snap.players.some((p) => p.kind !== "computer" && !p.mine)) sound.play("turn"); // (after a person's turn: not after every computer's)
    }
    if (this.alerting && !document.title.startsWith(PREFIX)) document.title = `${PREFIX}${document.title}`;
  }

  /** It became this browser's turn while the page is hidden. */
  alert(snap) {
    this.alerting = true;
    setIcon(TURN_ICON);
    if (navigator.setAppBadge) navigator.setAppBadge().catch(() => {});
    const who = snap.players[snap.current];
    const text = snap.players.filter((p) => p.mine).length > 1 ? `${who.name}, your turn` : "Your turn";
    noted("title", text);
    if (notifying()) this.notify(`${text}: ${snap.ruleset.name}`, `Turn ${snap.turn} of ${snap.turns}`);
  }

  async notify(title, body) {
    const options = { body, tag: `yacht-turn-${this.tableId}`, icon: "/static/icons/icon-192.png",
      badge: "/static/icons/icon-192.png", data: { url: `/t/${this.tableId}` }, renotify: true };
    noted("notification", title);
    try {
      const reg = worker ? await worker : null;
      if (reg && reg.active && reg.showNotification) { // (a phone shows them only so)
        await reg.showNotification(title, options);
        return;
      }
      this.note = new Notification(title, options);
      this.note.onclick = () => {
        window.focus();
        this.note.close();
      };
    } catch {
      // a browser that shows none from here: the title and the icon said it
    }
  }

  /** The page is seen again, or the turn is over: the title, the icon and the
   * notification are as before. */
  clear() {
    if (!this.alerting) return;
    this.alerting = false;
    setIcon(ICON);
    if (document.title.startsWith(PREFIX)) document.title = document.title.slice(PREFIX.length);
    if (navigator.clearAppBadge) navigator.clearAppBadge().catch(() => {});
    if (this.note) this.note.close();
    this.note = null;
    if (worker) {
      worker.then((reg) => reg && reg.getNotifications && reg.getNotifications({ tag: `yacht-turn-${this.tableId}` }))
        .then((notes) => (notes || []).forEach((n) => n.close())).catch(() => {});
    }
  }

  destroy() {
    this.clear();
    document.removeEventListener("visibilitychange", this.onVisibility);
  }
}
