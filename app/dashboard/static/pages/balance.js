// The balance tool: split chosen players into even sides (POST /ladders/{ladder}/balance),
// keeping parties together; shows the split, its quality and the next best splits.

import { all, api, ladderAndSystem } from "../api.js";
import { field, h, notice, num, numCell, numTh, percent, playerLink, table } from "../dom.js";
import { errorNotice, labels, ladderCrumbs, ladderHeader, qualityNote } from "./common.js";
import { knownKey, MAX_PLAYERS, playerBody, playerPicker, suggestions } from "./picker.js";

// API.md "Matchmaking": a split has at least two sides; the form starts there. The search is
// exact up to EXACT_PLAYERS players, a heuristic beyond (the response's "exact" says which).
const MIN_TEAMS = 2;
const EXACT_PLAYERS = 16;

function quality(value) {
  return h("span", { class: "quality", "data-field": "quality", "data-value": value ?? "" }, percent(value));
}

/** One split: each side with its players, its rating and its probability of finishing first. */
function splitTable(ladder, split, names, ratingOf, className) {
  return table({
    className: `split ${className}`,
    head: ["Side", "Players", numTh(`Side ${names.rating.toLowerCase()}`, "The mean of its members' ratings"),
      numTh("Win probability", "The side finishes alone first")],
    rows: split.teams.map((t) => h("tr", { "data-team": t.team },
      h("th", { scope: "row" }, t.team),
      h("td", { class: "players" }, t.players.flatMap((p, i) => {
        const member = typeof p === "string" ? { player: p } : p;
        const rating = ratingOf(member);
        return [i ? ", " : "", h("span", { class: "member", "data-player": member.player },
          playerLink(ladder.id, member.player, member.faction),
          rating === undefined ? null : h("span", { class: "muted" }, ` ${num(rating)}`))];
      })),
      numCell(t.rating, { field: "rating" }),
      numCell(t.win_probability, { field: "win_probability", format: "percent" }))),
  });
}

function splitResults(ladder, system, result, ratingOf) {
  const names = labels(system, ladder);
  const alternatives = result.alternatives ?? [];
  return [
    h("h2", {}, "Best split"),
    h("p", {}, "Match quality ", quality(result.quality),
      h("span", { class: "muted" }, qualityNote(system))),
    result.exact === false
      ? notice(`More than ${EXACT_PLAYERS} players: this split is the heuristic's (a good one, not `
        + "provably the best).", "info")
      : null,
    splitTable(ladder, result, names, ratingOf, "best"),
    h("h2", {}, "Alternatives"),
    alternatives.length
      ? alternatives.map((alt, i) => h("section", { class: "alternative", "data-index": i },
        h("h3", {}, `Alternative ${i + 1} · quality `, quality(alt.quality)),
        splitTable(ladder, alt, names, ratingOf, "alternative")))
      : h("p", { class: "empty" }, "No other split keeps the sizes and parties."),
  ];
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  setCrumbs(ladderCrumbs(ladder, ["Balance", null]));
  document.title = `Balance · ${ladder.title || ladder.id} · Ratings`;
  const names = labels(system, ladder);
  const { entries } = await all(`ladders/${encodeURIComponent(ladder.id)}/leaderboard`, "entries",
    { active_within_days: 0 });
  const known = new Set(entries.map((e) => knownKey(e.player, e.faction)));
  const ratings = new Map(entries.map((e) => [knownKey(e.player, e.faction), e.rating]));
  const ratingOf = (m) => ratings.get(knownKey(m.player, m.faction ?? null));
  // Party labels by player: players with the same label play on one side.
  const parties = new Map();
  const chosenBox = h("div", { class: "chosen" });
  const results = h("div", { class: "results", "aria-live": "polite" });

  const picker = playerPicker({
    known, perFaction: system.per_faction, listId: "balance", chips: false, onChange: () => draw(),
    hint: "Type ids, or tick players in the leaderboard below",
  });

  const filter = h("input", { type: "search", name: "filter", placeholder: "Filter", autocomplete: "off", "aria-label": "Filter the leaderboard" });
  const pickRows = entries.map((e) => {
    const box = h("input", {
      type: "checkbox", name: "pick", "aria-label": `Pick ${e.player}`,
      onchange: () => (box.checked ? picker.push(e.player, e.faction) : picker.remove(e.player, e.faction)),
    });
    return h("tr", { "data-player": e.player, "data-faction": e.faction ?? "" },
      h("td", {}, box),
      h("td", { class: "num" }, e.position),
      h("th", { scope: "row" }, playerLink(ladder.id, e.player, e.faction, e.name)),
      system.per_faction ? h("td", {}, e.faction ?? "—") : null,
      numCell(e.rating, { field: "rating" }),
      h("td", { class: "num" }, e.games));
  });
  filter.addEventListener("input", () => {
    const needle = filter.value.trim().toLowerCase();
    for (const row of pickRows) row.hidden = Boolean(needle) && !row.textContent.toLowerCase().includes(needle);
  });
  const leaderboard = h("details", { class: "pick-list", open: entries.length > 0 },
    h("summary", {}, `Pick from the leaderboard (${entries.length})`),
    filter,
    h("div", { class: "scroll" }, table({
      className: "pick",
      head: [h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Pick")), numTh("#"), "Player",
        system.per_faction ? "Faction" : null, numTh(names.rating), numTh("Games")].filter(Boolean),
      rows: pickRows,
    })));

  function draw() {
    const chosen = new Set(picker.chosen.map((c) => knownKey(c.player, c.faction)));
    for (const row of pickRows) {
      row.querySelector("input[name=pick]").checked = chosen.has(knownKey(row.dataset.player, row.dataset.faction || null));
    }
    if (!picker.chosen.length) {
      chosenBox.replaceChildren(h("p", { class: "empty" }, "No players chosen yet."));
      return;
    }
    chosenBox.replaceChildren(table({
      caption: `${picker.chosen.length} chosen; give players who must play together the same party label`,
      className: "chosen",
      head: ["Player", system.per_faction ? "Faction" : null, numTh(names.rating), "Party",
        h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Remove"))].filter(Boolean),
      rows: picker.chosen.map((c) => {
        const party = h("input", {
          type: "text", name: "party", size: 8, maxlength: 100, autocomplete: "off", placeholder: "—",
          value: parties.get(c.player) ?? "", "aria-label": `Party of ${c.player}`,
          oninput: () => parties.set(c.player, party.value.trim()),
        });
        return h("tr", { "data-player": c.player, "data-faction": c.faction ?? "" },
          h("th", { scope: "row" }, playerLink(ladder.id, c.player, c.faction)),
          system.per_faction ? h("td", {}, c.faction ?? "—") : null,
          numCell(ratingOf(c), { field: "rating" }),
          h("td", {}, party),
          h("td", {}, h("button", {
            type: "button", class: "remove", "aria-label": `Remove ${c.player}`,
            onclick: () => picker.remove(c.player, c.faction),
          }, "×")));
      }),
    }));
  }

  const teams = h("input", {
    type: "number", name: "teams", min: MIN_TEAMS, max: MAX_PLAYERS, step: 1, value: String(MIN_TEAMS),
    inputmode: "numeric", required: true,
  });

  // The party policy (docs/api.md "POST /ladders/{ladder}/balance"): spread premades (the
  // service's default), or only the quality counts.
  const policy = h("select", { name: "party_policy" },
    h("option", { value: "spread", selected: true }, "Spread premades over the sides"),
    h("option", { value: "together" }, "Most even split only (premades may share a side)"));

  function body() {
    const groups = new Map();
    for (const c of picker.chosen) {
      const label = parties.get(c.player);
      if (!label) continue;
      if (!groups.has(label)) groups.set(label, new Set());
      groups.get(label).add(c.player);
    }
    // A party of one constrains nothing: it is not sent.
    const partyList = [...groups.values()].filter((g) => g.size > 1).map((g) => [...g]);
    return {
      players: picker.chosen.map(playerBody),
      teams: Number(teams.value),
      ...(partyList.length ? { parties: partyList, party_policy: policy.value } : {}),
    };
  }

  async function split(e) {
    e.preventDefault();
    results.dataset.ready = "false";
    if (!picker.flush()) return;
    if (picker.chosen.length < Number(teams.value) || picker.chosen.length < MIN_TEAMS) {
      results.replaceChildren(notice("Choose at least one player per side.", "warn"));
      return;
    }
    results.setAttribute("aria-busy", "true");
    try {
      const result = await api(`ladders/${encodeURIComponent(ladder.id)}/balance`, { method: "POST", body: body() });
      results.replaceChildren(...splitResults(ladder, system, result, ratingOf).flat(Infinity).filter(Boolean));
      results.dataset.ready = "true";
    } catch (error) {
      results.replaceChildren(errorNotice(error));
    } finally {
      results.setAttribute("aria-busy", "false");
    }
  }

  draw();
  const form = h("form", { class: "card balance", onsubmit: split },
    h("fieldset", {}, h("legend", {}, "Players"), picker.element, leaderboard, chosenBox),
    h("div", { class: "row" }, field("Sides", teams, "Sizes differ by at most one"),
      field("Parties", policy, "Players of one party always share a side")),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Split")),
    suggestions(entries, "balance"));
  return [
    ladderHeader(ladder, system, "balance"),
    h("p", { class: "muted" }, "The most even split of the chosen players into sides, parties kept together; "
      + `nothing is stored. At most ${MAX_PLAYERS} players.`),
    form,
    results,
  ];
}
