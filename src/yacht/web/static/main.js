// The page: home at /, a table at /t/ID (the same index.html; this script reads the path).

import { h, fill } from "./js/dom.js";
import { HomeView } from "./js/home.js";
import { TableView } from "./js/table.js";
import { GroupView } from "./js/field.js";
import { unlockOnGesture } from "./js/sound.js";
import { hideToast } from "./js/ui.js";

const app = document.getElementById("app");
let view = null;

function route() {
  if (view) view.unmount();
  view = null;
  hideToast();
  fill(app);
  const path = window.location.pathname;
  const table = /^\/t\/([0-9a-f]{1,32})\/?$/.exec(path);
  const group = /^\/d\/([0-9a-f]{1,32})\/?$/.exec(path);
  if (table) {
    view = new TableView(table[1], navigate);
  } else if (group) {
    view = new GroupView(group[1], navigate);
  } else if (path === "/" || path === "/index.html") {
    view = new HomeView(navigate);
  } else if (/^\/[td]\//.test(path)) { // (not a table's id: no table has it)
    app.append(h("section", { class: "panel notice" },
      h("h1", { text: "No such table" }),
      h("p", { text: "This table does not exist or has ended." }),
      h("p", {}, h("a", { href: "/" }, "Go to the home page: new games, and tables to join or watch"))));
    return;
  } else {
    app.append(h("section", { class: "panel notice" },
      h("h1", { text: "Nothing here" }),
      h("p", { text: "There is no page at this address." }),
      h("p", {}, h("a", { href: "/" }, "Go to the home page"))));
    return;
  }
  view.mount(app);
  window.scrollTo(0, 0);
}

/** Go to another page of the game without loading it again. */
export function navigate(url) {
  if (url !== window.location.pathname) window.history.pushState({}, "", url);
  route();
  const heading = app.querySelector("h1, h2");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
}

window.addEventListener("popstate", route);
unlockOnGesture();
route();
