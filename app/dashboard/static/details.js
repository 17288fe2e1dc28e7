// Renders a change's `details` (the terms of the system's formula) as readable key/value pairs;
// lists of objects (pairs, opponents) become small tables.

import { h, isNumber } from "./dom.js";

function scalar(value) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (isNumber(value)) {
    // Up to 4 decimals keeps formula terms legible; the exact value is in the tooltip.
    const text = Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
    return h("span", { class: "num", "data-value": String(value), title: String(value) }, text);
  }
  return String(value);
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function list(values) {
  if (!values.length) return h("span", { class: "muted" }, "none");
  if (values.every(isPlainObject)) {
    const keys = [...new Set(values.flatMap(Object.keys))];
    return h("table", { class: "mini" },
      h("thead", {}, h("tr", {}, keys.map((key) => h("th", { scope: "col" }, key)))),
      h("tbody", {}, values.map((row) =>
        h("tr", {}, keys.map((key) => h("td", {}, render(row[key])))))));
  }
  const items = values.map(render);
  return h("span", { class: "list" }, items.flatMap((item, i) => (i ? [", ", item] : [item])));
}

function render(value) {
  if (Array.isArray(value)) return list(value);
  if (isPlainObject(value)) return renderDetails(value);
  return scalar(value);
}

export function renderDetails(details) {
  const entries = Object.entries(details || {});
  if (!entries.length) return h("span", { class: "muted" }, "—");
  return h("dl", { class: "details" }, entries.map(([key, value]) => {
    const block = Array.isArray(value) ? value.some(isPlainObject) : isPlainObject(value);
    return h("div", { class: block ? "kv block" : "kv" }, h("dt", {}, key), h("dd", {}, render(value)));
  }));
}
