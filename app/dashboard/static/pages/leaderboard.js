// A ladder's leaderboard: server-side sort, activity and faction filters; client-side search.

import { api, ladderAndSystem } from "../api.js";
import { countryCell, csvText, download, field, h, numCell, numTh, playerLink, table, when } from "../dom.js";
import { errorNotice, labels, ladderCrumbs, ladderHeader } from "./common.js";

const PAGE = 500;

function option(value, label, selected) {
  return h("option", { value, selected: value === selected }, label);
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  setCrumbs(ladderCrumbs(ladder, ["Leaderboard", null]));
  document.title = `${ladder.title || ladder.id} · Ratings`;

  const byRanking = system.rank_by === "ranking_value";
  const tournaments = system.kind === "tournament";
  const names = labels(system, ladder);
  const search = h("input", { type: "search", name: "q", placeholder: "Player name or id", autocomplete: "off" });
  // The national ranking: the server ranks that country's players among themselves.
  const country = h("input", {
    type: "text", name: "country", placeholder: "All countries", maxlength: 2, size: 4,
    autocomplete: "off", pattern: "[A-Za-z]{2}", spellcheck: "false",
  });
  const sort = h("select", { name: "sort" },
    option("rating", byRanking ? names.ranking : names.rating, "rating"),
    option("name", "Name"), option("games", tournaments ? "Events" : "Games"));
  const order = h("select", { name: "order" },
    option("", "Default", ""), option("desc", "Descending"), option("asc", "Ascending"));
  // Empty until the reader sets it: the server applies the system's default and echoes it.
  const active = h("input", {
    type: "number", name: "active_within_days", min: 0, max: 36500, step: 1, inputmode: "numeric",
    placeholder: String(system.default_active_within_days ?? 0),
  });
  const factions = h("datalist", { id: "factions" });
  const faction = system.per_faction
    ? h("input", { type: "text", name: "faction", list: "factions", placeholder: "All factions" })
    : null;
  // The board as of the end of a day (UTC): a ranking "for 2025" is the board as of 2025-12-31.
  const asOf = h("input", { type: "date", name: "as_of", min: "0001-01-01", max: "9999-12-31" });
  const status = h("p", { class: "muted status", role: "status" });
  const filterNote = h("div", { class: "filter-note" });
  const results = h("div", { class: "results" });
  let offset = 0;
  let entries = [];
  let total = 0;
  let applied = { days: 0, since: null, byDefault: false };
  // What the table shows now (columns and rows), for the CSV export.
  let exported = { columns: [], rows: [] };
  const seenFactions = new Set();

  const activityHint = system.default_active_within_days
    ? `0 = everyone; blank = the ${system.title} default, ${system.default_active_within_days} days`
    : "0 or blank = everyone (this system sets no default)";

  function draw() {
    const needle = search.value.trim().toLowerCase();
    const matches = (e) => e.player.toLowerCase().includes(needle) || (e.name ?? "").toLowerCase().includes(needle);
    const shown = needle ? entries.filter(matches) : entries;
    const showCountry = entries.some((e) => e.country);
    // The page shows a name in the player's cell; the CSV gives it a column of its own.
    const showNames = entries.some((e) => e.name);
    const showRanking = byRanking || entries.some((e) => e.ranking_value !== null);
    const showDeviation = entries.some((e) => e.deviation !== null && e.deviation !== undefined);
    // Kinzett splits equal primary points by secondary points: without them ties look arbitrary.
    const showTiebreak = entries.some((e) => e.tiebreak !== null && e.tiebreak !== undefined);
    // Each column: its heading, its cell, and its value in the CSV export (exact numbers).
    const columns = [
      [numTh("#", "Position"), (e) => h("td", { class: "num", "data-field": "position", "data-value": e.position }, e.position),
        (e) => e.position],
      ["Player", (e) => h("th", { scope: "row" }, playerLink(ladder.id, e.player, e.faction, e.name)),
        (e) => e.player],
      showNames && ["Name", null, (e) => e.name],
      showCountry && ["Country", (e) => countryCell(e.country), (e) => e.country],
      system.per_faction && ["Faction", (e) => h("td", { "data-field": "faction" }, e.faction ?? "—"), (e) => e.faction],
      [numTh(names.rating), (e) => numCell(e.rating, { field: "rating" }), (e) => e.rating],
      showTiebreak && [numTh(names.tiebreak, "Splits equal values"), (e) => numCell(e.tiebreak, { field: "tiebreak" }),
        (e) => e.tiebreak],
      // Deviation before ranking value: μ, σ, then the μ − 3σ they make (Glicko: r, RD, r − k·RD).
      showDeviation && [numTh(names.deviation), (e) => numCell(e.deviation, { field: "deviation" }), (e) => e.deviation],
      showRanking && [numTh(names.ranking, "The value that orders the leaderboard"),
        (e) => numCell(e.ranking_value, { field: "ranking_value" }), (e) => e.ranking_value],
      [numTh(tournaments ? "Events" : "Games"),
        (e) => h("td", { class: "num", "data-field": "games", "data-value": e.games }, e.games), (e) => e.games],
      // Tournaments are placings, not wins and losses: a tournament ladder shows its events'.
      ...(tournaments ? [
        [numTh("Best", "Best place"), (e) => numCell(e.event_statistics?.best_place, { field: "best_place", digits: 0 }),
          (e) => e.event_statistics?.best_place],
        [numTh("Top 3", "Events finished 1st, 2nd or 3rd"), (e) => numCell(e.event_statistics?.top3, { field: "top3", digits: 0 }),
          (e) => e.event_statistics?.top3],
        [numTh("Mean percentile", "Mean of (n − rank) / (n − 1): 100% first, 0% last"),
          (e) => numCell(e.event_statistics?.mean_percentile, { format: "percent", field: "mean_percentile", digits: 1 }),
          (e) => e.event_statistics?.mean_percentile],
      ] : [
        [numTh("Win rate"), (e) => numCell(e.win_rate, { format: "percent", field: "win_rate", digits: 1 }), (e) => e.win_rate],
      ]),
      ["Last played", (e) => h("td", { "data-field": "last_played_at" }, when(e.last_played_at)), (e) => e.last_played_at],
    ].filter(Boolean);
    exported = { columns, rows: shown };
    const onPage = columns.filter(([, cell]) => cell);
    const head = onPage.map(([label]) => label);
    // Each cell carries its column's name: narrow screens show it beside the value (style.css).
    const headings = head.map((cell) => (typeof cell === "string" ? cell : cell.textContent));
    // On narrow screens the row starts with the value that decides the position (style.css).
    const lead = byRanking ? "ranking_value" : "rating";
    const rows = shown.map((e) => h("tr", { "data-player": e.player, "data-faction": e.faction ?? "" },
      onPage.map(([, cell], i) => {
        const node = cell(e);
        node.dataset.label = headings[i];
        if (node.dataset.field === lead) node.classList.add("lead");
        return node;
      })));
    const scope = (applied.days > 0 ? `active within ${applied.days} days` : "everyone")
      + (applied.country ? `, national ranking of ${applied.country}` : "")
      + (applied.asOf ? `, as of ${applied.asOf} (end of day, UTC)` : "");
    status.textContent = `${total} player${total === 1 ? "" : "s"} (${scope})`
      + (total > entries.length ? `, showing ${offset + 1}–${offset + entries.length}` : "")
      + (needle ? ` · ${shown.length} match “${search.value.trim()}”` : "");
    const pager = total > PAGE ? h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", disabled: offset === 0,
        onclick: () => { offset = Math.max(0, offset - PAGE); load(); } }, `Previous ${PAGE}`),
      h("button", { type: "button", class: "secondary", disabled: offset + PAGE >= total,
        onclick: () => { offset += PAGE; load(); } }, `Next ${PAGE}`)) : null;
    drawFilterNote();
    results.replaceChildren(
      shown.length
        ? table({ className: "leaderboard", head, rows })
        : h("p", { class: "empty" }, entries.length ? "No player matches the search." : "No rated players in this view."),
      pager ?? "");
  }

  function everyone() {
    active.value = "0";
    reload();
  }

  /** Says when an activity filter hides players (the default one especially), with a way out. */
  function drawFilterNote() {
    if (applied.days <= 0) {
      filterNote.replaceChildren();
      return;
    }
    const origin = applied.byDefault ? ` (the ${system.title} default)` : "";
    const cutoff = applied.since ? [", since ", when(applied.since)] : "";
    const lift = h("button", { type: "button", class: "link", "data-action": "everyone", onclick: everyone },
      "Show everyone");
    const empty = total === 0 && ladder.players > 0;
    filterNote.replaceChildren(h("p", {
      class: `notice ${empty ? "warn" : "info"}`, role: "status", "data-filter": applied.byDefault ? "default" : "asked",
    },
    empty
      ? [`No player has played in the last ${applied.days} days`, cutoff, origin, "; this ladder has "
        + `${ladder.players} rated player${ladder.players === 1 ? "" : "s"}. `]
      : [`Showing players active in the last ${applied.days} days`, cutoff, origin, ". "],
    lift));
  }

  async function load() {
    results.setAttribute("aria-busy", "true");
    try {
      const asked = active.value === "" ? null : Math.max(0, Math.trunc(Number(active.value)));
      const page = await api(`ladders/${encodeURIComponent(ladder.id)}/leaderboard`, {
        query: {
          limit: PAGE, offset, sort: sort.value, order: order.value,
          active_within_days: asked, faction: faction?.value.trim(),
          country: country.value.trim().toUpperCase(),
          as_of: asOf.value ? `${asOf.value}T23:59:59.999999Z` : null,
        },
      });
      entries = page.entries;
      total = page.total;
      // The filter the server applied (its echo), and whether it was the system's default.
      applied = {
        days: page.active_within_days ?? 0, since: page.active_since, byDefault: asked === null,
        country: page.country, asOf: asOf.value,
      };
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
  for (const control of [sort, order, active, faction, country, asOf].filter(Boolean)) {
    control.addEventListener("change", reload);
  }
  await load();

  const form = h("form", { class: "controls", role: "search", onsubmit: (e) => { e.preventDefault(); reload(); } },
    field("Search player", search, "Filters the rows shown"),
    field("Sort by", sort),
    field("Order", order),
    field("Active within days", active, activityHint),
    faction ? field("Faction", faction, "Blank = every faction") : null,
    field("Country", country, "ISO code (FR, GB, ...): the national ranking"),
    field("As of", asOf, "The board at the end of that day (UTC); blank = now"),
    factions);

  /** The board as shown (its columns, the rows the search leaves), as a CSV file. */
  function exportCsv() {
    const { columns, rows } = exported;
    const text = csvText(columns.map(([label]) => (typeof label === "string" ? label : label.textContent)),
      rows.map((e) => columns.map(([, , value]) => value(e) ?? null)));
    const parts = [ladder.id, "leaderboard", applied.country, applied.asOf && `as-of-${applied.asOf}`];
    download(`${parts.filter(Boolean).join("-")}.csv`, text);
  }
  const exportButton = h("div", { class: "actions" },
    h("button", { type: "button", class: "secondary", "data-action": "csv", onclick: exportCsv }, "Download CSV"));
  return [ladderHeader(ladder, system, "leaderboard"), form, filterNote, status, exportButton, results];
}
