// Lobby preview: what is at stake for chosen players (POST /predictions); nothing is stored.

import { all, api, ladderAndSystem } from "../api.js";
import { field, h, notice, numCell, numTh, playerLink, table } from "../dom.js";
import { errorNotice, ladderCrumbs, ladderHeader } from "./common.js";

const IDENTIFIER = /^[A-Za-z0-9._:@-]{1,100}$/;
const MAX_PLAYERS = 100;

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
  const parts = [h("h2", {}, "Players"), players];
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

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  setCrumbs(ladderCrumbs(ladder, ["Lobby preview", null]));
  document.title = `Lobby · ${ladder.title || ladder.id} · Ratings`;
  const tournament = system.kind === "tournament";
  const perFaction = system.per_faction;

  // Everyone rated in the ladder, for suggestions; unknown ids are allowed too.
  const { entries } = await all(`ladders/${encodeURIComponent(ladder.id)}/leaderboard`, "entries",
    { active_within_days: 0, sort: "name", order: "asc" });
  const known = new Set(entries.map((e) => `${e.player}\u0000${e.faction ?? ""}`));
  const knownPlayers = new Set(entries.map((e) => e.player));
  const chosen = [];

  const playerInput = h("input", { type: "text", name: "player", list: "lobby-players", autocomplete: "off",
    placeholder: "Player id, or several separated by commas" });
  const factionInput = perFaction
    ? h("input", { type: "text", name: "faction", list: "lobby-factions", autocomplete: "off", placeholder: "e.g. Orc" })
    : null;
  const chips = h("ul", { class: "chips", "aria-label": "Chosen players" });
  const pickError = h("p", { class: "field-error", role: "alert" });
  const results = h("div", { class: "results", "aria-live": "polite" });

  function drawChips() {
    chips.replaceChildren(...chosen.map((c, i) => h("li", { "data-player": c.player },
      c.player, c.faction ? h("span", { class: "muted" }, ` (${c.faction})`) : null,
      known.has(`${c.player}\u0000${c.faction ?? ""}`) ? null : h("span", { class: "badge" }, "new"),
      h("button", { type: "button", class: "remove", "aria-label": `Remove ${c.player}`,
        onclick: () => { chosen.splice(i, 1); drawChips(); } }, "×"))));
    if (!chosen.length) chips.append(h("li", { class: "muted empty" }, "No players chosen yet."));
  }

  function add() {
    pickError.textContent = "";
    const faction = factionInput?.value.trim() || null;
    const ids = playerInput.value.split(/[\s,;]+/).filter(Boolean);
    for (const id of ids) {
      if (!IDENTIFIER.test(id)) {
        pickError.textContent = `“${id}” is not a valid id (1–100 of A–Z a–z 0–9 . _ : @ -).`;
        return;
      }
      if (chosen.some((c) => c.player === id && c.faction === faction)) continue;
      if (chosen.length >= MAX_PLAYERS) {
        pickError.textContent = `At most ${MAX_PLAYERS} players.`;
        return;
      }
      chosen.push({ player: id, faction });
    }
    playerInput.value = "";
    drawChips();
    playerInput.focus();
  }
  playerInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      add();
    }
  });

  const coaches = numberInput("coaches", { min: 1, max: 100000, placeholder: "optional" });
  const major = h("input", { type: "checkbox", name: "major" });
  const size = numberInput("size", { min: 2, max: 100000, value: "20", required: true });
  const rounds = numberInput("rounds", { min: 1, max: 1000, value: "1" });
  const world = h("input", { type: "checkbox", name: "world_championship" });
  const placements = h("input", { type: "text", name: "placements", value: "1, 2, 10, 20", autocomplete: "off" });

  function body() {
    const request = {
      ladder: ladder.id,
      players: chosen.map((c) => (c.faction ? { player: c.player, faction: c.faction } : { player: c.player })),
    };
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

  async function preview(e) {
    e.preventDefault();
    if (playerInput.value.trim()) add();
    if (chosen.length < (tournament ? 1 : 2)) {
      results.replaceChildren(notice(tournament ? "Choose at least one player." : "Choose at least two players.", "warn"));
      return;
    }
    results.setAttribute("aria-busy", "true");
    try {
      const result = await api("predictions", { method: "POST", body: body() });
      results.replaceChildren(...(tournament ? tournamentResults(ladder, result) : gameResults(ladder, system, result)));
      results.dataset.ready = "true";
    } catch (error) {
      results.replaceChildren(errorNotice(error));
    } finally {
      results.setAttribute("aria-busy", "false");
    }
  }

  drawChips();
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
    h("fieldset", {}, h("legend", {}, "Players"),
      h("div", { class: "row" },
        field("Player", playerInput, `${knownPlayers.size} rated in this ladder; unknown ids start at the initial rating`),
        factionInput ? field(perFaction ? "Faction (required here)" : "Faction", factionInput) : null,
        h("div", { class: "field end" }, h("button", { type: "button", class: "secondary", onclick: add }, "Add"))),
      pickError, chips),
    context,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Preview")),
    h("datalist", { id: "lobby-players" }, [...knownPlayers].map((p) => h("option", { value: p }))),
    h("datalist", { id: "lobby-factions" },
      [...new Set(entries.map((e) => e.faction).filter(Boolean))].sort().map((f) => h("option", { value: f }))));

  return [
    ladderHeader(ladder, system, "lobby"),
    h("p", { class: "muted" }, "What each player stands to win or lose; nothing is stored."),
    form,
    results,
  ];
}
