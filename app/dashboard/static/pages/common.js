// Pieces shared by the pages: a ladder's header and tabs, error rendering.

import { ApiError } from "../api.js";
import { h, notice, path } from "../dom.js";

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
    ["lobby", "Lobby preview", path("ladders", ladder.id, "lobby")],
    ["whatif", "What-if", path("ladders", ladder.id, "whatif")],
  ];
  return h("header", { class: "page-head" },
    h("h1", {}, heading || ladder.title || ladder.id),
    h("p", { class: "muted" },
      heading ? `${ladder.title || ladder.id} · ` : "",
      `${system.title} (${system.id}) · ${system.kind} system`,
      system.per_faction ? " · rated per faction" : ""),
    h("nav", { class: "tabs", "aria-label": "Ladder pages" }, tabs.map(([key, label, href]) =>
      h("a", { href, "aria-current": key === active ? "page" : null }, label))));
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
