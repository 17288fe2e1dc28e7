// Pieces shared by the pages: a ladder's header and tabs, error rendering.

import { ApiError, api } from "../api.js";
import { h, notice, path, playerLink } from "../dom.js";

/** Raised (as a window event) when an action on a page needs a token. */
export const UNAUTHORIZED = "ratings:unauthorized";

// Column names where a system's numbers are not called a rating: Kinzett scores primary
// points, ties split by secondary points (seed 002); the Bayesian systems' rating is the mean
// μ of a skill belief and their deviation its σ (SYSTEMS.md "trueskill", "weng-lin").
const BAYESIAN = { rating: "μ", deviation: "σ", band: "μ ± σ (one σ)" };
const SYSTEM_LABELS = {
  kinzett: { rating: "Primary points", tiebreak: "Secondary points" },
  trueskill: BAYESIAN,
  "weng-lin": BAYESIAN,
};
// The systems that award points per event, whose seasons may be circuits (best_of N: SYSTEMS.md
// "Seasons"; the server's list is app/services/seasons.py EVENT_POINTS).
const CIRCUIT_SYSTEMS = new Set(["cdiplo", "wpe", "daanz"]);
// SYSTEMS.md: both Bayesian systems rank by μ − 3σ unless the ladder sets ranking_multiplier.
const DEFAULT_RANKING_MULTIPLIER = 3;

/**
 * How pages name a system's columns: rating, tiebreak, deviation, ranking value and the chart's
 * deviation band. With the ladder, a Bayesian ranking value reads "μ − 3σ" (its multiplier).
 */
export function labels(system, ladder = null) {
  const names = {
    rating: "Rating", tiebreak: "Tiebreak", deviation: "Deviation", ranking: "Ranking value",
    band: "rating ± deviation (one RD)", ...SYSTEM_LABELS[system.id],
  };
  if (SYSTEM_LABELS[system.id] === BAYESIAN) {
    const k = ladder?.params?.ranking_multiplier ?? DEFAULT_RANKING_MULTIPLIER;
    names.ranking = `μ − ${k === 1 ? "" : k}σ`;
  }
  return names;
}

/** What a match quality means on this system (API.md "Teams"), for beside the number. */
export function qualityNote(system) {
  return system.id === "trueskill"
    ? " (TrueSkill's draw probability relative to equal sides)"
    : " (1 − |2p − 1| for the least even pair; 100% = a coin flip)";
}

export function ladderCrumbs(ladder, ...more) {
  return [["Ladders", "#/"], [ladder.title || ladder.id, path("ladders", ladder.id)], ...more];
}

export function ladderHeader(ladder, system, active, heading) {
  const tabs = [
    ["leaderboard", "Leaderboard", path("ladders", ladder.id)],
    ["results", system.kind === "tournament" ? "Tournaments" : "Games", path("ladders", ladder.id, "results")],
    ["feed", "Feed", path("ladders", ladder.id, "feed")],
    ["lobby", "Lobby preview", path("ladders", ladder.id, "lobby")],
    ["whatif", "What-if", path("ladders", ladder.id, "whatif")],
    // Splitting players into sides needs a system that rates sides (GET /systems: "sides").
    system.sides ? ["balance", "Balance", path("ladders", ladder.id, "balance")] : null,
    system.kind === "game" ? ["evaluation", "Evaluation", path("ladders", ladder.id, "evaluation")] : null,
    CIRCUIT_SYSTEMS.has(system.id) ? ["circuit", "Circuit", path("ladders", ladder.id, "circuit")] : null,
  ].filter(Boolean);
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
