// A player: ratings per faction, a rating-history chart and the explained changes.

import { all, api, ladderAndSystem } from "../api.js";
import { h, isNumber, num, numCell, numTh, path, percent, symbolClass, table, when } from "../dom.js";
import { ratingChart } from "../chart.js";
import { renderDetails } from "../details.js";
import { labels, ladderCrumbs, ladderHeader } from "./common.js";

const EVENT_PAGES = { tournament: "tournaments", game: "games" };

function stat(label, value, raw) {
  return h("div", { class: "stat" },
    h("dt", { class: symbolClass(label) }, label),
    h("dd", { "data-value": isNumber(raw) ? String(raw) : null }, value));
}

/** A tournament ladder's statistics: placings, not wins and losses. */
function eventStats(stats) {
  return [
    stat("Events", stats.events, stats.events),
    stat("Best place", stats.best_place ?? "—", stats.best_place),
    stat("Top-3 finishes", stats.top3 ?? "—", stats.top3),
    stat("Mean percentile", percent(stats.mean_percentile, 1), stats.mean_percentile),
  ];
}

function ratingCard(rating, system, names) {
  return h("section", { class: "card rating-card", "data-faction": rating.faction ?? "" },
    h("h2", {}, rating.faction ?? "Current rating"),
    h("dl", { class: "stats" },
      stat(names.rating, num(rating.rating), rating.rating),
      rating.deviation !== null ? stat(names.deviation, num(rating.deviation), rating.deviation) : null,
      rating.ranking_value !== null ? stat(names.ranking, num(rating.ranking_value), rating.ranking_value) : null,
      rating.volatility !== null ? stat("Volatility", num(rating.volatility, 4), rating.volatility) : null,
      stat("Position", rating.position ?? "—", rating.position),
      system.kind === "game"
        ? [stat("Games (W/D/L)", `${rating.games} (${rating.wins}/${rating.draws}/${rating.losses})`, rating.games),
          stat("Win rate", percent(rating.win_rate, 1), rating.win_rate)]
        : eventStats(rating.event_statistics ?? { events: rating.games }),
      stat("Last played", when(rating.last_played_at)),
      decayStats(rating.decay, names)));
}

/** Ranked play's decay (API.md "Ranked play"): the values above are read decayed; what decay
 * took shows as the idle time and the values stored at the last event. */
function decayStats(decay, names) {
  if (!decay) return null;
  return [
    stat("Idle", `${num(decay.idle_days, 1)} days`, decay.idle_days),
    stat(`${names.rating} before decay`, num(decay.rating), decay.rating),
    isNumber(decay.deviation) ? stat(`${names.deviation} before decay`, num(decay.deviation), decay.deviation) : null,
    isNumber(decay.ranking_value) ? stat(`${names.ranking} before decay`, num(decay.ranking_value), decay.ranking_value) : null,
  ];
}

function eventCell(ladder, entry) {
  const section = EVENT_PAGES[entry.kind];
  const label = entry.id ?? entry.kind;
  return h("td", { class: "event" },
    h("span", { class: `kind kind-${entry.kind}` }, entry.kind), " ",
    section && entry.id ? h("a", { href: path("ladders", ladder.id, section, entry.id) }, label)
      : entry.id ? label : "",
    entry.voided ? h("span", { class: "badge" }, "voided") : null);
}

function changesTable(ladder, entries, names) {
  const glicko = entries.some((e) => isNumber(e.deviation_after));
  // A Team column only for players who played team games (a free-for-all's team is null).
  const teams = entries.some((e) => e.team);
  const rows = entries.map((e, i) => h("tr", {
    id: `change-${e.faction ?? "all"}-${i}`, class: e.voided ? "voided" : null,
    "data-kind": e.kind, "data-id": e.id ?? "", "data-index": i,
  },
  h("td", { class: "num" }, i + 1),
  eventCell(ladder, e),
  h("td", {}, when(e.at)),
  h("td", { class: "num" }, e.rank ?? "—"),
  teams ? h("td", { "data-field": "team" }, e.team ?? "—") : null,
  numCell(e.rating_before, { field: "rating_before" }),
  numCell(e.rating_after, { field: "rating_after" }),
  numCell(e.delta, { format: "signed", field: "delta" }),
  glicko ? h("td", { class: "num", "data-field": "deviation" },
    `${num(e.deviation_before)} → ${num(e.deviation_after)}`) : null,
  h("td", { class: "details-cell" }, renderDetails(e.details))));
  // Newest first for reading; # numbers the changes oldest first, as the chart's points run.
  rows.reverse();
  return table({
    className: "history",
    head: [numTh("#"), "Event", "Time", numTh("Rank"),
      teams ? "Team" : null, numTh("Before"), numTh("After"), numTh("Δ"),
      glicko ? numTh(names.deviation) : null, "Details"].filter(Boolean),
    rows,
  });
}

function factionSection(ladder, player, faction, entries, multiple, names) {
  const title = multiple ? `History · ${faction ?? "no faction"}` : "History";
  if (!entries.length) {
    return h("section", { class: "faction" }, h("h2", {}, title), h("p", { class: "empty" }, "No changes yet."));
  }
  const changes = changesTable(ladder, entries, names);
  const select = (i) => {
    const row = changes.querySelector(`tr[data-index="${i}"]`);
    changes.querySelectorAll("tr.selected").forEach((r) => r.classList.remove("selected"));
    row.classList.add("selected");
    row.scrollIntoView({ behavior: "smooth", block: "center" });
  };
  return h("section", { class: "faction", "data-faction": faction ?? "" },
    h("h2", {}, title),
    ratingChart(entries, { title: `${player}${faction ? ` (${faction})` : ""}`, onSelect: select, names }),
    h("h3", {}, "Changes, newest first"),
    changes);
}

export async function render({ ladder: ladderId, player }, { setCrumbs }) {
  const base = `ladders/${encodeURIComponent(ladderId)}/players/${encodeURIComponent(player)}`;
  const [{ ladder, system }, info, history] = await Promise.all([
    ladderAndSystem(ladderId), api(base), all(`${base}/history`, "entries"),
  ]);
  const shownName = info.name || player;
  setCrumbs(ladderCrumbs(ladder, [shownName, null]));
  document.title = `${shownName} · ${ladder.title || ladder.id} · Ratings`;

  // One chart per faction, in the order of the player's ratings.
  const groups = new Map(info.ratings.map((r) => [r.faction ?? null, []]));
  for (const entry of history.entries) {
    const key = entry.faction ?? null;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(entry);
  }
  const multiple = groups.size > 1 || system.per_faction;
  const names = labels(system, ladder);
  return [
    ladderHeader(ladder, system, null, shownName),
    h("p", { class: "profile", "data-player": player },
      info.name ? [h("span", { class: "player-id" }, player), " · "] : null,
      h("span", { "data-field": "country" }, info.country ? `Country: ${info.country}` : "No country given")),
    h("div", { class: "cards", "data-history-total": history.total },
      info.ratings.map((rating) => ratingCard(rating, system, names))),
    [...groups].map(([faction, entries]) => factionSection(ladder, player, faction, entries, multiple, names)),
  ];
}
