// A ladder's recorded results, newest first: its games (game systems) or tournaments, with a
// player filter and pages of 50 (GET /ladders/{ladder}/games or /tournaments).

import { api, ladderAndSystem } from "../api.js";
import { field, h, path, playerLink, table, when } from "../dom.js";
import { errorNotice, ladderCrumbs, ladderHeader } from "./common.js";

const PAGE = 50;

function byRank(changes) {
  return [...changes].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.player.localeCompare(b.player));
}

/** The players of an event in rank order, each with its name where it has one. */
function players(ladder, event) {
  const changes = byRank(event.changes);
  if (!changes.length) return h("span", { class: "muted" }, event.voided ? "voided: no changes" : "—");
  return changes.flatMap((c, i) => [i ? ", " : "",
    h("span", { class: "standing", "data-player": c.player },
      c.rank !== null && c.rank !== undefined ? `${c.rank}. ` : "", playerLink(ladder.id, c.player, c.faction, c.name))]);
}

/** A team game's sides best first: "1. red (alice, bob) · 2. blue (carol)". */
function sides(ladder, game) {
  const names = new Map(game.changes.map((c) => [c.player, c.name]));
  const ordered = game.teams.map((t, i) => [t, i]).sort(([a, i], [b, j]) => a.rank - b.rank || i - j);
  return ordered.flatMap(([t], i) => [i ? " · " : "",
    h("span", { class: "standing side", "data-team": t.team }, `${t.rank}. ${t.team} (`,
      t.players.flatMap((p, k) => [k ? ", " : "", playerLink(ladder.id, p.player, p.faction, names.get(p.player))]), ")")]);
}

function gameRow(ladder, game) {
  return h("tr", { "data-id": game.id, class: game.voided ? "voided" : null },
    h("td", {}, when(game.played_at)),
    h("th", { scope: "row" }, h("a", { href: path("ladders", ladder.id, "games", game.id) }, game.id),
      game.voided ? h("span", { class: "badge" }, "voided") : null,
      game.rated === false ? h("span", { class: "badge" }, "unrated") : null),
    h("td", { class: "players" }, game.teams?.length ? sides(ladder, game) : players(ladder, game)));
}

function tournamentRow(ladder, tournament) {
  return h("tr", { "data-id": tournament.id, class: tournament.voided ? "voided" : null },
    h("td", {}, when(tournament.held_on, { dateOnly: true })),
    h("th", { scope: "row" },
      h("a", { href: path("ladders", ladder.id, "tournaments", tournament.id) }, tournament.name || tournament.id),
      tournament.voided ? h("span", { class: "badge" }, "voided") : null),
    h("td", { class: "num", "data-field": "players" }, tournament.changes.length || "—"),
    h("td", { class: "players" }, players(ladder, { ...tournament, changes: tournament.changes.slice(0, 3) })));
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  const tournaments = system.kind === "tournament";
  const label = tournaments ? "Tournaments" : "Games";
  setCrumbs(ladderCrumbs(ladder, [label, null]));
  document.title = `${label} · ${ladder.title || ladder.id} · Ratings`;

  const player = h("input", {
    type: "text", name: "player", placeholder: "Every player", autocomplete: "off", spellcheck: "false",
  });
  const status = h("p", { class: "muted status", role: "status" });
  const results = h("div", { class: "results" });
  let offset = 0;

  async function load() {
    results.setAttribute("aria-busy", "true");
    try {
      const list = await api(`ladders/${encodeURIComponent(ladder.id)}/${tournaments ? "tournaments" : "games"}`,
        { query: { limit: PAGE, offset, player: player.value.trim() } });
      const rows = list.items.map((item) => (tournaments ? tournamentRow(ladder, item) : gameRow(ladder, item)));
      const who = player.value.trim() ? ` with ${player.value.trim()}` : "";
      status.textContent = `${list.total} ${label.toLowerCase()}${who}, newest first`
        + (list.total > list.items.length ? `, showing ${offset + 1}–${offset + list.items.length}` : "");
      const pager = list.total > PAGE ? h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", disabled: offset === 0,
          onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, `Newer ${PAGE}`),
        h("button", { type: "button", class: "secondary", disabled: offset + PAGE >= list.total,
          onclick: () => { offset += PAGE; load(); } }, `Older ${PAGE}`)) : null;
      results.replaceChildren(
        rows.length
          ? table({
            className: tournaments ? "results tournaments" : "results games",
            head: tournaments ? ["Held on", "Tournament", "Players", "Top three"] : ["Played", "Game", "Players by rank"],
            rows,
          })
          : h("p", { class: "empty" }, `No ${label.toLowerCase()} recorded${who}.`),
        pager ?? "");
    } catch (error) {
      results.replaceChildren(errorNotice(error));
    } finally {
      results.setAttribute("aria-busy", "false");
    }
  }

  player.addEventListener("change", () => { offset = 0; load(); });
  await load();
  const form = h("form", { class: "controls", onsubmit: (e) => { e.preventDefault(); offset = 0; load(); } },
    field("Player id", player, "Only the results that rated this player"));
  return [ladderHeader(ladder, system, "results"), form, status, results];
}
