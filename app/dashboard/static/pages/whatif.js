// What-if: the ladder's history re-rated under another system or other parameters,
// side by side with the current leaderboard (POST /ladders/{ladder}/whatif).

import { ApiError, api, cached, ladderAndSystem } from "../api.js";
import { field, h, notice, numCell, numTh, playerLink, table } from "../dom.js";
import { errorNotice, ladderCrumbs, ladderHeader } from "./common.js";

function defaults(system) {
  return Object.fromEntries(Object.entries(system.params).map(([name, spec]) => [name, spec.default]));
}

function paramsReference(system) {
  const rows = Object.entries(system.params).map(([name, spec]) => h("tr", {},
    h("th", { scope: "row" }, h("code", {}, name)),
    h("td", {}, h("code", {}, JSON.stringify(spec.default))),
    h("td", {}, spec.description || "")));
  return h("details", { class: "reference" }, h("summary", {}, `${system.title} parameters`),
    table({ className: "mini", head: ["Name", "Default", "Meaning"], rows }));
}

function resultTable(ladder, result) {
  const entries = result.entries; // the server's order: by current position
  const perFaction = entries.some((e) => e.faction);
  const describe = (side) => `${side.system} ${JSON.stringify(side.params)}`;
  return [
    h("dl", { class: "facts" },
      h("dt", {}, "Current"), h("dd", {}, h("code", {}, describe(result.current))),
      h("dt", {}, "Proposed"), h("dd", {}, h("code", {}, describe(result.proposed))),
      Number.isInteger(result.events) ? [h("dt", {}, "Re-rated"), h("dd", {}, `${result.events} events`)] : null),
    table({
      className: "whatif",
      head: ["Player", perFaction ? "Faction" : null, numTh("Position now"), numTh("Rating now"),
        numTh("Position proposed"), numTh("Rating proposed"), numTh("Rating Δ"), numTh("Places gained")]
        .filter(Boolean),
      rows: entries.map((e) => h("tr", { "data-player": e.player, "data-faction": e.faction ?? "" },
        h("th", { scope: "row" }, playerLink(ladder.id, e.player, e.faction)),
        perFaction ? h("td", {}, e.faction ?? "—") : null,
        h("td", { class: "num", "data-field": "current_position", "data-value": e.current?.position ?? "" },
          e.current?.position ?? "—"),
        numCell(e.current?.rating, { field: "current_rating" }),
        h("td", { class: "num", "data-field": "proposed_position", "data-value": e.proposed?.position ?? "" },
          e.proposed?.position ?? "—"),
        numCell(e.proposed?.rating, { field: "proposed_rating" }),
        numCell(e.rating_difference, { field: "rating_difference", format: "signed" }),
        // Positive: places gained (current position − proposed position).
        numCell(e.position_difference, { field: "position_difference", format: "signed", digits: 0 }))),
    }),
  ];
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const [{ ladder, system }, systems] = await Promise.all([ladderAndSystem(ladderId), cached("systems")]);
  setCrumbs(ladderCrumbs(ladder, ["What-if", null]));
  document.title = `What-if · ${ladder.title || ladder.id} · Ratings`;
  // Only systems of the same kind can re-rate this ladder's history (games vs tournaments).
  const choices = systems.filter((s) => s.kind === system.kind);
  const select = h("select", { name: "system" }, choices.map((s) =>
    h("option", { value: s.id, selected: s.id === system.id }, `${s.title} (${s.id})`)));
  const params = h("textarea", { name: "params", rows: 8, spellcheck: "false", class: "code" });
  const reference = h("div");
  const results = h("div", { class: "results", "aria-live": "polite" });

  function fill() {
    const chosen = choices.find((s) => s.id === select.value) || system;
    params.value = JSON.stringify(chosen.id === ladder.system ? ladder.params : defaults(chosen), null, 2);
    reference.replaceChildren(paramsReference(chosen));
  }
  select.addEventListener("change", fill);
  fill();

  async function run(e) {
    e.preventDefault();
    let parsed;
    try {
      parsed = JSON.parse(params.value || "{}");
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    } catch (error) {
      results.replaceChildren(notice(`Parameters must be a JSON object (${error.message}).`, "error"));
      return;
    }
    results.setAttribute("aria-busy", "true");
    try {
      const result = await api(`ladders/${encodeURIComponent(ladder.id)}/whatif`, {
        method: "POST", body: { system: select.value, params: parsed },
      });
      results.replaceChildren(...resultTable(ladder, result));
    } catch (error) {
      // The ladder exists (it was just loaded), so 404/405 means the endpoint does not.
      results.replaceChildren(error instanceof ApiError && (error.status === 404 || error.status === 405)
        ? notice("What-if not available on this server.", "warn")
        : errorNotice(error));
    } finally {
      results.setAttribute("aria-busy", "false");
      results.dataset.ready = "true";
    }
  }

  return [
    ladderHeader(ladder, system, "whatif"),
    h("p", { class: "muted" },
      "Re-rate this ladder's whole history with another system or other parameters and compare "
      + "with the current standings. Nothing is stored."),
    h("form", { class: "card whatif-form", onsubmit: run },
      h("div", { class: "row" }, field("System", select)),
      field("Parameters (JSON)", params, "Defaults are filled in; unknown or invalid parameters are refused"),
      reference,
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Compare"))),
    results,
  ];
}
