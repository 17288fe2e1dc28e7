// Webhooks (admin token, or a ladders:admin key for the webhooks it created): each endpoint with
// its ladders, types and status, and its most recent delivery attempts (GET /webhooks,
// GET /webhooks/{id}/deliveries). A webhook can be created (its secret is shown once, in the
// answer), replayed from a cursor (what makes a failing one active again) and deleted.

import { all, api } from "../api.js";
import { field, h, notice, numCell, numTh, path, table, when } from "../dom.js";
import { errorNotice } from "./common.js";

/** Delivery attempts listed per webhook, newest first. */
const DELIVERIES = 10;

/** The item types a webhook can hear of (API: WebhookIn.types; none ticked: all). */
const TYPES = [
  "game.rated", "game.corrected", "game.voided",
  "tournament.rated", "tournament.corrected", "tournament.voided",
  "rating.adjusted", "ladder.changed", "season.started", "season.changed",
];

const STATUS_NOTES = {
  failing: "An item exhausted its retries: nothing is sent until a replay (below) from the last "
    + "cursor the receiver applied, which also makes the webhook active again.",
  disabled: "The endpoint answered 410 Gone: nothing more is sent to it.",
};

function facts(items) {
  return h("dl", { class: "facts" }, items.filter(Boolean).map(([term, value]) =>
    [h("dt", {}, term), h("dd", {}, value)]));
}

function statusBadge(status) {
  return h("span", { class: `badge status ${status}`, "data-field": "status" }, status);
}

function feedLink(ladder, cursor = null) {
  const href = path("ladders", ladder, "feed") + (cursor === null ? "" : `?cursor=${cursor}`);
  return h("a", { href }, cursor === null ? ladder : `#${cursor}`);
}

function list(values, render, none) {
  return values?.length
    ? values.flatMap((value, i) => [i ? ", " : "", render(value)])
    : h("span", { class: "muted" }, none);
}

/** What an attempt got: the HTTP status answered (2xx succeeded), and the error if any. */
function resultCell(delivery) {
  const ok = delivery.status !== null && delivery.status >= 200 && delivery.status < 300;
  return h("td", { "data-field": "result", "data-value": delivery.status ?? "" },
    h("span", { class: ok ? "up" : "down" }, delivery.status ?? "no answer"),
    delivery.error ? h("span", { class: "muted" }, ` · ${delivery.error}`) : null);
}

function deliveriesTable(deliveries) {
  if (!deliveries.deliveries.length) return h("p", { class: "empty" }, "No delivery attempts yet.");
  const rows = deliveries.deliveries.map((d) => h("tr", {
    "data-item": d.item, "data-ladder": d.ladder, "data-cursor": d.cursor, "data-attempt": d.attempt,
  },
  h("td", {}, when(d.at, { seconds: true })),
  h("td", {}, feedLink(d.ladder)),
  h("td", { class: "num", "data-field": "cursor", "data-value": d.cursor }, feedLink(d.ladder, d.cursor)),
  h("td", {}, h("code", {}, d.item)),
  h("td", { class: "num", "data-field": "attempt", "data-value": d.attempt }, d.attempt),
  resultCell(d),
  numCell(d.seconds, { field: "seconds", digits: 3 })));
  const total = deliveries.total;
  return table({
    className: "deliveries",
    caption: total > rows.length
      ? `The ${rows.length} most recent of ${total} attempts, newest first`
      : `${total} attempt${total === 1 ? "" : "s"}, newest first`,
    head: ["Time", "Ladder", numTh("Cursor"), "Item", numTh("Attempt"), "Status or error", numTh("Seconds")],
    rows,
  });
}

/** POST /webhooks/{id}/replay: every item after a cursor again (of one ladder, or of all). */
function replayForm(webhook, done) {
  const after = h("input", { type: "number", name: "after", min: 0, step: 1, required: true, value: "0" });
  const ladder = h("input", {
    type: "text", name: "ladder", placeholder: "Every ladder", autocomplete: "off", spellcheck: "false",
  });
  const out = h("div", { class: "form-result" });
  const form = h("form", {
    class: "controls replay",
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        const answer = await api(`webhooks/${encodeURIComponent(webhook.id)}/replay`, {
          method: "POST", body: { after: Number(after.value), ladder: ladder.value.trim() || undefined },
        });
        done(notice(`Replaying the items after cursor ${answer.after} of ${answer.ladders.join(", ") || "no ladder"}.`));
      } catch (error) {
        out.replaceChildren(errorNotice(error));
      }
    },
  },
  field("After cursor", after, "Every item after this cursor is sent again"),
  field("Ladder", ladder, "Blank: every ladder it hears of"),
  h("div", { class: "field end" }, h("button", { type: "submit", class: "secondary" }, "Replay")));
  return h("details", { class: "reference" }, h("summary", {}, "Replay"), form, out);
}

/** Delete in two steps: the first click asks, the second deletes. */
function deleteButton(webhook, done) {
  const box = h("div", { class: "actions delete" });
  const ask = () => box.replaceChildren(h("button", { type: "button", class: "secondary", onclick: confirmStep }, "Delete…"));
  async function remove() {
    try {
      await api(`webhooks/${encodeURIComponent(webhook.id)}`, { method: "DELETE" });
      done(notice(`Webhook ${webhook.id} deleted.`));
    } catch (error) {
      box.replaceChildren(errorNotice(error));
    }
  }
  function confirmStep() {
    box.replaceChildren(
      h("span", {}, `Delete ${webhook.url}? Nothing more will be sent to it.`),
      h("button", { type: "button", class: "danger", name: "confirm-delete", onclick: remove }, "Delete"),
      h("button", { type: "button", class: "secondary", onclick: ask }, "Cancel"));
  }
  ask();
  return box;
}

function webhookView(webhook, deliveries, done) {
  return h("section", { class: "webhook card", "data-id": webhook.id, "data-status": webhook.status },
    h("h2", {}, h("code", { class: "url" }, webhook.url), " ", statusBadge(webhook.status)),
    facts([
      ["Id", h("code", {}, webhook.id)],
      webhook.description ? ["Description", webhook.description] : null,
      ["Ladders", list(webhook.ladders, (ladder) => feedLink(ladder), "every ladder its creator may read")],
      ["Types", list(webhook.types, (type) => h("code", {}, type), "every type")],
      ["Created", when(webhook.created_at)],
      webhook.failing_since ? ["Failing since", when(webhook.failing_since)] : null,
      webhook.disabled_at ? ["Disabled at", when(webhook.disabled_at)] : null,
    ]),
    STATUS_NOTES[webhook.status] ? notice(STATUS_NOTES[webhook.status], "warn") : null,
    h("h3", {}, "Recent deliveries"),
    deliveries instanceof Error ? errorNotice(deliveries) : deliveriesTable(deliveries),
    replayForm(webhook, done),
    deleteButton(webhook, done));
}

/** POST /webhooks; the answer's secret is shown once, above the list. */
function createForm(done) {
  const url = h("input", {
    type: "url", name: "url", required: true, placeholder: "https://site.example.org/hooks/ratings",
    autocomplete: "off", spellcheck: "false",
  });
  const ladders = h("input", {
    type: "text", name: "ladders", placeholder: "Every ladder", autocomplete: "off", spellcheck: "false",
  });
  const description = h("input", { type: "text", name: "description", autocomplete: "off", maxlength: 500 });
  const types = TYPES.map((type) => h("input", { type: "checkbox", name: "types", value: type }));
  const out = h("div", { class: "form-result" });
  const form = h("form", {
    class: "create-webhook",
    onsubmit: async (e) => {
      e.preventDefault();
      const chosen = types.filter((box) => box.checked).map((box) => box.value);
      const ids = ladders.value.split(/[\s,]+/).filter(Boolean);
      const body = {
        url: url.value.trim(),
        ladders: ids.length ? ids : undefined,
        types: chosen.length ? chosen : undefined,
        description: description.value.trim() || undefined,
      };
      try {
        const created = await api("webhooks", { method: "POST", body });
        form.reset();
        out.replaceChildren();
        done(h("div", { class: "notice secret", role: "status", "data-id": created.id },
          h("p", {}, "Webhook ", h("code", {}, created.id), " created for ", h("code", {}, created.url), "."),
          h("p", {}, "Its signing secret, shown only this once (the API never shows it again): ",
            h("code", { class: "secret-value" }, created.secret))));
      } catch (error) {
        out.replaceChildren(errorNotice(error));
      }
    },
  },
  h("div", { class: "row" },
    field("URL", url, "http(s); private and loopback hosts only where the server allows them"),
    field("Ladders", ladders, "Ids separated by commas or spaces; blank: every ladder you may read"),
    field("Description", description)),
  h("fieldset", { class: "types" }, h("legend", {}, "Types (none ticked: every type)"),
    types.map((box) => h("label", { class: "check" }, box, h("code", {}, box.value)))),
  h("div", { class: "actions" }, h("button", { type: "submit" }, "Create webhook")));
  return h("details", { class: "reference create" }, h("summary", {}, "New webhook"), form, out);
}

async function fetchAll() {
  const { webhooks, total } = await all("webhooks", "webhooks");
  const deliveries = await Promise.all(webhooks.map((webhook) =>
    api(`webhooks/${encodeURIComponent(webhook.id)}/deliveries`, { query: { limit: DELIVERIES } })
      .catch((error) => error)));
  return { webhooks, total, deliveries };
}

export async function render(_params, { setCrumbs }) {
  setCrumbs([["Ladders", "#/"], ["Webhooks", null]]);
  document.title = "Webhooks · Ratings";
  const status = h("p", { class: "muted status", role: "status" });
  const message = h("div", { class: "message" });
  const listing = h("div", { class: "webhooks" });

  function show({ webhooks, total, deliveries }) {
    status.textContent = `${total} webhook${total === 1 ? "" : "s"} · the ${DELIVERIES} most recent `
      + `delivery attempts of each · read at ${new Date().toISOString().slice(11, 19)} UTC`;
    listing.replaceChildren(...(webhooks.length
      ? webhooks.map((webhook, i) => webhookView(webhook, deliveries[i], done))
      : [h("p", { class: "empty" }, "No webhooks yet.")]));
  }

  async function refresh() {
    listing.setAttribute("aria-busy", "true");
    try {
      show(await fetchAll());
    } catch (error) {
      listing.replaceChildren(errorNotice(error));
    } finally {
      listing.setAttribute("aria-busy", "false");
    }
  }

  /** After an action: its message above the list, and the list read again. */
  function done(node) {
    message.replaceChildren(node);
    refresh();
  }

  show(await fetchAll()); // a 401/403 here opens the token prompt (admin or ladders:admin)
  return [
    h("header", { class: "page-head" },
      h("h1", {}, "Webhooks"),
      h("p", { class: "muted" }, "Endpoints the change feed's items are POSTed to, signed, in cursor order per "
        + "ladder (retried until answered 2xx). Needs the admin token, or a ladders:admin key (its own webhooks).")),
    createForm(done),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", name: "refresh", onclick: refresh }, "Refresh")),
    message, status, listing,
  ];
}
