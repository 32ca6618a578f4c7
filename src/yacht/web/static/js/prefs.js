// What the page remembers in localStorage: the last setup, sound on or off, what a
// click on a die does, the pause before a computer, and the token of this browser's
// seats at each table. A browser that refuses storage still plays (nothing is
// remembered).

import { byDevice } from "./dom.js";

const PREFIX = "yacht.";

function read(key, fallback) {
  try {
    const raw = window.localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    window.localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // storage full or refused: the page goes on without remembering
  }
}

export const SPEEDS = ["slow", "normal", "fast", "instant"];

export function loadSetup() {
  const setup = read("setup", null);
  return setup && typeof setup === "object" ? setup : null;
}

export const saveSetup = (setup) => write("setup", setup);

export const soundOn = () => read("sound", true) !== false;
export const setSound = (on) => write("sound", Boolean(on));

/** What clicking a die (or its key) does: the variant's way, hold it, or mark it to roll
 * again; and its words (the terminal's setup says the same). */
export const DICE_MARKS = [["variant", "as the variant"], ["hold", "holds it"], ["reroll", "marks it to roll again"]];

/** The setting's name, and what a click (a tap) on a die is called: "A click holds the die". */
export const markLabel = () => byDevice("Clicking a die", "Tapping a die");
export const aClick = () => byDevice("A click", "A tap");

/** A value of the setting in words; "variant" with what the variant does, when known
 * ("as the variant (holds it)"). */
export function markWords(value, variantMark) {
  const words = new Map(DICE_MARKS);
  if (value === "variant" && words.has(variantMark)) return `${words.get("variant")} (${words.get(variantMark).replace(" to roll again", "")})`;
  return words.get(value);
}
export const diceMark = () => {
  const v = read("dice_mark", "variant");
  return DICE_MARKS.some(([k]) => k === v) ? v : "variant";
};
export const setDiceMark = (v) => write("dice_mark", v);

/** The Next player pause after this browser's player scored, before a computer plays. */
export const computerPause = () => read("computer_pause", true) !== false;
export const setComputerPause = (on) => write("computer_pause", Boolean(on));

/** Both, as the server takes them (a hello's or a prefs message's). */
export const seatPrefs = () => ({ dice_mark: diceMark(), pause: computerPause() });

export const tokenFor = (tableId) => {
  const t = read(`token.${tableId}`, null);
  return typeof t === "string" ? t : null;
};
export const setToken = (tableId, token) => write(`token.${tableId}`, token);

/** Every table this browser holds seats at, with its token there: {tableId: token}. */
export function myTables() {
  const out = {};
  try {
    for (let i = 0; i < window.localStorage.length; i += 1) {
      const key = window.localStorage.key(i);
      if (key && key.startsWith(`${PREFIX}token.`)) {
        const id = key.slice(PREFIX.length + "token.".length);
        const token = tokenFor(id);
        if (/^[0-9a-f]{12}$/.test(id) && token) out[id] = token;
      }
    }
  } catch {
    // storage refused: no tables remembered
  }
  return out;
}

/** The table of this browser's newest game of a variant's daily challenge (sent with the
 * next POST /api/daily: the name's game under way there is answered, not a new one). */
export const dailyTable = (variant) => {
  const t = read(`daily.${variant}`, null);
  return typeof t === "string" && /^[0-9a-f]{12}$/.test(t) ? t : null;
};
export const setDailyTable = (variant, tableId) => write(`daily.${variant}`, tableId);

/** The name this browser last played under (to offer when joining a table). */
export const lastName = () => {
  const n = read("name", "");
  return typeof n === "string" ? n : "";
};
export const setLastName = (name) => write("name", name);

