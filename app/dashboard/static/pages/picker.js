// Choosing players by id: a text box (several ids at once), a faction box on per-faction
// ladders, and the chosen players as removable chips. The lobby (its table and each side) and
// the balance tool share it.

import { field, h } from "../dom.js";

// API.md "Conventions": client-chosen ids are 1–100 of these characters.
export const IDENTIFIER = /^[A-Za-z0-9._:@-]{1,100}$/;
// The API takes at most 100 players in a game, a prediction or a balance request.
export const MAX_PLAYERS = 100;

/** The body's form of a chosen player: the faction only where there is one. */
export function playerBody({ player, faction }) {
  return faction ? { player, faction } : { player };
}

/** The ladder's rated (player, faction) pairs, to mark the ids that are not rated yet. */
export function knownKey(player, faction) {
  return `${player}\u0000${faction ?? ""}`;
}

/** The <datalist>s of the ladder's players and factions that every picker on a page shares. */
export function suggestions(entries, listId) {
  const players = [...new Set(entries.map((e) => e.player))];
  const factions = [...new Set(entries.map((e) => e.faction).filter(Boolean))].sort();
  return [
    h("datalist", { id: `${listId}-players` }, players.map((p) => h("option", { value: p }))),
    h("datalist", { id: `${listId}-factions` }, factions.map((f) => h("option", { value: f }))),
  ];
}

/**
 * A picker. `known` is a Set of knownKey()s; `taken(player, faction)` says whether the pair is
 * already chosen anywhere on the page (a player may be on one side only); `count()` is how many
 * players the page holds in all (the MAX_PLAYERS bound is on the whole request).
 * `chips: false` leaves listing the chosen players to the page (it redraws on onChange).
 * Returns { element, chosen, flush, push, remove }: flush() adds what is still typed.
 */
export function playerPicker({
  known, perFaction, listId, label = "Player", hint = null,
  taken = null, count = null, onChange = () => {}, chips: showChips = true,
}) {
  const chosen = [];
  const isTaken = taken ?? ((player, faction) => chosen.some((c) => c.player === player && c.faction === faction));
  const total = count ?? (() => chosen.length);
  const playerInput = h("input", {
    type: "text", name: "player", list: `${listId}-players`, autocomplete: "off", spellcheck: "false",
    placeholder: "Player id, or several separated by commas",
  });
  const factionInput = perFaction
    ? h("input", { type: "text", name: "faction", list: `${listId}-factions`, autocomplete: "off", placeholder: "e.g. Orc" })
    : null;
  const chips = h("ul", { class: "chips", "aria-label": `Chosen players${label === "Player" ? "" : ` (${label})`}` });
  const pickError = h("p", { class: "field-error", role: "alert" });

  function draw() {
    if (!showChips) return; // the page lists the chosen players itself
    chips.replaceChildren(...chosen.map((c, i) => h("li", { "data-player": c.player, "data-faction": c.faction ?? "" },
      c.player, c.faction ? h("span", { class: "muted" }, ` (${c.faction})`) : null,
      known.has(knownKey(c.player, c.faction)) ? null : h("span", { class: "badge" }, "new"),
      h("button", {
        type: "button", class: "remove", "aria-label": `Remove ${c.player}`,
        onclick: () => { chosen.splice(i, 1); draw(); onChange(); },
      }, "×"))));
    if (!chosen.length) chips.append(h("li", { class: "muted empty" }, "No players chosen yet."));
  }

  /** Adds the typed ids; false (and a message) when one is invalid or the page is full. */
  function flush() {
    pickError.textContent = "";
    const faction = factionInput?.value.trim() || null;
    const ids = playerInput.value.split(/[\s,;]+/).filter(Boolean);
    for (const id of ids) {
      if (!IDENTIFIER.test(id)) {
        pickError.textContent = `“${id}” is not a valid id (1–100 of A–Z a–z 0–9 . _ : @ -).`;
        return false;
      }
      if (isTaken(id, faction)) continue;
      if (total() >= MAX_PLAYERS) {
        pickError.textContent = `At most ${MAX_PLAYERS} players.`;
        return false;
      }
      chosen.push({ player: id, faction });
    }
    playerInput.value = "";
    draw();
    onChange();
    return true;
  }

  function add() {
    flush();
    playerInput.focus();
  }
  playerInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      add();
    }
  });

  draw();
  const element = h("div", { class: "picker" },
    h("div", { class: "row" },
      field(label, playerInput, hint),
      factionInput ? field("Faction (required here)", factionInput) : null,
      h("div", { class: "field end" }, h("button", { type: "button", class: "secondary", onclick: add }, "Add"))),
    pickError, showChips ? chips : null);
  return {
    element, chosen, flush, redraw: draw,
    /** Adds one player (from a list elsewhere on the page); false when it is already chosen. */
    push(player, faction = null) {
      if (isTaken(player, faction) || total() >= MAX_PLAYERS) return false;
      chosen.push({ player, faction });
      draw();
      onChange();
      return true;
    },
    remove(player, faction = null) {
      const index = chosen.findIndex((c) => c.player === player && c.faction === faction);
      if (index >= 0) chosen.splice(index, 1);
      draw();
      onChange();
    },
  };
}
