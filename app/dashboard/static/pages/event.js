// A tournament (or a game): its standings by rank with each player's change explained. On a
// game ladder (Kinzett), a tournament is the games that name it: its standings by points.

import { ApiError, api, ladderAndSystem } from "../api.js";
import { h, isNumber, notice, num, numCell, numTh, playerLink, table, when } from "../dom.js";
import { renderDetails } from "../details.js";
import { labels, ladderCrumbs, ladderHeader } from "./common.js";

const KINDS = { tournaments: "Tournament", games: "Game" };

function facts(items) {
  return h("dl", { class: "facts" }, items.filter(Boolean).map(([term, value]) =>
    [h("dt", {}, term), h("dd", {}, value)]));
}

function voidedNotice(kind) {
  return notice(`This ${kind.toLowerCase()} was voided: it no longer counts, and every later `
    + "rating was recomputed as if it had never been played. No rating changes to show.", "warn");
}

/** One row per change: rank, player, before/after/Δ, deviations where the system keeps them. */
function changeRows(ladder, changes, { factions, deviation, weights, rank = true, weightOf }) {
  return changes.map((c) => h("tr", { "data-player": c.player, "data-faction": c.faction ?? "", "data-team": c.team ?? "" },
    rank ? h("td", { class: "num", "data-field": "rank", "data-value": c.rank ?? "" }, c.rank ?? "—") : null,
    h("th", { scope: "row" }, playerLink(ladder.id, c.player, c.faction, c.name)),
    factions ? h("td", {}, c.faction ?? "—") : null,
    weights ? numCell(weightOf(c), { field: "weight" }) : null,
    numCell(c.rating_before, { field: "rating_before" }),
    numCell(c.rating_after, { field: "rating_after" }),
    numCell(c.delta, { format: "signed", field: "delta" }),
    deviation ? h("td", { class: "num" }, `${num(c.deviation_before)} → ${num(c.deviation_after)}`) : null,
    h("td", { class: "details-cell" }, renderDetails(c.details))));
}

function changesHead(names, { factions, deviation, weights, rank = true }) {
  return [rank ? numTh("Rank") : null, "Player", factions ? "Faction" : null,
    weights ? numTh("Weight", "The share of the game the player played") : null,
    numTh("Before"), numTh("After"), numTh("Δ"), deviation ? numTh(names.deviation) : null,
    "Details"].filter(Boolean);
}

function byRank(a, b) {
  return (a.rank ?? Infinity) - (b.rank ?? Infinity);
}

function changesTable(ladder, event, names) {
  const changes = [...event.changes].sort((a, b) => byRank(a, b) || a.player.localeCompare(b.player));
  const shown = {
    factions: changes.some((c) => c.faction),
    deviation: changes.some((c) => isNumber(c.deviation_after)),
  };
  return table({ className: "standings", head: changesHead(names, shown), rows: changeRows(ladder, changes, shown) });
}

// A side member's weight when the game does not give one: it played the whole game.
const FULL_WEIGHT = 1;

/**
 * A team game: its sides best first (equal ranks drew; they keep the posted order), each with
 * its label, rank and members' changes. The weight column appears when someone played part
 * of the game (weight < 1).
 */
function sidesTables(ladder, event, names) {
  const change = new Map(event.changes.map((c) => [c.player, c]));
  const weight = new Map(event.teams.flatMap((t) => t.players.map((p) => [p.player, p.weight ?? FULL_WEIGHT])));
  const ranks = event.teams.map((t) => t.rank);
  const shown = {
    factions: event.changes.some((c) => c.faction),
    deviation: event.changes.some((c) => isNumber(c.deviation_after)),
    weights: [...weight.values()].some((w) => w < FULL_WEIGHT),
    rank: false,
    weightOf: (c) => weight.get(c.player),
  };
  const sides = event.teams.map((t, i) => [t, i]).sort(([a, i], [b, j]) => byRank(a, b) || i - j);
  return sides.map(([side]) => {
    const tied = ranks.filter((r) => r === side.rank).length > 1;
    // An unrated game may hold no change for a member: the member is still listed.
    const members = side.players.map((p) => change.get(p.player) ?? { player: p.player, faction: p.faction ?? null, team: side.team });
    return h("section", { class: "side", "data-team": side.team, "data-rank": side.rank },
      h("h3", {}, `Side ${side.team}`, h("span", { class: "muted" },
        ` · rank ${side.rank}${tied ? " (tied)" : ""} · ${members.length} player${members.length === 1 ? "" : "s"}`)),
      table({ className: "standings side-members", head: changesHead(names, shown), rows: changeRows(ladder, members, shown) }));
  });
}

async function recordedEvent(ladder, system, kind, id, setCrumbs) {
  const event = await api(`ladders/${encodeURIComponent(ladder.id)}/${kind}/${encodeURIComponent(id)}`);
  const name = event.name || event.id;
  setCrumbs(ladderCrumbs(ladder, [`${KINDS[kind]} ${name}`, null]));
  document.title = `${name} · ${ladder.title || ladder.id} · Ratings`;
  const held = event.held_on ?? event.played_at;
  const names = labels(system, ladder);
  const teams = Array.isArray(event.teams) && event.teams.length > 0;
  return [
    ladderHeader(ladder, system, null, `${KINDS[kind]}: ${name}`),
    facts([
      ["Id", event.id],
      [event.held_on ? "Held on" : "Played at", when(held)],
      event.voided ? null : ["Players", event.changes.length],
      teams ? ["Sides", event.teams.length] : null,
      ["Sequence", event.seq],
      event.voided ? ["Status", h("span", { class: "badge" }, "voided")] : null,
      event.rated === false ? ["Rated", "no"] : null,
      event.tournament
        ? ["Tournament", h("a", {
          href: `#/ladders/${encodeURIComponent(ladder.id)}/tournaments/${encodeURIComponent(event.tournament)}`,
        }, event.tournament)]
        : null,
    ]),
    // A voided event keeps no changes: say so rather than draw an empty table.
    event.voided && !event.changes.length
      ? voidedNotice(KINDS[kind])
      : teams
        ? [h("h2", {}, "Sides, best first"), sidesTables(ladder, event, names)]
        : [h("h2", {}, "Standings"), changesTable(ladder, event, names)],
  ];
}

/** A tournament of games (GET .../standings): primary points, ties split by secondary. */
async function gameTournament(ladder, system, id, setCrumbs) {
  const standings = await api(
    `ladders/${encodeURIComponent(ladder.id)}/tournaments/${encodeURIComponent(id)}/standings`);
  setCrumbs(ladderCrumbs(ladder, [`Tournament ${id}`, null]));
  document.title = `${id} · ${ladder.title || ladder.id} · Ratings`;
  const names = labels(system);
  const withTeams = standings.players.some((p) => p.team);
  const points = (entry) => [
    numCell(entry.primary, { field: "primary" }),
    numCell(entry.secondary, { field: "secondary" }),
  ];
  const players = standings.players.map((p) => h("tr", { "data-player": p.player },
    h("td", { class: "num", "data-field": "position", "data-value": p.position }, p.position),
    h("th", { scope: "row" }, playerLink(ladder.id, p.player, null, p.name)),
    withTeams ? h("td", { "data-field": "team" }, p.team ?? "—") : null,
    h("td", { class: "num", "data-field": "games", "data-value": p.games }, p.games),
    points(p)));
  const teams = standings.teams.map((t) => h("tr", { "data-team": t.team },
    h("td", { class: "num", "data-field": "position", "data-value": t.position }, t.position),
    h("th", { scope: "row" }, t.team),
    h("td", {}, t.members.flatMap((m, i) => [i ? ", " : "", playerLink(ladder.id, m)])),
    points(t)));
  return [
    ladderHeader(ladder, system, null, `Tournament: ${id}`),
    h("p", { class: "muted" }, `The games of this ladder that name tournament “${id}”, by total `
      + `${names.rating.toLowerCase()}, ties split by ${names.tiebreak.toLowerCase()}.`),
    facts([["Id", id], ["Players", standings.players.length],
      withTeams ? ["Teams", standings.teams.length] : null]),
    h("h2", {}, "Standings"),
    table({
      className: "standings points",
      head: [numTh("#", "Position"), "Player", withTeams ? "Team" : null, numTh("Games"),
        numTh(names.rating), numTh(names.tiebreak)].filter(Boolean),
      rows: players,
    }),
    teams.length ? [
      h("h2", {}, "Teams"),
      table({
        className: "teams",
        head: [numTh("#", "Position"), "Team", "Members", numTh(names.rating), numTh(names.tiebreak)],
        rows: teams,
      }),
    ] : null,
  ];
}

export async function render({ ladder: ladderId, kind, id }, { setCrumbs }) {
  if (!KINDS[kind]) throw new ApiError(404, { title: "Not found", detail: `no page “${kind}”` });
  const { ladder, system } = await ladderAndSystem(ladderId);
  // Game ladders hold no tournaments of their own; their tournaments are groups of games.
  if (kind === "tournaments" && ladder.kind === "game") {
    return gameTournament(ladder, system, id, setCrumbs);
  }
  return recordedEvent(ladder, system, kind, id, setCrumbs);
}
