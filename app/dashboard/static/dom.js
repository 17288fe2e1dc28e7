// Small DOM helpers and number/date formatting shared by every page.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (key in element && !(element instanceof SVGElement) && typeof value !== "string") {
      element[key] = value; // properties such as checked, value, selected
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** h("a", {href: "#/"}, "text", child, [more]) → an HTML element. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** The same for SVG elements (they need their namespace). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function isNumber(value) {
  return typeof value === "number" && Number.isFinite(value);
}

/** 2 decimals, the way every table shows numbers. */
export function num(value, digits = 2) {
  return isNumber(value) ? value.toFixed(digits) : "—";
}

export function signed(value, digits = 2) {
  if (!isNumber(value)) return "—";
  const text = value.toFixed(digits);
  return value > 0 && Number(text) !== 0 ? `+${text}` : text;
}

export function percent(value, digits = 2) {
  return isNumber(value) ? `${(value * 100).toFixed(digits)}%` : "—";
}

const FORMATS = { num, signed, percent };

/**
 * A numeric table cell: 2 decimals shown, the exact value in data-value (tests and copy/paste
 * compare against the API), and a class for the sign of deltas.
 */
export function numCell(value, { format = "num", field, digits = 2 } = {}) {
  const text = FORMATS[format](value, digits);
  const cls = ["num"];
  if (format === "signed" && isNumber(value) && Number(text) !== 0) {
    cls.push(value > 0 ? "up" : "down");
  }
  return h("td", {
    class: cls.join(" "),
    "data-value": isNumber(value) ? String(value) : "",
    "data-field": field,
    title: isNumber(value) ? String(value) : null,
  }, text);
}

/**
 * "2026-11-29 10:00 UTC" inside a <time>; times are shown in UTC like the API gives them.
 * `seconds` shows them too ("10:00:07 UTC": a feed item's commit, a delivery attempt).
 */
export function when(iso, { dateOnly = false, seconds = false } = {}) {
  if (!iso) return "—";
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  const [day, time] = date.toISOString().split("T");
  // Date and time each stay on one line; a narrow column breaks between them.
  return h("time", { datetime: iso, title: iso },
    h("span", { class: "nowrap" }, day),
    dateOnly || iso.length === 10 ? null : [" ", h("span", { class: "nowrap" }, `${time.slice(0, seconds ? 8 : 5)} UTC`)]);
}

export function path(...parts) {
  return "#/" + parts.map(encodeURIComponent).join("/");
}

/** A link to a player's page: its profile name where it has one (the id beside it, muted). */
export function playerLink(ladder, player, faction, name) {
  return h("a", {
    href: path("ladders", ladder, "players", player), "data-faction": faction, "data-player": player,
  },
  name ? [h("span", { class: "player-name" }, name), " ", h("span", { class: "player-id" }, player)] : player);
}

/** A player's country (ISO 3166-1 alpha-2), or a dash. */
export function countryCell(country) {
  return h("td", { "data-field": "country", "data-value": country ?? "" }, country ?? "—");
}

/** A table inside a horizontally scrollable wrapper (narrow screens). */
export function table({ caption, head, rows, className = "" }) {
  return h("div", { class: "table-wrap" },
    h("table", { class: className },
      caption ? h("caption", {}, caption) : null,
      h("thead", {}, h("tr", {}, head.map((cell) =>
        typeof cell === "string" ? h("th", { scope: "col" }, cell) : cell))),
      h("tbody", {}, rows)));
}

// Greek letters (the Bayesian systems' μ and σ) keep their case where headings are set in
// capitals: an uppercase μ reads as the Latin M.
const GREEK = /[\u0370-\u03ff]/;

/** "symbol" for a label holding Greek letters (style.css keeps its case), else null. */
export function symbolClass(label) {
  return GREEK.test(label) ? "symbol" : null;
}

/** A header cell for a numeric column (right-aligned like its values). */
export function numTh(label, title) {
  return h("th", { scope: "col", class: ["num", symbolClass(label)].filter(Boolean).join(" "), title }, label);
}

export function notice(text, kind = "info") {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

let fieldCount = 0;

/** A labelled form control, with an optional hint tied to it for screen readers. */
export function field(label, control, hint) {
  control.id ||= `field-${++fieldCount}`;
  const hintElement = hint ? h("small", { class: "hint", id: `${control.id}-hint` }, hint) : null;
  if (hintElement) control.setAttribute("aria-describedby", hintElement.id);
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control, hintElement);
}

// A text cell a spreadsheet would read as a formula (or whose leading tab or carriage return
// it would drop): OWASP's "CSV injection" characters. Player ids may start with @ or -, names
// with =: such a cell gets a leading ' so the spreadsheet shows it as text.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): numbers as they are, text escaped against formulas, then quoted
 * where it holds a comma, quote or line break. */
export function csvCell(value) {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value !== "number" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: a header row, then the rows (arrays of values), CRLF line ends. */
export function csvText(head, rows) {
  return [head, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** Offers ``text`` as a file to save. A byte-order mark first, so spreadsheets read UTF-8. */
export function download(filename, text, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob(["\ufeff", text], { type }));
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
