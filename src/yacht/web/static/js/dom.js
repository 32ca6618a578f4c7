// Small helpers for building the page. Text always goes in as text (textContent),
// never as markup: names and messages come from other people.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An element: h("button", {class: "x", onclick: fn, aria: {label: "Roll"}}, "Roll"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, the same way. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "aria" || key === "data") {
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined || v === null) continue;
        if (key === "aria") el.setAttribute(`aria-${k}`, String(v));
        else el.dataset[k] = String(v);
      }
    } else if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Set an element's text only when it changed (no needless announcements or reflows). */
export function setText(el, text) {
  const value = String(text ?? "");
  if (el.textContent !== value) el.textContent = value;
}

/** Set or remove an attribute only when it changed. */
export function setAttr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else {
    const v = value === true ? "" : String(value);
    if (el.getAttribute(name) !== v) el.setAttribute(name, v);
  }
}

/** "1, 3 and 4" */
export function listText(items) {
  const xs = items.map(String);
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

/** A player called "You" (the setup's first name) is spoken to, as the server's words do. */
export const isYou = (name) => String(name).trim().toLowerCase() === "you";

/** "Ann's", and "your" for a player called You ("Your" to begin a sentence). */
export function possessive(name, start = false) {
  if (!isYou(name)) return `${name}'s`;
  return start ? "Your" : "your";
}

/** A name and the verb agreeing with it: verb("Ann", "is", "are") "Ann is", "You are". */
export const verb = (name, third, plain) => `${name} ${isYou(name) ? plain : third}`;

/** A number with an English plural: plural(2, "roll") -> "2 rolls". */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

export const reducedMotion = () =>
  window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A screen that only takes touches (it cannot hover, its pointer is a finger: a phone, a
 * tablet): no keyboard to tell keys to (the table's .keyless). */
export const touchOnly = () =>
  Boolean(window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches);

/** The one rule for words that tell how to do something: a screen with a keyboard and a
 * mouse is told its keys and clicks (`keyboard`); one that only takes touches, its taps
 * and the buttons' names (`touch`), never a key it does not have. */
export const byDevice = (keyboard, touch) => (touchOnly() ? touch : keyboard);

/** The most characters a player's name has: the server's NAME_LENGTH. */
export const NAME_LENGTH = 20;

/** A name's length as the server counts it: characters (code points) of the name
 * trimmed, inner runs of spaces made one, composed (NFC). JavaScript's own length counts
 * UTF-16 units, two for an emoji or any character outside the BMP, and so does an
 * input's maxlength (which cut short names with emoji that the server takes). */
export const nameLength = (text) => [...String(text).replace(/ +/g, " ").trim().normalize("NFC")].length;

/** A name field: an <input> that takes at most NAME_LENGTH characters as the server
 * counts them (nameLength). What is typed or pasted past that is left out, as maxlength
 * would leave it out, keeping the text after the caret. */
export function nameField(attrs = {}) {
  const input = h("input", { type: "text", spellcheck: "false", ...attrs });
  input.addEventListener("input", () => {
    if (nameLength(input.value) <= NAME_LENGTH) return;
    const caret = input.selectionEnd ?? input.value.length;
    const before = [...input.value.slice(0, caret)];
    const after = input.value.slice(caret);
    while (before.length && nameLength(before.join("") + after) > NAME_LENGTH) before.pop();
    // (never a joiner or a variation selector left alone at the cut: it shows nothing)
    while (before.length && /^[\u200d\ufe00-\ufe0f]$/.test(before[before.length - 1])) before.pop();
    let value = before.join("") + after;
    if (nameLength(value) > NAME_LENGTH) value = [...value].slice(0, NAME_LENGTH).join("");
    input.value = value;
    const at = Math.min(before.join("").length, value.length);
    input.setSelectionRange(at, at);
  }, { capture: true });
  return input;
}
