// The rating-history chart: inline SVG, one point per history entry (x = entry index,
// y = rating after it) and, for Glicko ladders, a band of rating ± deviation after each entry.

import { h, s, isNumber, num, signed } from "./dom.js";

const PAD = { left: 60, right: 18, top: 14, bottom: 36 };

// The viewBox follows the window's width when drawn, so labels keep a legible size on phones.
function size() {
  const width = Math.round(Math.max(340, Math.min(900, window.innerWidth - 60)));
  return { WIDTH: width, HEIGHT: width < 600 ? 220 : 280, MAX_X_LABELS: Math.max(3, Math.floor(width / 100)) };
}

/** About `count` round tick values (steps of 1, 2 or 5 × 10^k) covering [low, high]. */
function ticks(low, high, count = 5) {
  const raw = (high - low) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((m) => m >= raw) ?? raw;
  const values = [];
  for (let value = Math.ceil(low / step) * step; value <= high + step / 1e6; value += step) {
    values.push(Number(value.toPrecision(12)));
  }
  return values;
}

function domain(entries, band) {
  const values = entries.flatMap((e) => {
    const spread = band && isNumber(e.deviation_after) ? e.deviation_after : 0;
    return [e.rating_after - spread, e.rating_after + spread];
  });
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 1e-9) {
    // A flat history still needs a visible scale around its value.
    const pad = Math.max(Math.abs(low) * 0.01, 1);
    low -= pad;
    high += pad;
  }
  const margin = (high - low) * 0.06;
  return [low - margin, high + margin];
}

/**
 * entries: history entries of one faction, oldest first. Returns a <figure> whose <svg> has
 * data-points = entries.length and one circle.point per entry (data-index = position in list).
 */
export function ratingChart(entries, { title, onSelect } = {}) {
  const { WIDTH, HEIGHT, MAX_X_LABELS } = size();
  const band = entries.some((e) => isNumber(e.deviation_after));
  const [low, high] = domain(entries, band);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (entries.length === 1 ? plotW / 2 : (i / (entries.length - 1)) * plotW);
  const y = (v) => PAD.top + (1 - (v - low) / (high - low)) * plotH;

  const grid = ticks(low, high).map((value) => s("g", { class: "tick" },
    s("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(value), y2: y(value) }),
    s("text", { x: PAD.left - 8, y: y(value), "text-anchor": "end", "dominant-baseline": "middle" },
      Number.isInteger(value) ? value : num(value))));

  const every = Math.max(1, Math.ceil(entries.length / MAX_X_LABELS));
  const xLabels = entries.map((e, i) => (i % every === 0 || i === entries.length - 1)
    ? s("text", { class: "x-label", x: x(i), y: HEIGHT - PAD.bottom + 18, "text-anchor": "middle" },
      `#${i + 1}`)
    : null);

  let bandPath = null;
  if (band) {
    const withDev = entries.map((e, i) => [i, e]).filter(([, e]) => isNumber(e.deviation_after));
    const upper = withDev.map(([i, e]) => `${x(i)},${y(e.rating_after + e.deviation_after)}`);
    const lower = withDev.reverse().map(([i, e]) => `${x(i)},${y(e.rating_after - e.deviation_after)}`);
    bandPath = s("polygon", { class: "band", points: [...upper, ...lower].join(" ") },
      s("title", {}, "rating ± deviation after each change"));
  }

  const line = s("polyline", {
    class: "line",
    points: entries.map((e, i) => `${x(i)},${y(e.rating_after)}`).join(" "),
  });

  const points = entries.map((e, i) => s("circle", {
    class: `point${e.voided ? " voided" : ""}${e.delta > 0 ? " up" : e.delta < 0 ? " down" : ""}`,
    cx: x(i), cy: y(e.rating_after), r: 4.5,
    "data-index": i,
    "data-value": String(e.rating_after),
    tabindex: 0,
    onclick: () => onSelect?.(i),
    onkeydown: (event) => { if (event.key === "Enter") onSelect?.(i); },
  }, s("title", {}, `#${i + 1} ${e.kind} ${e.id ?? ""} · ${e.at.slice(0, 10)}\n`
    + `${num(e.rating_before)} → ${num(e.rating_after)} (${signed(e.delta)})`
    + (isNumber(e.deviation_after) ? `\ndeviation ${num(e.deviation_after)}` : ""))));

  const first = entries[0];
  const last = entries[entries.length - 1];
  const label = `${title || "Rating history"}: ${entries.length} changes, from `
    + `${num(first.rating_before)} to ${num(last.rating_after)}`;
  const svg = s("svg", {
    class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label,
    "data-points": entries.length, "data-band": band ? "true" : "false",
    preserveAspectRatio: "xMidYMid meet",
  },
  s("g", { class: "grid" }, grid),
  s("line", { class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - PAD.bottom, y2: HEIGHT - PAD.bottom }),
  xLabels,
  bandPath, line, points);

  return h("figure", { class: "chart-box" }, svg,
    h("figcaption", {}, "x: change number (oldest first) · y: rating after the change",
      band ? h("span", { class: "legend-band" }, " · shaded band: rating ± deviation (one RD)") : null,
      " · select a point to find its row"));
}
