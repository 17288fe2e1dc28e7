// A ladder's change feed (GET /ladders/{ladder}/feed), newest first: each item's cursor, type,
// time and event, and every rating it moved (before → after). The API pages forward from a
// cursor only, so the page first finds the ladder's last cursor (a search with one-item pages,
// see lastCursor), then shows windows of PAGE cursors ending there: "Older" moves the window
// back, asking with after = the window's start. "#/ladders/{ladder}/feed?cursor=N" opens the
// window ending at cursor N, marked. "Follow" asks for new items every FOLLOW_SECONDS.

import { api, ladderAndSystem } from "../api.js";
import { field, h, isNumber, numCell, numTh, path, playerLink, signed, table, when } from "../dom.js";
import { errorNotice, labels, ladderCrumbs, ladderHeader } from "./common.js";

/** Cursors per window (a ladder's cursors are consecutive, so up to this many items). */
const PAGE = 20;
/** Ratings listed per item before "Show all" (a ladder.changed item lists every rating). */
const SHOWN_RATINGS = 12;
const FOLLOW_SECONDS = 5;
/** The first probe beyond the first item; the steps grow fourfold until one finds nothing. */
const FIRST_STEP = 256;

const TYPES = {
  "game.rated": "Game rated",
  "game.corrected": "Game corrected",
  "game.voided": "Game voided",
  "tournament.rated": "Tournament rated",
  "tournament.corrected": "Tournament corrected",
  "tournament.voided": "Tournament voided",
  "rating.adjusted": "Rating adjusted",
  "ladder.changed": "Ladder changed",
  "season.started": "Season started",
  "season.changed": "Season changed",
};
const EVENT_KINDS = { game: ["games", "Game"], tournament: ["tournaments", "Tournament"] };

function feedPath(ladder) {
  return `ladders/${encodeURIComponent(ladder.id)}/feed`;
}

/** The first cursor after `after`, or null when the feed holds nothing after it. */
async function firstAfter(ladder, after) {
  const page = await api(feedPath(ladder), { query: { after, limit: 1 } });
  return page.items.length ? page.items[0].cursor : null;
}

/**
 * The ladder's last cursor (0: no items), with one-item pages: gallop forward until a probe
 * finds nothing, then bisect. About 2·log₂(cursor) small requests, instead of reading the whole
 * feed; "is there an item after N" only needs cursors to increase, not to be consecutive.
 * `known`: a cursor known to exist (or 0).
 */
async function lastCursor(ladder, known = 0) {
  // A cursor that exists: the first after the one known (Follow: usually none, one request).
  let low = await firstAfter(ladder, known);
  if (low === null) return known;
  let high = null; // nothing after it
  for (let step = FIRST_STEP; high === null; step *= 4) {
    const found = await firstAfter(ladder, low + step - 1);
    if (found === null) high = low + step - 1;
    else low = found;
  }
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const found = await firstAfter(ladder, middle);
    if (found === null) high = middle;
    else low = found;
  }
  return low;
}

/** A rating's value before or after: "new" / "removed" where the write created or removed it. */
function ratingCell(entry, fieldName, missing) {
  if (!entry) {
    return h("td", { class: "num muted", "data-field": fieldName, "data-value": "" }, missing);
  }
  return numCell(entry.rating, { field: fieldName });
}

function ratingRow(ladder, moved, shown) {
  const { before, after } = moved;
  const delta = before && after ? after.rating - before.rating : null;
  const deviation = (entry) => (isNumber(entry?.deviation) ? entry.deviation.toFixed(2) : "—");
  return h("tr", { "data-player": moved.player, "data-faction": moved.faction ?? "" },
    h("th", { scope: "row" }, playerLink(ladder.id, moved.player, moved.faction, null)),
    shown.factions ? h("td", {}, moved.faction ?? "—") : null,
    ratingCell(before, "rating_before", "new"),
    ratingCell(after, "rating_after", "removed"),
    numCell(delta, { format: "signed", field: "delta" }),
    shown.deviation ? h("td", { class: "num" }, `${deviation(before)} → ${deviation(after)}`) : null,
    h("td", {
      class: "num", "data-field": "games", "data-value": after?.games ?? "", "data-before": before?.games ?? "",
    }, `${before?.games ?? "—"} → ${after?.games ?? "—"}`));
}

function ratingsTable(ladder, item, names) {
  const entries = (moved) => [moved.before, moved.after].filter(Boolean);
  const shown = {
    factions: item.ratings.some((m) => m.faction),
    deviation: item.ratings.some((m) => entries(m).some((e) => isNumber(e.deviation))),
  };
  const head = ["Player", shown.factions ? "Faction" : null, numTh("Before", names.rating),
    numTh("After", names.rating), numTh("Δ"), shown.deviation ? numTh(names.deviation) : null,
    numTh("Games", "Games before → after")].filter(Boolean);
  const body = (ratings) => ratings.map((moved) => ratingRow(ladder, moved, shown));
  const wrap = table({ className: "feed-ratings", head, rows: body(item.ratings.slice(0, SHOWN_RATINGS)) });
  if (item.ratings.length <= SHOWN_RATINGS) return wrap;
  const more = h("button", {
    type: "button", class: "link",
    onclick: () => {
      wrap.querySelector("tbody").replaceChildren(...body(item.ratings));
      more.remove();
    },
  }, `Show all ${item.ratings.length} ratings`);
  return [wrap, h("p", { class: "more" }, more)];
}

function eventLink(ladder, event) {
  if (!event) return null;
  const [segment, label] = EVENT_KINDS[event.kind] ?? [null, event.kind];
  const text = `${label} ${event.id}`;
  return segment
    ? h("a", { class: "event", href: path("ladders", ladder.id, segment, event.id), "data-event": event.id }, text)
    : h("span", { class: "event" }, text);
}

function itemView(ladder, item, names, marked) {
  const count = item.ratings.length;
  return h("article", {
    class: `feed-item${marked ? " marked" : ""}`, "data-cursor": item.cursor, "data-type": item.type,
    "data-id": item.id,
  },
  h("header", { class: "feed-head" },
    h("span", { class: "cursor", title: `cursor ${item.cursor}` }, `#${item.cursor}`),
    h("strong", {}, TYPES[item.type] ?? item.type), h("span", { class: "kind" }, item.type),
    eventLink(ladder, item.event),
    h("span", { class: "muted" }, when(item.at, { seconds: true })),
    h("span", { class: "muted" }, `${count} rating${count === 1 ? "" : "s"} moved`)),
  h("p", { class: "muted small item-id" }, "id ", h("code", {}, item.id)),
  count ? ratingsTable(ladder, item, names) : h("p", { class: "empty" }, "No rating moved."));
}

/** The cursor asked for in the route ("#/ladders/x/feed?cursor=12"), or null. */
function askedCursor() {
  const query = location.hash.split("?")[1] ?? "";
  const value = Number(new URLSearchParams(query).get("cursor"));
  return Number.isInteger(value) && value > 0 ? value : null;
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const { ladder, system } = await ladderAndSystem(ladderId);
  setCrumbs(ladderCrumbs(ladder, ["Feed", null]));
  document.title = `Feed · ${ladder.title || ladder.id} · Ratings`;
  const names = labels(system, ladder);

  let last = await lastCursor(ladder);
  const asked = askedCursor();
  let top = asked ? Math.min(asked, last) : last; // the window's newest cursor
  const status = h("p", { class: "muted status", role: "status" });
  const list = h("div", { class: "feed" });
  const pager = h("div", { class: "actions pager" });
  const follow = h("input", { type: "checkbox", name: "follow" });
  const cursor = h("input", { type: "number", name: "cursor", min: 1, step: 1, placeholder: String(last || 1) });

  let loads = 0;
  async function load() {
    const mine = ++loads;
    list.setAttribute("aria-busy", "true");
    try {
      const after = Math.max(0, top - PAGE);
      const page = top > 0 ? await api(feedPath(ladder), { query: { after, limit: PAGE } }) : { items: [] };
      if (mine !== loads) return; // a later click asked for another window
      const items = page.items.filter((item) => item.cursor <= top).reverse();
      status.textContent = last === 0
        ? "No items yet: the feed starts with the ladder's first write."
        : `Cursors ${after + 1}–${top} of ${last}, newest first`
          + (follow.checked ? ` · following (every ${FOLLOW_SECONDS} s)` : "");
      list.replaceChildren(...(items.length
        ? items.map((item) => itemView(ladder, item, names, item.cursor === asked))
        : [h("p", { class: "empty" }, "No items in this window.")]));
      // Nothing newer and nothing older: no buttons.
      pager.replaceChildren(...(top >= last && after === 0 ? [] : [
        h("button", { type: "button", class: "secondary", disabled: top >= last,
          onclick: () => { top = last; load(); } }, "Newest"),
        h("button", { type: "button", class: "secondary", disabled: top >= last,
          onclick: () => { top = Math.min(last, top + PAGE); load(); } }, `Newer ${PAGE}`),
        h("button", { type: "button", class: "secondary", disabled: after === 0,
          onclick: () => { top = after; load(); } }, `Older ${PAGE}`)]));
    } catch (error) {
      list.replaceChildren(errorNotice(error));
    } finally {
      list.setAttribute("aria-busy", "false");
    }
  }

  // Follow: every few seconds, ask for items after the last cursor; on the newest window, show
  // them. Stops when unticked or when the page is left (the list is no longer in the document).
  let timer = null;
  async function poll() {
    timer = null;
    if (!follow.checked || !list.isConnected) return;
    try {
      const newest = await lastCursor(ladder, last);
      if (newest > last) {
        if (top === last) top = newest; // on the newest window: show the new items
        last = newest;
        await load();
      }
    } catch (error) {
      status.replaceChildren(errorNotice(error));
    }
    if (follow.checked && list.isConnected) timer = setTimeout(poll, FOLLOW_SECONDS * 1000);
  }
  follow.addEventListener("change", () => {
    clearTimeout(timer);
    timer = null;
    load();
    if (follow.checked) timer = setTimeout(poll, FOLLOW_SECONDS * 1000);
  });

  await load();
  const form = h("form", {
    class: "controls",
    onsubmit: (e) => {
      e.preventDefault();
      const value = Number(cursor.value);
      if (Number.isInteger(value) && value > 0) {
        top = Math.min(value, last);
        load();
      }
    },
  },
  field("Up to cursor", cursor, "Show the items up to this cursor"),
  h("div", { class: "field end" }, h("button", { type: "submit", class: "secondary" }, "Show")),
  h("div", { class: "field check" }, h("label", {}, follow, `Follow (every ${FOLLOW_SECONDS} s)`)));
  return [
    ladderHeader(ladder, system, "feed"),
    h("p", { class: "muted small" }, "What each committed write changed, newest first: every rating it moved, "
      + "before → after. Cursors increase in commit order (GET /ladders/{ladder}/feed)."),
    form, status, list, pager,
  ];
}
