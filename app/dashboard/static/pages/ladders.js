// All ladders with their system and counts (GET /ladders).

import { all, cached } from "../api.js";
import { h, notice, numTh, path, table, when } from "../dom.js";

export async function render(_params, { setCrumbs }) {
  const [{ ladders, total }, systems] = await Promise.all([all("ladders", "ladders"), cached("systems")]);
  const titles = Object.fromEntries(systems.map((system) => [system.id, system.title]));
  setCrumbs([["Ladders", null]]);
  document.title = "Ladders · Ratings";
  if (!ladders.length) {
    return [h("h1", {}, "Ladders"), notice("No ladders yet: create one with POST /ladders.")];
  }
  const rows = ladders.map((ladder) => h("tr", { "data-ladder": ladder.id },
    h("th", { scope: "row" },
      h("a", { href: path("ladders", ladder.id) }, ladder.title || ladder.id),
      ladder.title ? h("div", { class: "muted small" }, ladder.id) : null),
    h("td", {}, titles[ladder.system] || ladder.system, h("div", { class: "muted small" }, ladder.system)),
    h("td", {}, ladder.kind),
    h("td", { class: "num", "data-value": ladder.players }, ladder.players),
    h("td", { class: "num", "data-value": ladder.games }, ladder.games),
    h("td", { class: "num", "data-value": ladder.tournaments }, ladder.tournaments),
    h("td", {}, when(ladder.updated_at)),
    h("td", { class: "links" },
      h("a", { href: path("ladders", ladder.id, "lobby") }, "Lobby"), " ",
      h("a", { href: path("ladders", ladder.id, "whatif") }, "What-if"))));
  return [
    h("h1", {}, "Ladders"),
    h("p", { class: "muted" }, `${total} ladder${total === 1 ? "" : "s"}`),
    table({
      className: "ladders",
      head: ["Ladder", "System", "Kind", numTh("Players"), numTh("Games"), numTh("Tournaments"),
        "Updated", h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Links"))],
      rows,
    }),
  ];
}
