// Pieces shared by the pages: a ladder's header and tabs, error rendering.

import { ApiError, api } from "../api.js";
import { h, notice, path, playerLink } from "../dom.js";

/** Raised (as a window event) when an action on a page needs a token. */
export const UNAUTHORIZED = "ratings:unauthorized";

// Column names where a system's numbers are not called a rating: Kinzett scores primary
// points, ties split by secondary points (seed 002).
const SYSTEM_LABELS = { kinzett: { rating: "Primary points", tiebreak: "Secondary points" } };

/** How the leaderboard and standings name a system's rating and tiebreak columns. */
export function labels(system) {
  return { rating: "Rating", tiebreak: "Tiebreak", ...SYSTEM_LABELS[system.id] };
}

export function ladderCrumbs(ladder, ...more) {
  return [["Ladders", "#/"], [ladder.title || ladder.id, path("ladders", ladder.id)], ...more];
}

export function ladderHeader(ladder, system, active, heading) {
  const tabs = [
    ["leaderboard", "Leaderboard", path("ladders", ladder.id)],
    ["results", system.kind === "tournament" ? "Tournaments" : "Games", path("ladders", ladder.id, "results")],
    ["lobby", "Lobby preview", path("ladders", ladder.id, "lobby")],
    ["whatif", "What-if", path("ladders", ladder.id, "whatif")],
    ...(system.kind === "game" ? [["evaluation", "Evaluation", path("ladders", ladder.id, "evaluation")]] : []),
  ];
  return h("header", { class: "page-head" },
    h("h1", {}, heading || ladder.title || ladder.id),
    h("p", { class: "muted" },
      heading ? `${ladder.title || ladder.id} · ` : "",
      `${system.title} (${system.id}) · ${system.kind} system`,
      system.per_faction ? " · rated per faction" : ""),
    playerSearch(ladder),
    h("nav", { class: "tabs", "aria-label": "Ladder pages" }, tabs.map(([key, label, href]) =>
      h("a", { href, "aria-current": key === active ? "page" : null }, label))));
}

// Matches shown by the player search box, and the pause after typing before it asks the API.
const SEARCH_LIMIT = 10;
const SEARCH_DELAY_MS = 200;

/** "Find player": the ladder's players whose id holds the text (GET .../players?search=). */
export function playerSearch(ladder) {
  const input = h("input", {
    type: "search", name: "player-search", placeholder: "Find player (id)", autocomplete: "off",
    "aria-label": "Find player", spellcheck: "false",
  });
  const results = h("div", { class: "player-search-results", role: "status" });
  let timer = null;
  let asked = 0;
  async function find() {
    const text = input.value.trim();
    const mine = ++asked;
    if (!text) {
      results.replaceChildren();
      return;
    }
    try {
      const found = await api(`ladders/${encodeURIComponent(ladder.id)}/players`,
        { query: { search: text, limit: SEARCH_LIMIT } });
      if (mine !== asked) return; // a later search has been sent
      results.replaceChildren(found.items.length
        ? h("ul", { "data-total": found.total }, found.items.map((item) => h("li", { "data-player": item.player },
          playerLink(ladder.id, item.player, null, item.name),
          item.country ? h("span", { class: "muted" }, ` · ${item.country}`) : null,
          item.ratings.length ? h("span", { class: "muted" },
            ` · #${item.ratings[0].position ?? "—"}`) : null)),
          found.total > found.items.length
            ? h("li", { class: "muted" }, `… ${found.total - found.items.length} more`) : null)
        : h("p", { class: "empty" }, `No player id contains “${text}”.`));
    } catch (error) {
      if (mine === asked) results.replaceChildren(errorNotice(error));
    }
  }
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(find, SEARCH_DELAY_MS);
  });
  return h("form", { class: "player-search", role: "search", onsubmit: (e) => { e.preventDefault(); find(); } },
    input, results);
}

/** A problem+json error as a readable alert; 401/403 also open the token prompt. */
export function errorNotice(error) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    window.dispatchEvent(new CustomEvent(UNAUTHORIZED, { detail: error }));
  }
  if (!(error instanceof ApiError)) return notice(`Error: ${error.message}`, "error");
  const problem = error.problem || {};
  const box = notice(`${problem.title || "Error"} (${error.status}): ${error.message}`, "error");
  if (Array.isArray(problem.errors) && problem.errors.length > 1) {
    box.append(h("ul", {}, problem.errors.map((e) =>
      h("li", {}, `${(e.loc || []).join(".")}: ${e.msg}`))));
  }
  return box;
}
