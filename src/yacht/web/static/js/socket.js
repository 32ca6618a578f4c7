// The table's WebSocket (PROTOCOL.md): says hello with this browser's token, sends
// messages with an id, and reconnects by itself (after 1 s, then longer) when the
// connection drops; the first state after a reconnect is the whole truth.

const DELAYS = [1000, 2000, 4000, 8000, 10000];
/** The server takes 20 messages a second (a burst of 40): the page sends at most this
 * many a second, the rest a moment later (a key held down is not a flood). */
const PER_SECOND = 15;
/** An answer that does not come in this time is taken as lost (ms). */
const ANSWER_WITHIN = 15000;

export class TableSocket {
  /**
   * handlers: onmessage(msg), onstatus("connecting" | "open" | "waiting", seconds),
   * onfatal(message, code) when the table does not exist (or is private), prefs() this browser's choices for
   * its seats (sent with every hello); path: another socket than the table's (a
   * duplicate table's field, /ws/d/ID), first: the message type that says it is open
   * (default "state").
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = 0;
    this.stopped = false;
    this.fatal = false;
    this.nextId = 1;
    this.pending = new Map();
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.isOpen()) this.reconnectSoon(0);
    };
    this.onOnline = () => this.reconnectSoon(0);
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.stopped || this.fatal) return;
    window.clearTimeout(this.timer);
    this.handlers.onstatus("connecting");
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${window.location.host}${this.handlers.path || `/ws/${encodeURIComponent(this.tableId)}`}`);
    } catch {
      this.reconnectSoon();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      const prefs = this.handlers.prefs ? this.handlers.prefs() : null;
      ws.send(JSON.stringify(prefs ? { type: "hello", token: this.token, prefs } : { type: "hello", token: this.token }));
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === (this.handlers.first || "state")) {
        if (this.attempt !== 0 || !this.opened) this.handlers.onstatus("open");
        this.attempt = 0;
        this.opened = true;
      }
      // no such table, or one this browser may not see (a daily game, a card of a duplicate
      // table): trying again would be refused again
      if (msg.type === "error" && (msg.code === "not_found" || msg.code === "private") && msg.id === undefined) {
        this.fatal = true;
        this.handlers.onfatal(msg.message || "There is no such table.", msg.code);
      }
      if (msg.id !== undefined && this.pending.has(msg.id)) {
        const resolve = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        // a state with the id is the answer too: done and saved (an ack with the state)
        resolve(msg.type === "state" ? { type: "ack", id: msg.id } : msg);
      }
      this.handlers.onmessage(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.opened = false;
      for (const resolve of this.pending.values()) resolve({ type: "error", code: "disconnected", message: "the connection dropped" });
      this.pending.clear();
      if (!this.stopped && !this.fatal) this.reconnectSoon();
    });
  }

  reconnectSoon(delay) {
    if (this.stopped || this.fatal) return;
    window.clearTimeout(this.timer);
    const wait = delay ?? DELAYS[Math.min(this.attempt, DELAYS.length - 1)];
    this.attempt += 1;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      try { old.close(); } catch { /* already closed */ }
    }
    this.handlers.onstatus("waiting", Math.round(wait / 1000));
    this.timer = window.setTimeout(() => this.connect(), wait);
  }

  /** Send a message; resolves with its answer (ack, joined, hint or error). */
  async send(msg, within = ANSWER_WITHIN) {
    await this.pace();
    if (!this.isOpen()) {
      return { type: "error", code: "disconnected", message: "Not connected: reconnecting…" };
    }
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve) => {
      const timer = window.setTimeout(() => {
        if (this.pending.delete(id)) resolve({ type: "error", code: "no_answer", message: "The server did not answer: try again" });
      }, within);
      this.pending.set(id, (answer) => {
        window.clearTimeout(timer);
        resolve(answer);
      });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  /** Wait until one more message keeps this page under PER_SECOND a second. */
  async pace() {
    const now = performance.now();
    this.sent = (this.sent || []).filter((t) => now - t < 1000);
    if (this.sent.length >= PER_SECOND) {
      await new Promise((r) => { window.setTimeout(r, 1000 - (now - this.sent[0]) + 5); });
      return this.pace();
    }
    this.sent.push(now);
    return undefined;
  }

  setToken(token) {
    this.token = token;
  }

  close() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try { ws.close(1000); } catch { /* gone */ }
    }
  }
}
