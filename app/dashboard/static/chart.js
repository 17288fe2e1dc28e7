// The rating-history chart: inline SVG, one point per history entry (x = the entry's time,
// on a linear time axis; y = rating after it) and, where the system keeps a deviation, a band of rating ± one
// deviation after each entry: Glicko's r ± RD, the Bayesian systems' μ ± σ.

import { h, s, isNumber, num, signed } from "./dom.js";

const PAD = { left: 60, right: 18, top: 14, bottom: 36 };
// The y axis spans at least this fraction of the ratings' size (and at least MIN_SPAN points):
// a change far smaller than the rating itself (0.11 on 1500) must not fill the chart like a
// cliff. 1% of 1500 is 15 points, about a single Elo game's change at K = 32.
const MIN_SPAN_FRACTION = 0.01;
const MIN_SPAN = 1;
// Enough labelled grid lines to read a value off the axis.
const Y_TICKS = 5;
const MIN_Y_TICKS = 4;
// Room above and below the extreme points, as a fraction of the span.
const MARGIN = 0.06;
const NICE_STEPS = [1, 2, 5, 10];
// How the axis and band are named when the page gives no system's labels (pages/common.js).
const DEFAULT_NAMES = { rating: "rating", deviation: "deviation", band: "rating ± deviation (one RD)" };

// The viewBox follows the window's width when drawn, so labels keep a legible size on phones.
function size() {
  const width = Math.round(Math.max(340, Math.min(900, window.innerWidth - 60)));
  return { WIDTH: width, HEIGHT: width < 600 ? 220 : 280, MAX_X_LABELS: Math.max(3, Math.floor(width / 100)) };
}

function tickValues(low, high, step) {
  const values = [];
  for (let value = Math.ceil(low / step) * step; value <= high + step / 1e6; value += step) {
    values.push(Number(value.toPrecision(12)));
  }
  return values;
}

/**
 * Round tick values (steps of 1, 2 or 5 × 10^k) covering [low, high]: about Y_TICKS of them,
 * and a finer step while fewer than MIN_Y_TICKS fit. Returns the values and the decimals their
 * step needs, so that every label shows the same number of digits.
 */
function ticks(low, high) {
  const raw = (high - low) / Y_TICKS;
  let exponent = Math.floor(Math.log10(raw));
  let index = NICE_STEPS.findIndex((m) => m * 10 ** exponent >= raw);
  let step = NICE_STEPS[index] * 10 ** exponent;
  while (tickValues(low, high, step).length < MIN_Y_TICKS) {
    index -= 1;
    if (index < 0) {
      index = NICE_STEPS.length - 2;
      exponent -= 1;
    }
    step = NICE_STEPS[index] * 10 ** exponent;
  }
  // A step of 10^e (e < 0) needs -e decimals; 2 and 5 × 10^e need the same.
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return { values: tickValues(low, high, step), decimals };
}

const DAY_MS = 86_400_000;

/** A time tick's label: the date (UTC), with the time of day when the axis spans under 3 days. */
function timeLabel(ms, span) {
  const iso = new Date(ms).toISOString();
  return span < 3 * DAY_MS ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

function domain(entries, band) {
  const values = entries.flatMap((e) => {
    const spread = band && isNumber(e.deviation_after) ? e.deviation_after : 0;
    return [e.rating_after - spread, e.rating_after + spread];
  });
  let low = Math.min(...values);
  let high = Math.max(...values);
  const magnitude = Math.max(Math.abs(low), Math.abs(high));
  const span = Math.max(high - low, magnitude * MIN_SPAN_FRACTION, MIN_SPAN);
  const middle = (low + high) / 2;
  low = middle - span / 2;
  high = middle + span / 2;
  const margin = span * MARGIN;
  return [low - margin, high + margin];
}

/**
 * entries: history entries of one faction, oldest first. Returns a <figure> whose <svg> has
 * data-points = entries.length and one circle.point per entry (data-index = position in list).
 */
export function ratingChart(entries, { title, onSelect, names = DEFAULT_NAMES } = {}) {
  const { WIDTH, HEIGHT, MAX_X_LABELS } = size();
  const band = entries.some((e) => isNumber(e.deviation_after));
  const [low, high] = domain(entries, band);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  // x is time: changes far apart in time stand far apart (a season's gap shows as one).
  const times = entries.map((e) => Date.parse(e.at));
  const start = Math.min(...times);
  const end = Math.max(...times);
  const atTime = (t) => PAD.left + (end === start ? plotW / 2 : ((t - start) / (end - start)) * plotW);
  const x = (i) => atTime(times[i]);
  const y = (v) => PAD.top + (1 - (v - low) / (high - low)) * plotH;

  const { values: tickList, decimals } = ticks(low, high);
  const grid = tickList.map((value) => s("g", { class: "tick", "data-value": String(value) },
    s("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(value), y2: y(value) }),
    s("text", { x: PAD.left - 8, y: y(value), "text-anchor": "end", "dominant-baseline": "middle" },
      value.toFixed(decimals))));

  // Evenly spaced times from the first change to the last, each labelled with its date.
  const count = end === start ? 1 : MAX_X_LABELS;
  const xLabels = Array.from({ length: count }, (_, k) => {
    const t = count === 1 ? start : start + (k / (count - 1)) * (end - start);
    const anchor = count === 1 ? "middle" : k === 0 ? "start" : k === count - 1 ? "end" : "middle";
    return s("text", {
      class: "x-label", x: atTime(t), y: HEIGHT - PAD.bottom + 18, "text-anchor": anchor,
      "data-time": new Date(t).toISOString(),
    }, timeLabel(t, end - start));
  });

  let bandPath = null;
  if (band) {
    const withDev = entries.map((e, i) => [i, e]).filter(([, e]) => isNumber(e.deviation_after));
    const upper = withDev.map(([i, e]) => `${x(i)},${y(e.rating_after + e.deviation_after)}`);
    const lower = withDev.reverse().map(([i, e]) => `${x(i)},${y(e.rating_after - e.deviation_after)}`);
    bandPath = s("polygon", { class: "band", points: [...upper, ...lower].join(" ") },
      s("title", {}, `${names.band} after each change`));
  }

  // The line joins the changes that count: a voided one no longer leads to the next (whose
  // rating_before is recomputed without it), so it is skipped and left as a hollow point.
  const counted = entries.map((e, i) => [i, e]).filter(([, e]) => !e.voided);
  const line = s("polyline", {
    class: "line",
    points: counted.map(([i, e]) => `${x(i)},${y(e.rating_after)}`).join(" "),
    "data-indexes": counted.map(([i]) => i).join(" "),
  });

  const points = entries.map((e, i) => s("circle", {
    class: `point${e.voided ? " voided" : ""}${e.delta > 0 ? " up" : e.delta < 0 ? " down" : ""}`,
    cx: x(i), cy: y(e.rating_after), r: 4.5,
    "data-index": i,
    "data-value": String(e.rating_after),
    "data-time": e.at,
    tabindex: 0,
    onclick: () => onSelect?.(i),
    onkeydown: (event) => { if (event.key === "Enter") onSelect?.(i); },
  }, s("title", {}, `#${i + 1} ${e.kind} ${e.id ?? ""} · ${e.at.slice(0, 10)}\n`
    + `${num(e.rating_before)} → ${num(e.rating_after)} (${signed(e.delta)})`
    + (isNumber(e.deviation_after) ? `\n${names.deviation.toLowerCase()} ${num(e.deviation_after)}` : ""))));

  const first = entries[0];
  const last = entries[entries.length - 1];
  const label = `${title || "Rating history"}: ${entries.length} changes, from `
    + `${num(first.rating_before)} to ${num(last.rating_after)}`;
  const svg = s("svg", {
    class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label,
    "data-points": entries.length, "data-band": band ? "true" : "false",
    "data-y-low": String(low), "data-y-high": String(high),
    "data-x-start": new Date(start).toISOString(), "data-x-end": new Date(end).toISOString(),
    preserveAspectRatio: "xMidYMid meet",
  },
  s("g", { class: "grid" }, grid),
  s("line", { class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - PAD.bottom, y2: HEIGHT - PAD.bottom }),
  xLabels,
  bandPath, line, points);

  return h("figure", { class: "chart-box" }, svg,
    h("figcaption", {}, `x: time of the change (UTC) · y: ${names.rating.toLowerCase()} after the change`,
      band ? h("span", { class: "legend-band" }, ` · shaded band: ${names.band}`) : null,
      " · select a point to find its row"));
}
