// The JSON API beside the page (PROTOCOL.md). Every failure becomes an Error with the
// server's one-line message.

async function call(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new Error("The server does not answer: is `yacht web` still running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && typeof data.error === "string" ? data.error
      : data && Array.isArray(data.detail) ? "the server did not take that request"
      : `the server answered ${response.status}`;
    const error = new Error(message);
    error.code = data && data.code;
    throw error;
  }
  return data;
}

export const getJSON = (url) => call("GET", url);
export const postJSON = (url, body) => call("POST", url, body ?? {});

/** A query string from an object of options: {joker: "free"} -> "joker=free". */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  }
  return q.toString();
}

let variantsPromise = null;
/** The variants (asked once per page load). */
export function variants() {
  if (!variantsPromise) {
    variantsPromise = getJSON("/api/variants").catch((e) => {
      variantsPromise = null;
      throw e;
    });
  }
  return variantsPromise;
}

const rulesCache = new Map();
/** A variant's rules (data and text), with its options. */
export function rules(variant, options = {}) {
  const key = `${variant}?${query(options)}`;
  if (!rulesCache.has(key)) {
    const q = query(options);
    const promise = getJSON(`/api/variants/${encodeURIComponent(variant)}/rules${q ? `?${q}` : ""}`)
      .catch((e) => {
        rulesCache.delete(key);
        throw e;
      });
    rulesCache.set(key, promise);
  }
  return rulesCache.get(key);
}
