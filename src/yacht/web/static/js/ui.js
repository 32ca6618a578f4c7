// What every page shares: a short message that goes away, the live region for screen
// readers, and dialogs.

import { h, fill } from "./dom.js";

let toastTimer = 0;

/** Show a one-line message for a few seconds (errors, refusals, small news). */
export function toast(message, kind = "error", seconds = 4) {
  const el = document.getElementById("toast");
  if (!el) return;
  window.clearTimeout(toastTimer);
  el.className = `toast toast-${kind}`;
  fill(el, h("span", { text: message }));
  el.hidden = false;
  toastTimer = window.setTimeout(() => {
    el.hidden = true;
  }, seconds * 1000);
}

export function hideToast() {
  const el = document.getElementById("toast");
  if (el) el.hidden = true;
}

/** Say something to a screen reader (polite: after what it is reading). */
export function announce(text) {
  const region = document.getElementById("live");
  if (!region || !text) return;
  region.append(h("p", { text }));
  while (region.childElementCount > 6) region.firstElementChild.remove();
}

/** A link to send (a table's, a seat's): its words, the address to select, and Copy. */
export function shareLink({ id, label, path }) {
  const input = h("input", { id, type: "text", readonly: true, value: `${window.location.origin}${path}`, onfocus: () => input.select() });
  const copy = async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast("Link copied", "info", 2);
    } catch {
      toast("Select the link and copy it (Ctrl+C)", "info", 3);
    }
  };
  return h("div", { class: "share" },
    h("label", { for: id, text: label }),
    h("div", { class: "inline" }, input, h("button", { type: "button", class: "btn", onclick: copy }, "Copy link")));
}

/** Whether a dialog is open (its own keys then, not the table's). */
export const dialogOpen = () => document.querySelector("dialog[open]") !== null;

/** Where each open dialog gives the focus back when it closes. */
const returnTo = new WeakMap();

/**
 * A modal dialog: {title, body: Node[], actions: [{label, onclick, primary}], onclose}.
 * Returns {dialog, body, close}. Esc and the Close button close it; focus goes back to
 * where it was (opened by a button of a dialog that closed meanwhile, as the first
 * hint's "Show the hint" or the keys' "The rules": to where that dialog was opened).
 */
export function openDialog({ title, body = [], actions = [], onclose, wide = false, id }) {
  const before = document.activeElement;
  const outer = before && before.closest ? before.closest("dialog") : null;
  const backstop = outer ? returnTo.get(outer) : null;
  const headingId = `dlg-${Math.random().toString(36).slice(2, 9)}`;
  const content = h("div", { class: "dialog-body" }, body);
  const buttons = actions.map((a) =>
    h("button", {
      type: "button",
      class: a.primary ? "btn btn-primary" : "btn",
      disabled: a.disabled,
      data: a.data,
      onclick: () => {
        if (a.onclick) a.onclick();
        if (a.keepOpen !== true) close();
      },
    }, a.label));
  const dialog = h("dialog", {
    class: wide ? "dialog dialog-wide" : "dialog",
    aria: { labelledby: headingId },
    id,
  },
  h("div", { class: "dialog-inner" },
    h("div", { class: "dialog-head" },
      h("h2", { id: headingId, text: title }),
      h("button", { type: "button", class: "btn-icon", aria: { label: "Close" }, onclick: () => close() }, "✕")),
    content,
    buttons.length ? h("div", { class: "dialog-actions" }, buttons) : null));
  let closed = false;
  function close() {
    if (closed) return;
    closed = true;
    if (dialog.open) dialog.close();
    dialog.remove();
    const back = before && before.isConnected ? before : backstop && backstop.isConnected ? backstop : null;
    if (back && typeof back.focus === "function") back.focus();
    if (onclose) onclose();
  }
  dialog.addEventListener("close", () => close());
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) close(); // a click on the backdrop
  });
  returnTo.set(dialog, backstop || before);
  document.body.append(dialog);
  dialog.showModal();
  const first = buttons.find((b) => !b.disabled) || dialog.querySelector(".btn-icon");
  if (first) first.focus();
  return { dialog, body: content, close };
}

/**
 * The rules' text (`yacht rules`: wrapped at a fixed width) as blocks: its prose wraps to
 * the screen (the lines a sentence was wrapped on are joined again; a line that would
 * have fitted on the one before starts a line of its own), its indented tables stay as
 * they are, scrolling sideways inside their box on a small screen - except a table of
 * terms (the boxes: a name, then its words wrapped in a column of their own), which
 * becomes a list whose words wrap to the screen: on a phone the column of words was
 * off the screen, three letters of each line showing (QA s25). Text only, never markup.
 */
export function rulesBlocks(text) {
  const lines = String(text).replace(/\s+$/, "").split("\n");
  const width = Math.max(0, ...lines.map((l) => l.length));
  const groups = [];
  let group = null, para = null, table = null, prev = "";
  for (const line of lines) {
    if (!line.trim()) {
      group = para = table = null;
      prev = "";
      continue;
    }
    if (!group) {
      group = h("div", { class: "rules-group" });
      groups.push(group);
    }
    if (/^[=-]{3,}$/.test(line) && para) { // the underline of a heading
      para.classList.add("rules-title");
      para = null;
      prev = "";
      continue;
    }
    if (/^\s/.test(line)) {
      if (!table) {
        table = h("pre", { class: "rules-table" });
        group.append(table);
      }
      table.textContent += `${table.textContent ? "\n" : ""}${line}`;
      para = null;
      prev = "";
      continue;
    }
    table = null;
    const firstWord = line.split(" ")[0];
    if (para && prev && prev.length + 1 + firstWord.length > width) {
      para.textContent += ` ${line}`; // wrapped there: the same sentence goes on
    } else {
      para = h("p", { text: line });
      group.append(para);
    }
    prev = line;
  }
  for (const pre of groups.flatMap((g) => [...g.querySelectorAll("pre.rules-table")])) asTerms(pre);
  return h("div", { class: "rules-text" }, groups);
}

/** A table of terms in `pre` as a list (headings, then each term with its words), in
 * its place; a table of any other shape stays. Its rows: "    Ones    scores the sum...",
 * its words going on under their column, a heading less indented with no column. */
function asTerms(pre) {
  const lines = pre.textContent.split("\n");
  let column = -1, indent = -1;
  const items = []; // {head} or {term, words}
  for (const line of lines) {
    const at = line.length - line.trimStart().length;
    const row = /^( +)(\S(?:.*?\S)?)( {2,})(\S.*)$/.exec(line);
    if (row && (column < 0 || row[1].length + row[2].length + row[3].length === column)
        && (indent < 0 || at === indent)) {
      column = row[1].length + row[2].length + row[3].length;
      indent = at;
      items.push({ term: row[2], words: row[4] });
    } else if (column >= 0 && at === column && items.length && items[items.length - 1].term) {
      items[items.length - 1].words += ` ${line.trim()}`;
    } else if (!/\S {2,}\S/.test(line) && (indent < 0 || at < indent)) {
      items.push({ head: line.trim() });
    } else {
      return; // (not a table of terms: as it is)
    }
  }
  if (items.filter((i) => i.term).length < 2) return;
  const out = h("div", { class: "rules-terms" });
  let list = null;
  for (const item of items) {
    if (item.head !== undefined) {
      out.append(h("p", { class: "rules-terms-head", text: item.head }));
      list = null;
      continue;
    }
    if (!list) {
      list = h("dl", {});
      out.append(list);
    }
    list.append(h("div", { class: "rules-term" }, h("dt", { text: item.term }), h("dd", { text: item.words })));
  }
  pre.replaceWith(out);
}

/** The rules of a variant in a dialog; `extra` after them, `lead` before them. */
export function rulesDialog(title, text, extra = [], lead = []) {
  const box = openDialog({
    title,
    wide: true,
    body: [lead, rulesBlocks(text), extra],
  });
  // a table wider than the screen scrolls inside its box: reachable by keyboard too
  for (const pre of box.body.querySelectorAll(".rules-table")) {
    if (pre.scrollWidth > pre.clientWidth + 1) {
      pre.setAttribute("tabindex", "0");
      pre.setAttribute("aria-label", "Table (scrolls sideways)");
    }
  }
  return box;
}
