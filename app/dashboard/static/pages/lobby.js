// Lobby preview: what is at stake for chosen players (POST /predictions); nothing is stored.

import { all, api, ladderAndSystem } from "../api.js";
import { field, h, notice, numCell, numTh, percent, playerLink, table } from "../dom.js";
import { errorNotice, labels, ladderCrumbs, ladderHeader, qualityNote } from "./common.js";
import { knownKey, MAX_PLAYERS, playerBody, playerPicker, suggestions } from "./picker.js";

// A team game has at least two sides (API.md "Teams"); the form starts with that many.
const MIN_SIDES = 2;

function gameResults(ladder, system, result) {
  const perFaction = system.per_faction;
  const players = table({
    caption: "Per player: rating change for each outcome of the whole table",
    className: "predictions",
    head: ["Player", perFaction ? "Faction" : null, numTh("Rating"), numTh("Win probability"),
      numTh("If win"), numTh("If draw"), numTh("If loss (min)"), numTh("If loss (max)")].filter(Boolean),
    rows: result.players.map((p) => h("tr", { "data-player": p.player, "data-faction": p.faction ?? "" },
      h("th", { scope: "row" }, playerLink(ladder.id, p.player, p.faction)),
      perFaction ? h("td", {}, p.faction ?? "—") : null,
      numCell(p.rating, { field: "rating" }),
      numCell(p.win_probability, { field: "win_probability", format: "percent" }),
      numCell(p.if_win, { field: "if_win", format: "signed" }),
      numCell(p.if_draw, { field: "if_draw", format: "signed" }),
      numCell(p.if_loss?.min, { field: "if_loss_min", format: "signed" }),
      numCell(p.if_loss?.max, { field: "if_loss_max", format: "signed" }))),
  });
  const parts = [h("h2", {}, "Players"),
    result.quality === undefined ? null : qualityFacts(system, result.quality), players];
  if (result.pairs.length) {
    parts.push(h("h2", {}, "Head to head"), table({
      caption: "Each pair alone: the player's change against that opponent",
      className: "pairs",
      head: ["Player", "Opponent", numTh("Win probability"), numTh("If win"), numTh("If draw"), numTh("If loss")],
      rows: result.pairs.map((p) => h("tr", { "data-player": p.player, "data-opponent": p.opponent },
        h("th", { scope: "row" }, p.player),
        h("td", {}, p.opponent),
        numCell(p.win_probability, { field: "win_probability", format: "percent" }),
        numCell(p.if_win, { field: "if_win", format: "signed" }),
        numCell(p.if_draw, { field: "if_draw", format: "signed" }),
        numCell(p.if_loss, { field: "if_loss", format: "signed" }))),
    }));
  }
  return parts;
}

function tournamentResults(ladder, result) {
  return [h("h2", {}, "By placement"), table({
    className: "predictions placements",
    head: ["Player", numTh("Rating"), numTh("Placement"), numTh("Δ"), numTh("Rating after")],
    rows: result.players.flatMap((p) => (p.by_placement || []).map((b) =>
      h("tr", { "data-player": p.player, "data-placement": b.placement },
        h("th", { scope: "row" }, playerLink(ladder.id, p.player)),
        numCell(p.rating, { field: "rating" }),
        h("td", { class: "num", "data-value": b.placement }, b.placement),
        numCell(b.delta, { field: "delta", format: "signed" }),
        numCell(b.rating_after, { field: "rating_after" })))),
  })];
}

function numberInput(name, attrs = {}) {
  return h("input", { type: "number", name, inputmode: "numeric", step: 1, ...attrs });
}

/**
 * A member's change if its side loses: {min, max} over which other side wins. Against one other
 * side (or when every winner costs the same) min = max, and one column shows it.
 */
function lossCells(members) {
  const ranged = members.some((p) => p.if_loss && p.if_loss.min !== p.if_loss.max);
  return {
    // A function: each table needs header cells of its own (a node has one parent).
    head: () => (ranged ? [numTh("If loss (min)"), numTh("If loss (max)")] : [numTh("If loss")]),
    cells: (p) => (ranged
      ? [numCell(p.if_loss?.min, { field: "if_loss_min", format: "signed" }),
        numCell(p.if_loss?.max, { field: "if_loss_max", format: "signed" })]
      : [numCell(p.if_loss?.min, { field: "if_loss", format: "signed" })]),
  };
}

/** How even the table or the sides are (API.md "Teams"), with what the number means. */
function qualityFacts(system, quality) {
  return h("dl", { class: "facts" },
    h("dt", {}, "Match quality"),
    h("dd", { class: "quality", "data-field": "quality", "data-value": quality ?? "" },
      percent(quality),
      h("span", { class: "muted" }, qualityNote(system))));
}

/** A team preview: each side's win probability, the match quality, each member's stakes. */
function teamResults(ladder, system, result) {
  const names = labels(system, ladder);
  const members = result.teams.flatMap((t) => t.players);
  const loss = lossCells(members);
  const parts = [
    h("h2", {}, "Sides"),
    qualityFacts(system, result.quality),
    table({
      className: "sides",
      head: ["Side", "Players", numTh("Win probability", "The side finishes alone first")],
      rows: result.teams.map((t) => h("tr", { "data-team": t.team },
        h("th", { scope: "row" }, t.team),
        h("td", { class: "players" }, t.players.flatMap((p, i) => [i ? ", " : "", playerLink(ladder.id, p.player, p.faction)])),
        numCell(t.win_probability, { field: "win_probability", format: "percent" }))),
    }),
    h("h2", {}, "Members"),
    result.teams.map((t) => h("section", { class: "side", "data-team": t.team },
      h("h3", {}, `Side ${t.team}`),
      table({
        caption: "The member's rating change if the side wins, draws or loses",
        className: "predictions members",
        head: ["Player", system.per_faction ? "Faction" : null, numTh(names.rating), numTh("If win"),
          numTh("If draw"), ...loss.head()].filter(Boolean),
        rows: t.players.map((p) => h("tr", { "data-player": p.player, "data-faction": p.faction ?? "", "data-team": t.team },
          h("th", { scope: "row" }, playerLink(ladder.id, p.player, p.faction)),
          system.per_faction ? h("td", {}, p.faction ?? "—") : null,
          numCell(p.rating, { field: "rating" }),
          numCell(p.if_win, { field: "if_win", format: "signed" }),
          numCell(p.if_draw, { field: "if_draw", format: "signed" }),
          loss.cells(p))),
      }))),
  ];
  if (result.pairs?.length) {
    parts.push(h("h2", {}, "Side against side"), table({
      caption: "Each pair of sides alone: the probability that the first finishes ahead",
      className: "pairs team-pairs",
      head: ["Side", "Opponent", numTh("Win probability")],
      rows: result.pairs.map((p) => h("tr", { "data-team": p.team, "data-opponent": p.opponent },
        h("th", { scope: "row" }, p.team),
        h("td", {}, p.opponent),
        numCell(p.win_probability, { field: "win_probability", format: "percent" }))),
    }));
  }
  return parts;
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  setCrumbs(ladderCrumbs(ladder, ["Lobby preview", null]));
  document.title = `Lobby · ${ladder.title || ladder.id} · Ratings`;
  const tournament = system.kind === "tournament";
  const perFaction = system.per_faction;

  // Everyone rated in the ladder, for suggestions; unknown ids are allowed too.
  const { entries } = await all(`ladders/${encodeURIComponent(ladder.id)}/leaderboard`, "entries",
    { active_within_days: 0, sort: "name", order: "asc" });
  const known = new Set(entries.map((e) => knownKey(e.player, e.faction)));
  const rated = new Set(entries.map((e) => e.player)).size;
  const hint = `${rated} rated in this ladder; unknown ids start at the initial rating`;
  const results = h("div", { class: "results", "aria-live": "polite" });

  // A free-for-all: one table of players.
  const freeForAll = playerPicker({ known, perFaction, listId: "lobby", hint });

  // Sides (game systems): each a label and a picker; a player may be in a game once, on one
  // side and with one faction (API.md "Teams": a player twice is refused).
  const sides = [];
  const sidesBox = h("div", { class: "sides-form" });
  const onSomeSide = (player) => sides.some((side) => side.picker.chosen.some((c) => c.player === player));
  const inSides = () => sides.reduce((n, side) => n + side.picker.chosen.length, 0);
  function drawSides() {
    sidesBox.replaceChildren(...sides.map((side, i) => {
      side.element.dataset.side = String(i + 1);
      side.legend.textContent = `Side ${i + 1}`;
      side.label.placeholder = String(i + 1); // the label the API gives a side left blank
      side.removeButton.disabled = sides.length <= MIN_SIDES;
      return side.element;
    }));
  }
  function addSide() {
    const label = h("input", {
      type: "text", name: "team", autocomplete: "off", spellcheck: "false", maxlength: 100, size: 10,
    });
    const picker = playerPicker({ known, perFaction, listId: "lobby", taken: onSomeSide, count: inSides });
    const side = { label, picker, legend: h("legend", {}) };
    side.removeButton = h("button", {
      type: "button", class: "secondary", "data-action": "remove-side",
      onclick: () => { sides.splice(sides.indexOf(side), 1); drawSides(); },
    }, "Remove side");
    side.element = h("fieldset", { class: "side" }, side.legend,
      h("div", { class: "row" },
        field("Label", label, "Blank = the side's number"),
        h("div", { class: "field end" }, side.removeButton)),
      picker.element);
    sides.push(side);
    drawSides();
  }
  for (let i = 0; i < MIN_SIDES; i += 1) addSide();
  const addSideButton = h("button", { type: "button", class: "secondary", "data-action": "add-side", onclick: addSide },
    "Add side");

  // The mode: a free-for-all table, or sides where the system rates sides of several players
  // (GET /systems: "sides"; the others take sides of one, which is a free-for-all).
  let teams = false;
  const players = h("div", { class: "players-form" });
  function drawMode() {
    players.replaceChildren(teams
      ? h("fieldset", {}, h("legend", {}, "Sides"), sidesBox, h("div", { class: "actions" }, addSideButton))
      : h("fieldset", {}, h("legend", {}, "Players"), freeForAll.element));
    results.replaceChildren();
  }
  const modeChoice = !system.sides ? null : h("fieldset", { class: "mode" }, h("legend", {}, "Game"),
    h("div", { class: "row" }, [["ffa", "Free-for-all"], ["teams", "Teams (sides)"]].map(([value, text]) =>
      h("div", { class: "field check" }, h("label", {},
        h("input", {
          type: "radio", name: "mode", value, checked: value === "ffa",
          onchange: () => { teams = value === "teams"; drawMode(); },
        }), ` ${text}`)))));

  const coaches = numberInput("coaches", { min: 1, max: 100000, placeholder: "optional" });
  const major = h("input", { type: "checkbox", name: "major" });
  const size = numberInput("size", { min: 2, max: 100000, value: "20", required: true });
  const rounds = numberInput("rounds", { min: 1, max: 1000, value: "1" });
  const world = h("input", { type: "checkbox", name: "world_championship" });
  const placements = h("input", { type: "text", name: "placements", value: "1, 2, 10, 20", autocomplete: "off" });

  function body() {
    const request = { ladder: ladder.id };
    if (teams) {
      request.teams = sides.map((side) => ({
        ...(side.label.value.trim() ? { team: side.label.value.trim() } : {}),
        players: side.picker.chosen.map(playerBody),
      }));
    } else {
      request.players = freeForAll.chosen.map(playerBody);
    }
    if (tournament) {
      request.size = Number(size.value);
      request.rounds = Number(rounds.value || 1);
      request.world_championship = world.checked;
      request.placements = placements.value.split(/[\s,;]+/).filter(Boolean).map(Number);
    } else if (coaches.value || major.checked) {
      request.event = { major: major.checked };
      if (coaches.value) request.event.coaches = Number(coaches.value);
    }
    return request;
  }

  /** What is missing before a preview can be asked for, or null. */
  function missing() {
    if (teams) {
      if (!sides.every((side) => side.picker.flush())) return "Correct the ids above.";
      if (sides.some((side) => !side.picker.chosen.length)) return "Every side needs at least one player.";
      return null;
    }
    if (!freeForAll.flush()) return "Correct the ids above.";
    if (freeForAll.chosen.length < (tournament ? 1 : 2)) {
      return tournament ? "Choose at least one player." : "Choose at least two players.";
    }
    return null;
  }

  async function preview(e) {
    e.preventDefault();
    const problem = missing();
    results.dataset.ready = "false";
    if (problem) {
      results.replaceChildren(notice(problem, "warn"));
      return;
    }
    results.setAttribute("aria-busy", "true");
    try {
      const result = await api("predictions", { method: "POST", body: body() });
      results.replaceChildren(...[
        tournament ? tournamentResults(ladder, result)
          : teams ? teamResults(ladder, system, result) : gameResults(ladder, system, result),
      ].flat(Infinity).filter(Boolean));
      results.dataset.ready = "true";
    } catch (error) {
      results.replaceChildren(errorNotice(error));
    } finally {
      results.setAttribute("aria-busy", "false");
    }
  }

  drawMode();
  const context = tournament
    ? h("fieldset", {}, h("legend", {}, "Tournament"),
      h("div", { class: "row" },
        field("Size (players)", size),
        field("Rounds", rounds),
        field("Placements", placements, "Comma-separated places to preview"),
        h("div", { class: "field check" }, h("label", {}, world, " World championship"))))
    : system.id === "naf"
      ? h("fieldset", {}, h("legend", {}, "Event (optional)"),
        h("div", { class: "row" },
          field("Coaches", coaches, "Coaches at the event (sets K); needed unless major"),
          h("div", { class: "field check" }, h("label", {}, major, " Major tournament"))))
      : null;

  const form = h("form", { class: "card lobby", onsubmit: preview },
    modeChoice, players, context,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Preview")),
    suggestions(entries, "lobby"));

  return [
    ladderHeader(ladder, system, "lobby"),
    h("p", { class: "muted" }, "What each player stands to win or lose; nothing is stored. "
      + `At most ${MAX_PLAYERS} players in all.`),
    form,
    results,
  ];
}
