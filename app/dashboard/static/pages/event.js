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

function changesTable(ladder, event) {
  const changes = [...event.changes].sort((a, b) =>
    (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.player.localeCompare(b.player));
  const factions = changes.some((c) => c.faction);
  const glicko = changes.some((c) => isNumber(c.deviation_after));
  const rows = changes.map((c) => h("tr", { "data-player": c.player, "data-faction": c.faction ?? "" },
    h("td", { class: "num", "data-field": "rank", "data-value": c.rank ?? "" }, c.rank ?? "—"),
    h("th", { scope: "row" }, playerLink(ladder.id, c.player, c.faction, c.name)),
    factions ? h("td", {}, c.faction ?? "—") : null,
    numCell(c.rating_before, { field: "rating_before" }),
    numCell(c.rating_after, { field: "rating_after" }),
    numCell(c.delta, { format: "signed", field: "delta" }),
    glicko ? h("td", { class: "num" }, `${num(c.deviation_before)} → ${num(c.deviation_after)}`) : null,
    h("td", { class: "details-cell" }, renderDetails(c.details))));
  return table({
    className: "standings",
    head: [numTh("Rank"), "Player", factions ? "Faction" : null, numTh("Before"), numTh("After"),
      numTh("Δ"), glicko ? numTh("Deviation") : null, "Details"].filter(Boolean),
    rows,
  });
}

async function recordedEvent(ladder, system, kind, id, setCrumbs) {
  const event = await api(`ladders/${encodeURIComponent(ladder.id)}/${kind}/${encodeURIComponent(id)}`);
  const name = event.name || event.id;
  setCrumbs(ladderCrumbs(ladder, [`${KINDS[kind]} ${name}`, null]));
  document.title = `${name} · ${ladder.title || ladder.id} · Ratings`;
  const held = event.held_on ?? event.played_at;
  return [
    ladderHeader(ladder, system, null, `${KINDS[kind]}: ${name}`),
    facts([
      ["Id", event.id],
      [event.held_on ? "Held on" : "Played at", when(held)],
      event.voided ? null : ["Players", event.changes.length],
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
      : [h("h2", {}, "Standings"), changesTable(ladder, event)],
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
