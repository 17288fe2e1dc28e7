// A ladder's leaderboard: server-side sort, activity and faction filters; client-side search.
// Ranked play (docs/ranked.md): a season picker (a season's board, GET ...?season=), each
// row's division badge and provisional mark, and the filters by division and provisional status.

import { allSeasons, api, ladderAndSystem } from "../api.js";
import { countryCell, csvText, download, field, h, numCell, numTh, playerLink, table, when } from "../dom.js";
import { errorNotice, labels, ladderCrumbs, ladderHeader } from "./common.js";

const PAGE = 500;

function option(value, label, selected) {
  return h("option", { value, selected: value === selected }, label);
}

/** A parameter of the page's address (#/ladders/x?season=s1): the season picked. */
export function hashQuery(name) {
  const query = location.hash.split("?")[1] ?? "";
  return new URLSearchParams(query).get(name);
}

/** The seasons a board can be asked for: those that have begun (current first, then closed,
 * newest first). A ladder without seasons gives none. */
export function boardSeasons(seasons) {
  return seasons.filter((season) => season.status !== "upcoming")
    .sort((a, b) => (a.starts_at < b.starts_at ? 1 : -1));
}

/** A division's badge: its name as text (the ladder's admin chose it; never markup). */
export function divisionBadge(division) {
  return division
    ? h("span", { class: "badge division", "data-division": division }, division)
    : "—";
}

/** The mark of a provisional player (placement games left, or a deviation still high). */
export function provisionalMark(entry) {
  return entry.provisional
    ? h("span", { class: "badge provisional", "data-provisional": "true",
      title: "Provisional: still placing (too few rated games this season, or a high deviation)" },
    "provisional")
    : null;
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
  // Ranked play: the season picker and the provisional and division filters.
  const seasons = boardSeasons(await allSeasons(ladder.id));
  const askedSeason = hashQuery("season");
  const season = h("select", { name: "season" },
    option("", "Now (whole ladder)", askedSeason ?? ""),
    seasons.map((entry) => option(entry.id, `${entry.name} (${entry.status})`, askedSeason ?? "")));
  const ranked = system.kind === "game";
  const includeProvisional = ranked
    ? h("input", { type: "checkbox", name: "include_provisional" })
    : null;
  const divisions = ladder.params?.divisions ?? [];
  const division = divisions.length
    ? h("select", { name: "division" }, option("", "All divisions", ""),
      divisions.map((entry) => option(entry.name, entry.name, "")))
    : null;
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
    const showDivision = entries.some((e) => e.division);
    // A circuit's board ranks by the best N events' points (a season with best_of).
    const showPoints = entries.some((e) => e.points !== null && e.points !== undefined);
    // Each column: its heading, its cell, and its value in the CSV export (exact numbers).
    const columns = [
      [numTh("#", "Position"), (e) => h("td", { class: "num", "data-field": "position", "data-value": e.position }, e.position),
        (e) => e.position],
      ["Player", (e) => h("th", { scope: "row" }, playerLink(ladder.id, e.player, e.faction, e.name), provisionalMark(e)),
        (e) => e.player],
      showDivision && ["Division", (e) => h("td", { "data-field": "division", "data-value": e.division ?? "" },
        divisionBadge(e.division)), (e) => e.division],
      showPoints && [numTh("Points", "The sum of the player's best events' points in the season"),
        (e) => numCell(e.points, { field: "points" }), (e) => e.points],
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
    const rows = shown.map((e) => h("tr", {
      "data-player": e.player, "data-faction": e.faction ?? "", "data-provisional": e.provisional ? "true" : null,
    },
      onPage.map(([, cell], i) => {
        const node = cell(e);
        node.dataset.label = headings[i];
        if (node.dataset.field === lead) node.classList.add("lead");
        return node;
      })));
    const scope = (applied.days > 0 ? `active within ${applied.days} days` : "everyone")
      + (applied.country ? `, national ranking of ${applied.country}` : "")
      + (applied.asOf ? `, as of ${applied.asOf} (end of day, UTC)` : "")
      + (applied.season ? `, season ${applied.season}` : "")
      + (applied.division ? `, division ${applied.division}` : "")
      + (applied.provisional ? ", provisional players included" : "");
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
          as_of: asOf.value && !season.value ? `${asOf.value}T23:59:59.999999Z` : null,
          season: season.value, division: division?.value,
          include_provisional: includeProvisional?.checked ? "true" : null,
        },
      });
      entries = page.entries;
      total = page.total;
      // The filter the server applied (its echo), and whether it was the system's default.
      applied = {
        days: page.active_within_days ?? 0, since: page.active_since, byDefault: asked === null,
        country: page.country, asOf: season.value ? "" : asOf.value,
        season: seasons.find((entry) => entry.id === page.season)?.name ?? page.season,
        division: division?.value, provisional: Boolean(includeProvisional?.checked),
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
  for (const control of [sort, order, active, faction, country, asOf, division, includeProvisional].filter(Boolean)) {
    control.addEventListener("change", reload);
  }
  // A season's board is as of its end: the server takes no as_of with it.
  const seasonChanged = () => { asOf.disabled = Boolean(season.value); };
  season.addEventListener("change", () => { seasonChanged(); reload(); });
  seasonChanged();
  await load();

  const form = h("form", { class: "controls", role: "search", onsubmit: (e) => { e.preventDefault(); reload(); } },
    field("Search player", search, "Filters the rows shown"),
    field("Sort by", sort),
    field("Order", order),
    field("Active within days", active, activityHint),
    faction ? field("Faction", faction, "Blank = every faction") : null,
    field("Country", country, "ISO code (FR, GB, ...): the national ranking"),
    field("As of", asOf, "The board at the end of that day (UTC); blank = now"),
    seasons.length ? field("Season", season, "A season's board: its players and games, as it ended") : null,
    division ? field("Division", division) : null,
    includeProvisional ? h("div", { class: "field check" },
      h("label", {}, includeProvisional, "Include provisional players")) : null,
    factions);

  /** The board as shown (its columns, the rows the search leaves), as a CSV file. */
  function exportCsv() {
    const { columns, rows } = exported;
    const text = csvText(columns.map(([label]) => (typeof label === "string" ? label : label.textContent)),
      rows.map((e) => columns.map(([, , value]) => value(e) ?? null)));
    const parts = [ladder.id, "leaderboard", season.value && `season-${season.value}`, applied.country,
      applied.asOf && `as-of-${applied.asOf}`];
    download(`${parts.filter(Boolean).join("-")}.csv`, text);
  }
  const exportButton = h("div", { class: "actions" },
    h("button", { type: "button", class: "secondary", "data-action": "csv", onclick: exportCsv }, "Download CSV"));
  return [ladderHeader(ladder, system, "leaderboard"), form, filterNote, status, exportButton, results];
}
