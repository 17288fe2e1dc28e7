// A tournament (or a game): its standings by rank with each player's change explained.

import { ApiError, api, ladderAndSystem } from "../api.js";
import { h, isNumber, num, numCell, numTh, playerLink, table, when } from "../dom.js";
import { renderDetails } from "../details.js";
import { ladderCrumbs, ladderHeader } from "./common.js";

const KINDS = { tournaments: "Tournament", games: "Game" };

export async function render({ ladder: ladderId, kind, id }, { setCrumbs }) {
  if (!KINDS[kind]) throw new ApiError(404, { title: "Not found", detail: `no page “${kind}”` });
  const [{ ladder, system }, event] = await Promise.all([
    ladderAndSystem(ladderId),
    api(`ladders/${encodeURIComponent(ladderId)}/${kind}/${encodeURIComponent(id)}`),
  ]);
  const name = event.name || event.id;
  setCrumbs(ladderCrumbs(ladder, [`${KINDS[kind]} ${name}`, null]));
  document.title = `${name} · ${ladder.title || ladder.id} · Ratings`;

  const changes = [...event.changes].sort((a, b) =>
    (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.player.localeCompare(b.player));
  const factions = changes.some((c) => c.faction);
  const glicko = changes.some((c) => isNumber(c.deviation_after));
  const rows = changes.map((c) => h("tr", { "data-player": c.player, "data-faction": c.faction ?? "" },
    h("td", { class: "num", "data-field": "rank", "data-value": c.rank ?? "" }, c.rank ?? "—"),
    h("th", { scope: "row" }, playerLink(ladder.id, c.player, c.faction)),
    factions ? h("td", {}, c.faction ?? "—") : null,
    numCell(c.rating_before, { field: "rating_before" }),
    numCell(c.rating_after, { field: "rating_after" }),
    numCell(c.delta, { format: "signed", field: "delta" }),
    glicko ? h("td", { class: "num" }, `${num(c.deviation_before)} → ${num(c.deviation_after)}`) : null,
    h("td", { class: "details-cell" }, renderDetails(c.details))));

  const held = event.held_on ?? event.played_at;
  return [
    ladderHeader(ladder, system, null, `${KINDS[kind]}: ${name}`),
    h("dl", { class: "facts" },
      h("dt", {}, "Id"), h("dd", {}, event.id),
      h("dt", {}, event.held_on ? "Held on" : "Played at"), h("dd", {}, when(held)),
      h("dt", {}, "Players"), h("dd", {}, changes.length),
      h("dt", {}, "Sequence"), h("dd", {}, event.seq),
      event.voided ? [h("dt", {}, "Status"), h("dd", {}, h("span", { class: "badge" }, "voided"))] : null,
      event.rated === false ? [h("dt", {}, "Rated"), h("dd", {}, "no")] : null),
    h("h2", {}, "Standings"),
    table({
      className: "standings",
      head: [numTh("Rank"), "Player", factions ? "Faction" : null, numTh("Before"), numTh("After"),
        numTh("Δ"), glicko ? numTh("Deviation") : null, "Details"].filter(Boolean),
      rows,
    }),
  ];
}
