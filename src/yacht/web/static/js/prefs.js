// What the page remembers in localStorage: the last setup, sound on or off, and the
// token of this browser's seats at each table. A browser that refuses storage still
// plays (nothing is remembered).

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

/** The name this browser last played under (to offer when joining a table). */
export const lastName = () => {
  const n = read("name", "");
  return typeof n === "string" ? n : "";
};
export const setLastName = (name) => write("name", name);

