// A ladder's leaderboard: server-side sort, activity and faction filters; client-side search.

import { api, ladderAndSystem } from "../api.js";
import { field, h, numCell, numTh, playerLink, table, when } from "../dom.js";
import { errorNotice, ladderCrumbs, ladderHeader } from "./common.js";

const PAGE = 500;

function option(value, label, selected) {
  return h("option", { value, selected: value === selected }, label);
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  setCrumbs(ladderCrumbs(ladder, ["Leaderboard", null]));
  document.title = `${ladder.title || ladder.id} · Ratings`;

  const byRanking = system.rank_by === "ranking_value";
  const search = h("input", { type: "search", name: "q", placeholder: "Player name", autocomplete: "off" });
  const sort = h("select", { name: "sort" },
    option("rating", byRanking ? "Rating (ranking value)" : "Rating", "rating"),
    option("name", "Name"), option("games", "Games"));
  const order = h("select", { name: "order" },
    option("", "Default", ""), option("desc", "Descending"), option("asc", "Ascending"));
  const active = h("input", {
    type: "number", name: "active_within_days", min: 0, max: 36500, step: 1, inputmode: "numeric",
    value: String(system.default_active_within_days ?? 0),
  });
  const factions = h("datalist", { id: "factions" });
  const faction = system.per_faction
    ? h("input", { type: "text", name: "faction", list: "factions", placeholder: "All factions" })
    : null;
  const status = h("p", { class: "muted status", role: "status" });
  const results = h("div", { class: "results" });
  let offset = 0;
  let entries = [];
  let total = 0;
  const seenFactions = new Set();

  const activityHint = system.default_active_within_days
    ? `0 = everyone; the ${system.title} default is ${system.default_active_within_days} days`
    : "0 = everyone (this system sets no default)";

  function draw() {
    const needle = search.value.trim().toLowerCase();
    const shown = needle ? entries.filter((e) => e.player.toLowerCase().includes(needle)) : entries;
    const showRanking = byRanking || entries.some((e) => e.ranking_value !== null);
    const showDeviation = entries.some((e) => e.deviation !== null && e.deviation !== undefined);
    const head = [numTh("#", "Position"), "Player", system.per_faction ? "Faction" : null,
      numTh("Rating"), showRanking ? numTh("Ranking value") : null,
      showDeviation ? numTh("Deviation") : null,
      numTh("Games"), numTh("Win rate"), "Last played"].filter(Boolean);
    const rows = shown.map((e) => h("tr", { "data-player": e.player, "data-faction": e.faction ?? "" },
      h("td", { class: "num", "data-field": "position", "data-value": e.position }, e.position),
      h("th", { scope: "row" }, playerLink(ladder.id, e.player, e.faction)),
      system.per_faction ? h("td", { "data-field": "faction" }, e.faction ?? "—") : null,
      numCell(e.rating, { field: "rating" }),
      showRanking ? numCell(e.ranking_value, { field: "ranking_value" }) : null,
      showDeviation ? numCell(e.deviation, { field: "deviation" }) : null,
      h("td", { class: "num", "data-field": "games", "data-value": e.games }, e.games),
      numCell(e.win_rate, { format: "percent", field: "win_rate", digits: 1 }),
      h("td", { "data-field": "last_played_at" }, when(e.last_played_at))));
    const days = Number(active.value);
    const scope = days > 0 ? `active within ${days} days` : "everyone";
    status.textContent = `${total} player${total === 1 ? "" : "s"} (${scope})`
      + (total > entries.length ? `, showing ${offset + 1}–${offset + entries.length}` : "")
      + (needle ? ` · ${shown.length} match “${search.value.trim()}”` : "");
    const pager = total > PAGE ? h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", disabled: offset === 0,
        onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, `Previous ${PAGE}`),
      h("button", { type: "button", class: "secondary", disabled: offset + PAGE >= total,
        onclick: () => { offset += PAGE; load(); } }, `Next ${PAGE}`)) : null;
    results.replaceChildren(
      shown.length
        ? table({ className: "leaderboard", head, rows })
        : h("p", { class: "empty" }, entries.length ? "No player matches the search." : "No rated players in this view."),
      pager ?? "");
  }

  async function load() {
    results.setAttribute("aria-busy", "true");
    try {
      const page = await api(`ladders/${encodeURIComponent(ladder.id)}/leaderboard`, {
        query: {
          limit: PAGE, offset, sort: sort.value, order: order.value,
          active_within_days: active.value === "" ? null : Math.max(0, Math.trunc(Number(active.value))),
          faction: faction?.value.trim(),
        },
      });
      entries = page.entries;
      total = page.total;
      for (const e of entries) if (e.faction) seenFactions.add(e.faction);
      factions.replaceChildren(...[...seenFactions].sort().map((f) => h("option", { value: f })));
      draw();
    } catch (error) {
      results.replaceChildren(errorNotice(error));
    } finally {
      results.setAttribute("aria-busy", "false");
    }
  }

  const reload = () => { offset = 0; load(); };
  search.addEventListener("input", draw);
  for (const control of [sort, order, active, faction].filter(Boolean)) {
    control.addEventListener("change", reload);
  }
  await load();

  const form = h("form", { class: "controls", role: "search", onsubmit: (e) => { e.preventDefault(); reload(); } },
    field("Search player", search, "Filters the rows shown"),
    field("Sort by", sort),
    field("Order", order),
    field("Active within days", active, activityHint),
    faction ? field("Faction", faction, "Blank = every faction") : null,
    factions);
  return [ladderHeader(ladder, system, "leaderboard"), form, status, results];
}
