// A circuit's standings (docs/ranked.md "Circuits"): on a tournament ladder whose system awards
// points per event, a season with best_of N ranks each player by the sum of its best N events'
// points in the season, as the WDD's circuits rank a year's results. The board is the API's
// season board (GET .../leaderboard?season=ID), shown as is.

import { allSeasons, api, ladderAndSystem } from "../api.js";
import { field, h, numCell, numTh, playerLink, table, when } from "../dom.js";
import { errorNotice, ladderCrumbs, ladderHeader } from "./common.js";
import { boardSeasons, hashQuery } from "./leaderboard.js";

const LIMIT = 500;

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  setCrumbs(ladderCrumbs(ladder, ["Circuit", null]));
  document.title = `Circuit · ${ladder.title || ladder.id} · Ratings`;
  const head = ladderHeader(ladder, system, "circuit", "Circuit standings");
  const all = await allSeasons(ladder.id);
  const circuits = boardSeasons(all.filter((season) => season.best_of));
  if (!circuits.length) {
    return [head, h("p", { class: "empty" },
      "No circuit has begun on this ladder: a season created with best_of N ranks its players "
      + "by their best N events' points (POST /ladders/{ladder}/seasons).")];
  }
  const asked = hashQuery("season");
  const chosen = circuits.some((season) => season.id === asked) ? asked : circuits[0].id;
  const picker = h("select", { name: "circuit" }, circuits.map((season) =>
    h("option", { value: season.id, selected: season.id === chosen }, `${season.name} (${season.status})`)));
  const summary = h("p", { class: "muted status", role: "status" });
  const results = h("div", { class: "results" });

  async function load() {
    const season = circuits.find((entry) => entry.id === picker.value);
    results.setAttribute("aria-busy", "true");
    try {
      const board = await api(`ladders/${encodeURIComponent(ladder.id)}/leaderboard`, {
        query: { season: season.id, limit: LIMIT, active_within_days: 0 },
      });
      summary.replaceChildren(
        `${board.total} player${board.total === 1 ? "" : "s"} · best ${season.best_of} event`
        + `${season.best_of === 1 ? "" : "s"} count · from `, when(season.starts_at),
        season.ends_at ? [" to ", when(season.ends_at)] : " (running)");
      const rows = board.entries.map((e) => h("tr", { "data-player": e.player },
        h("td", { class: "num", "data-field": "position", "data-value": e.position }, e.position),
        h("th", { scope: "row" }, playerLink(ladder.id, e.player, e.faction, e.name)),
        numCell(e.points, { field: "points" }),
        h("td", { class: "num", "data-field": "games", "data-value": e.games }, e.games)));
      results.replaceChildren(rows.length
        ? table({
          className: "circuit",
          head: [numTh("#", "Position"), "Player",
            numTh("Points", `The sum of the player's best ${season.best_of} events' points`),
            numTh("Events", "Events played in the season")],
          rows,
        })
        : h("p", { class: "empty" }, "No event in this circuit yet."));
    } catch (error) {
      results.replaceChildren(errorNotice(error));
    } finally {
      results.setAttribute("aria-busy", "false");
    }
  }

  picker.addEventListener("change", load);
  await load();
  const form = h("form", { class: "controls", onsubmit: (e) => { e.preventDefault(); load(); } },
    field("Circuit", picker, "A season ranked by its best events"));
  return [head, form, summary, results];
}
