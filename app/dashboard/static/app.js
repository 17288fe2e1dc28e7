// Entry point: hash routing, the token prompt and page rendering.

import { ApiError, clearToken, getToken, setToken } from "./api.js";
import { h, notice } from "./dom.js";
import * as balance from "./pages/balance.js";
import * as circuit from "./pages/circuit.js";
import { errorNotice, UNAUTHORIZED } from "./pages/common.js";
import * as evaluation from "./pages/evaluation.js";
import * as event from "./pages/event.js";
import * as feed from "./pages/feed.js";
import * as ladders from "./pages/ladders.js";
import * as leaderboard from "./pages/leaderboard.js";
import * as lobby from "./pages/lobby.js";
import * as player from "./pages/player.js";
import * as results from "./pages/results.js";
import * as webhooks from "./pages/webhooks.js";
import * as whatif from "./pages/whatif.js";

const ROUTES = [
  { name: "ladders", parts: [], page: ladders },
  { name: "webhooks", parts: ["webhooks"], page: webhooks },
  { name: "leaderboard", parts: ["ladders", ":ladder"], page: leaderboard },
  { name: "player", parts: ["ladders", ":ladder", "players", ":player"], page: player },
  { name: "lobby", parts: ["ladders", ":ladder", "lobby"], page: lobby },
  { name: "balance", parts: ["ladders", ":ladder", "balance"], page: balance },
  { name: "results", parts: ["ladders", ":ladder", "results"], page: results },
  { name: "feed", parts: ["ladders", ":ladder", "feed"], page: feed },
  { name: "whatif", parts: ["ladders", ":ladder", "whatif"], page: whatif },
  { name: "evaluation", parts: ["ladders", ":ladder", "evaluation"], page: evaluation },
  { name: "circuit", parts: ["ladders", ":ladder", "circuit"], page: circuit },
  { name: "event", parts: ["ladders", ":ladder", ":kind", ":id"], page: event },
];

const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const auth = document.getElementById("auth");
const site = document.getElementById("site");
let generation = 0;

function match(segments) {
  for (const route of ROUTES) {
    if (route.parts.length !== segments.length) continue;
    const params = {};
    const ok = route.parts.every((part, i) => {
      if (part.startsWith(":")) {
        params[part.slice(1)] = segments[i];
        return true;
      }
      return part === segments[i];
    });
    if (ok) return { route, params };
  }
  return null;
}

function setCrumbs(items) {
  crumbs.replaceChildren(...items.flatMap(([label, href], i) => [
    i ? h("span", { class: "sep", "aria-hidden": "true" }, "›") : null,
    href ? h("a", { href }, label) : h("span", { "aria-current": "page" }, label),
  ]).filter(Boolean));
}

function show(name, ...nodes) {
  main.replaceChildren(...nodes);
  main.dataset.page = name;
  for (const link of site.querySelectorAll("a[data-page]")) {
    if (link.dataset.page === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  main.setAttribute("aria-busy", "false");
}

function renderAuth() {
  const token = getToken();
  auth.replaceChildren(
    h("span", { class: "muted" }, token ? "Token saved" : "No token"),
    h("button", { type: "button", class: "link", onclick: () => tokenPrompt("") },
      token ? "Change token" : "Set token"),
    token ? h("button", {
      type: "button", class: "link", onclick: () => { clearToken(); renderAuth(); route(); },
    }, "Forget token") : "");
}

function tokenPrompt(message) {
  generation += 1; // a page still loading must not replace the prompt
  const input = h("input", {
    id: "token", name: "token", type: "password", autocomplete: "off", required: true,
    spellcheck: "false",
  });
  const form = h("form", {
    class: "card token-form",
    onsubmit: (e) => {
      e.preventDefault();
      setToken(input.value);
      renderAuth();
      route();
    },
  },
  h("h1", {}, "Read token"),
  message ? notice(message, "warn") : null,
  h("div", { class: "field" },
    h("label", { for: "token" }, "Bearer token"),
    input,
    h("small", { class: "hint" },
      "Kept in this browser (localStorage) and sent to this server only, as "
      + "Authorization: Bearer …")),
  h("div", { class: "actions" },
    h("button", { type: "submit" }, "Save and continue"),
    h("button", { type: "button", class: "secondary", onclick: () => route() }, "Cancel")));
  setCrumbs([["Token", null]]);
  show("token", form);
  input.focus();
}

function unauthorized(error) {
  const message = error.status === 403
    ? "This token may not read this data (403). Paste another token."
    : getToken()
      ? "The saved token was refused (401). Paste a valid read token."
      : "This server needs a read token to show its data.";
  tokenPrompt(message);
}

async function route() {
  const current = ++generation;
  const raw = location.hash.replace(/^#\/?/, "").split("?")[0];
  const segments = raw.split("/").filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  const found = match(segments);
  main.setAttribute("aria-busy", "true");
  if (!found) {
    setCrumbs([["Ladders", "#/"], ["Not found", null]]);
    document.title = "Not found · Ratings";
    show("missing", h("h1", {}, "Page not found"), h("p", {}, h("a", { href: "#/" }, "All ladders")));
    return;
  }
  try {
    const nodes = await found.route.page.render(found.params, { setCrumbs });
    if (current !== generation) return; // the reader has moved on
    show(found.route.name, ...[nodes].flat(Infinity));
    window.scrollTo(0, 0);
  } catch (error) {
    if (current !== generation) return;
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      unauthorized(error);
    } else {
      // The failed page may not have set its own breadcrumbs: never leave the previous page's.
      setCrumbs([["Ladders", "#/"], ["Error", null]]);
      document.title = "Error · Ratings";
      show("error", h("h1", {}, "Could not load this page"), errorNotice(error));
    }
  }
}

window.addEventListener(UNAUTHORIZED, (e) => unauthorized(e.detail));
window.addEventListener("hashchange", route);
renderAuth();
route();
