// Evaluation: how well candidate systems predict this ladder's own history (POST
// /ladders/{ladder}/evaluate), side by side with the baseline p = 1/2, their calibration
// plotted, and a tuning of one parameter (POST /ladders/{ladder}/tune) plotted against its
// values. Nothing is stored.
//
// The plots are inline SVG drawn here: chart.js draws a rating history (entries against their
// rating, a deviation band), not points on [0, 1] or a metric against a parameter.

import { ApiError, api, cached, ladderAndSystem } from "../api.js";
import { field, h, isNumber, notice, numCell, numTh, s, table } from "../dom.js";
import { errorNotice, ladderCrumbs, ladderHeader } from "./common.js";

// One colour per candidate, in order (presentation attributes: the page's CSS has no classes
// per series); past the last, they repeat.
const COLOURS = ["#1f6feb", "#d4700a", "#2da44e", "#a040a0", "#c03030", "#5a6b7d"];
const PAD = { left: 76, right: 18, top: 14, bottom: 44 };
// A calibration point's area grows with its count: radius from MIN_R (the smallest count
// shown) to MAX_R (the largest), by the square root so that area, not radius, is the count.
const MIN_R = 3;
const MAX_R = 11;
// The calibration plot's axes: probabilities in steps of 0.2.
const UNIT_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1];
// The tuning plot's y axis: at least this fraction of the metric's size, and room above and
// below the extreme points.
const FLAT_SPAN = 0.01;
const MARGIN = 0.08;
const Y_TICKS = 5;
const METRICS = [["log_loss", "Log loss"], ["brier", "Brier"], ["accuracy", "Accuracy"]];
// Metrics show more digits than ratings: candidates often differ in the third decimal.
const DIGITS = 4;

function colour(index) {
  return COLOURS[index % COLOURS.length];
}

// The viewBox follows the window's width when drawn (as chart.js's), so labels keep a legible
// size; the height stays within the page's chart height.
function size() {
  const width = Math.round(Math.max(340, Math.min(900, window.innerWidth - 60)));
  return { width, height: width < 600 ? 260 : 320 };
}

function axes(width, height, x, y, xTicks, yTicks, xLabel, yLabel, format) {
  return [
    s("g", { class: "grid" },
      yTicks.map((v) => s("g", { class: "tick", "data-value": String(v) },
        s("line", { x1: PAD.left, x2: width - PAD.right, y1: y(v), y2: y(v) }),
        s("text", { x: PAD.left - 8, y: y(v), "text-anchor": "end", "dominant-baseline": "middle" },
          format(v)))),
      xTicks.map((v) => s("text", { class: "x-label", x: x(v), y: height - PAD.bottom + 18,
        "text-anchor": "middle" }, format(v)))),
    s("line", { class: "axis", x1: PAD.left, x2: width - PAD.right, y1: height - PAD.bottom,
      y2: height - PAD.bottom }),
    s("line", { class: "axis", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: height - PAD.bottom }),
    s("text", { x: (PAD.left + width - PAD.right) / 2, y: height - 6, "text-anchor": "middle" }, xLabel),
    s("text", { x: 12, y: (PAD.top + height - PAD.bottom) / 2, "text-anchor": "middle",
      transform: `rotate(-90 12 ${(PAD.top + height - PAD.bottom) / 2})` }, yLabel),
  ];
}

function legend(labels) {
  return h("ul", { class: "chips legend" }, labels.map((label, i) => h("li", { "data-candidate": i },
    s("svg", { width: 12, height: 12, "aria-hidden": "true" },
      s("rect", { width: 12, height: 12, fill: colour(i) })),
    " ", label)));
}

/**
 * Predicted (x: a bin's mean p) against observed (y: its mean s) for each candidate, one point
 * per non-empty bin, its area by its count; the diagonal is perfect calibration. Each point
 * carries its bin's numbers (data-low, data-count, data-predicted, data-observed) exactly.
 */
export function calibrationPlot(results) {
  const { width, height } = size();
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (v) => PAD.left + v * plotW;
  const y = (v) => PAD.top + (1 - v) * plotH;
  const counts = results.flatMap((r) => r.calibration.map((b) => b.count)).filter((c) => c > 0);
  const most = Math.max(1, ...counts);
  const radius = (count) => MIN_R + (MAX_R - MIN_R) * Math.sqrt(count / most);
  const series = results.map((result, i) => s("g", { class: "series", "data-candidate": i },
    result.calibration.filter((b) => b.count > 0).map((b) => s("circle", {
      class: "calibration-point", cx: x(b.predicted), cy: y(b.observed), r: radius(b.count),
      fill: colour(i), "fill-opacity": 0.55, stroke: colour(i), "stroke-width": 1.5,
      "data-candidate": i, "data-low": String(b.low), "data-high": String(b.high),
      "data-count": b.count, "data-predicted": String(b.predicted), "data-observed": String(b.observed),
      tabindex: 0,
    }, s("title", {}, `${result.label} · bin [${b.low.toFixed(1)}, ${b.high.toFixed(1)}${b.high === 1 ? "]" : ")"}`
      + `\n${b.count} predictions · mean p ${b.predicted.toFixed(DIGITS)} · observed ${b.observed.toFixed(DIGITS)}`)))));
  const svg = s("svg", {
    class: "chart calibration", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `Calibration of ${results.length} candidate(s): predicted against observed`,
    preserveAspectRatio: "xMidYMid meet",
  },
  axes(width, height, x, y, UNIT_TICKS, UNIT_TICKS, "predicted p (bin mean)", "observed (mean s)",
    (v) => v.toFixed(1)),
  s("line", { class: "diagonal", x1: x(0), y1: y(0), x2: x(1), y2: y(1), stroke: "#9aa4b1",
    "stroke-dasharray": "4 4" }),
  series);
  return h("figure", { class: "chart-box" }, svg,
    h("figcaption", {}, "Each point is one of the ten bins of predicted probabilities: x its mean "
      + "prediction, y how often the predicted side finished ahead (a draw counts ½); its area "
      + "is how many predictions fell in it. Points on the dashed diagonal are well calibrated."),
    legend(results.map((r) => r.label)));
}

function binsTable(result, index) {
  return h("details", { class: "reference", "data-candidate": index },
    h("summary", {}, `${result.label}: calibration bins`),
    table({
      className: "mini bins",
      head: ["Bin", numTh("Count"), numTh("Mean p"), numTh("Observed")],
      rows: result.calibration.map((b) => h("tr", { "data-low": String(b.low) },
        h("th", { scope: "row" }, `[${b.low.toFixed(1)}, ${b.high.toFixed(1)}${b.high === 1 ? "]" : ")"}`),
        h("td", { class: "num", "data-field": "count", "data-value": b.count }, b.count),
        numCell(b.predicted, { field: "predicted", digits: DIGITS }),
        numCell(b.observed, { field: "observed", digits: DIGITS }))),
    }));
}

function metricsRow(label, m, attrs) {
  return h("tr", attrs,
    h("th", { scope: "row" }, label),
    h("td", { class: "num", "data-field": "games", "data-value": m.games }, m.games),
    h("td", { class: "num", "data-field": "pairs", "data-value": m.pairs }, m.pairs),
    METRICS.map(([key]) => numCell(m[key], { field: key, digits: DIGITS })));
}

function evaluationResults(body) {
  const results = body.results;
  return [
    h("h2", {}, "Candidates"),
    table({
      className: "evaluation",
      caption: "Lower log loss and Brier are better, higher accuracy; each must beat the baseline",
      head: ["Candidate", numTh("Games"), numTh("Pairs"), ...METRICS.map(([, label]) => numTh(label))],
      rows: [
        ...results.map((r, i) => metricsRow(r.label, r, { "data-candidate": i, title: `${r.system} ${JSON.stringify(r.params)}` })),
        metricsRow("Baseline p = ½", body.baseline, { "data-candidate": "baseline", class: "baseline" }),
      ],
    }),
    h("h2", {}, "Calibration"),
    calibrationPlot(results),
    results.map(binsTable),
  ];
}

/** The metric (y) against the parameter's values (x, in the grid's order when not numbers). */
export function tuningPlot(parameter, metric, points) {
  const { width, height } = size();
  const numeric = points.every((p) => isNumber(p.params[parameter]));
  const order = [...points].sort((a, b) => numeric
    ? a.params[parameter] - b.params[parameter] : 0);
  const xs = order.map((p, i) => (numeric ? p.params[parameter] : i));
  const ys = order.map((p) => p[metric]).filter(isNumber);
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const [xLow, xHigh] = [Math.min(...xs), Math.max(...xs)];
  let [yLow, yHigh] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1];
  // Equal values (a one-point grid) still get an axis: 1% of their size around them.
  const span = Math.max(yHigh - yLow, Math.abs(yHigh) * FLAT_SPAN, FLAT_SPAN);
  const middle = (yLow + yHigh) / 2;
  yLow = middle - span * (0.5 + MARGIN);
  yHigh = middle + span * (0.5 + MARGIN);
  const x = (v) => PAD.left + (xHigh === xLow ? plotW / 2 : ((v - xLow) / (xHigh - xLow)) * plotW);
  const y = (v) => PAD.top + (1 - (v - yLow) / (yHigh - yLow)) * plotH;
  const yTicks = Array.from({ length: Y_TICKS }, (_, i) => yLow + ((yHigh - yLow) * i) / (Y_TICKS - 1));
  const shown = order.map((p, i) => [p, xs[i]]).filter(([p]) => isNumber(p[metric]));
  const svg = s("svg", {
    class: "chart tuning", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `${metric} against ${parameter}`, preserveAspectRatio: "xMidYMid meet",
  },
  axes(width, height, x, y, numeric ? xs : [], yTicks, parameter, metric, (v) => Number(v.toPrecision(4)).toString()),
  numeric ? null : order.map((p, i) => s("text", { class: "x-label", x: x(i), y: height - PAD.bottom + 18,
    "text-anchor": "middle" }, String(p.params[parameter]))),
  s("polyline", { class: "line", points: shown.map(([p, v]) => `${x(v)},${y(p[metric])}`).join(" ") }),
  shown.map(([p, v]) => s("circle", {
    class: "point", cx: x(v), cy: y(p[metric]), r: 4.5, tabindex: 0,
    "data-param": JSON.stringify(p.params[parameter]), "data-value": String(p[metric]),
  }, s("title", {}, `${parameter} = ${JSON.stringify(p.params[parameter])}: ${metric} ${p[metric].toFixed(DIGITS)}`))));
  return h("figure", { class: "chart-box" }, svg,
    h("figcaption", {}, `${metric} at each value of ${parameter}; the other parameters are the ladder's (its own `
      + "system) or the system's defaults"));
}

function tuningResults(parameter, body) {
  return [
    h("h2", {}, `Tuning ${body.system}: best ${body.metric} first`),
    table({
      className: "tuning",
      head: [parameter, numTh("Games"), ...METRICS.map(([, label]) => numTh(label))],
      rows: body.results.map((p, i) => h("tr", { "data-rank": i, "data-param": JSON.stringify(p.params[parameter]) },
        h("th", { scope: "row" }, h("code", {}, JSON.stringify(p.params[parameter]))),
        h("td", { class: "num", "data-field": "games", "data-value": p.games }, p.games),
        METRICS.map(([key]) => numCell(p[key], { field: key, digits: DIGITS })))),
    }),
    tuningPlot(parameter, body.metric, body.results),
  ];
}

function parseJsonObject(text) {
  const parsed = JSON.parse(text.trim() || "{}");
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
  return parsed;
}

/** "16, 24, 32" → [16, 24, 32]; a value that is not JSON stays text ("plackett-luce"). */
function parseValues(text) {
  return text.split(/[,\s]+/).filter(Boolean).map((v) => {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  });
}

function unavailable(error, what) {
  // The ladder exists (it was just loaded), so 404/405 means the endpoint does not.
  return error instanceof ApiError && (error.status === 404 || error.status === 405)
    ? notice(`${what} not available on this server.`, "warn")
    : errorNotice(error);
}

async function settle(box, work) {
  box.setAttribute("aria-busy", "true");
  box.dataset.ready = "false";
  try {
    box.replaceChildren(...[await work()].flat(Infinity));
  } finally {
    box.setAttribute("aria-busy", "false");
    box.dataset.ready = "true";
  }
}

export async function render({ ladder: ladderId }, { setCrumbs }) {
  const [{ ladder, system }, systems] = await Promise.all([ladderAndSystem(ladderId), cached("systems")]);
  setCrumbs(ladderCrumbs(ladder, ["Evaluation", null]));
  document.title = `Evaluation · ${ladder.title || ladder.id} · Ratings`;
  const header = ladderHeader(ladder, system, "evaluation");
  if (system.kind !== "game") {
    return [header, notice("Tournament systems rank events from their final placements and predict "
      + "no game: their ladders cannot be evaluated.", "warn")];
  }
  const choices = systems.filter((x) => x.kind === "game");
  const path = `ladders/${encodeURIComponent(ladder.id)}`;

  // --- candidates ---
  const list = h("ol", { class: "candidates" });
  function addCandidate(systemId = ladder.system, params = "") {
    const select = h("select", { name: "system" }, choices.map((x) =>
      h("option", { value: x.id, selected: x.id === systemId }, `${x.title} (${x.id})`)));
    const label = h("input", { type: "text", name: "label", placeholder: "default: system and parameters" });
    const textarea = h("textarea", { name: "params", rows: 2, spellcheck: "false", class: "code",
      placeholder: "{} — the ladder's parameters (its own system) or the system's defaults" });
    textarea.value = params;
    const item = h("li", { class: "card candidate" },
      h("div", { class: "row" }, field("System", select), field("Label", label)),
      field("Parameters (JSON, only those that change)", textarea),
      h("button", { type: "button", class: "link", onclick: () => item.remove() }, "Remove"));
    item.read = () => ({ system: select.value, params: parseJsonObject(textarea.value),
      ...(label.value.trim() ? { label: label.value.trim() } : {}) });
    list.append(item);
  }
  addCandidate();
  const minGames = h("input", { type: "number", name: "min_games", min: 0, step: 1, value: 0, inputmode: "numeric" });
  const from = h("input", { type: "text", name: "from", placeholder: "RFC 3339, optional" });
  const to = h("input", { type: "text", name: "to", placeholder: "RFC 3339, optional" });
  const evaluated = h("div", { class: "results evaluation-results", "aria-live": "polite" });

  function scoring() {
    return {
      min_games: Number(minGames.value || 0),
      ...(from.value.trim() ? { from: from.value.trim() } : {}),
      ...(to.value.trim() ? { to: to.value.trim() } : {}),
    };
  }

  async function evaluate(e) {
    e.preventDefault();
    let candidates;
    try {
      candidates = [...list.children].map((item) => item.read());
    } catch (error) {
      evaluated.replaceChildren(notice(`Parameters must be a JSON object (${error.message}).`, "error"));
      return;
    }
    await settle(evaluated, async () => {
      try {
        return evaluationResults(await api(`${path}/evaluate`, { method: "POST", body: { candidates, ...scoring() } }));
      } catch (error) {
        return unavailable(error, "Evaluation");
      }
    });
  }

  // --- tuning ---
  const tuneSystem = h("select", { name: "tune-system" }, choices.map((x) =>
    h("option", { value: x.id, selected: x.id === system.id }, `${x.title} (${x.id})`)));
  const parameter = h("select", { name: "parameter" });
  const values = h("input", { type: "text", name: "values", placeholder: "16, 24, 32, 40", spellcheck: "false" });
  const metric = h("select", { name: "metric" }, METRICS.map(([key, label]) => h("option", { value: key }, label)));
  const tuned = h("div", { class: "results tuning-results", "aria-live": "polite" });
  function fillParameters() {
    const chosen = choices.find((x) => x.id === tuneSystem.value) || system;
    const numeric = Object.entries(chosen.params);
    parameter.replaceChildren(...numeric.map(([name, spec]) =>
      h("option", { value: name, title: spec.description || "" }, name)));
    const k = numeric.find(([name]) => name === "k");
    if (k) parameter.value = "k";
  }
  tuneSystem.addEventListener("change", fillParameters);
  fillParameters();

  async function tune(e) {
    e.preventDefault();
    const grid = { [parameter.value]: parseValues(values.value) };
    const name = parameter.value;
    await settle(tuned, async () => {
      try {
        const body = await api(`${path}/tune`, {
          method: "POST", body: { system: tuneSystem.value, grid, metric: metric.value, ...scoring() },
        });
        return tuningResults(name, body);
      } catch (error) {
        return unavailable(error, "Tuning");
      }
    });
  }

  return [
    header,
    h("p", { class: "muted" },
      "Replay this ladder's history under candidate systems and parameters, predicting every game "
      + "before it is rated, and score the predictions: log loss and Brier (lower is better), "
      + "accuracy (higher), and calibration. The baseline predicts ½ for every pair. Nothing is stored."),
    h("form", { class: "card evaluation-form", onsubmit: evaluate },
      h("h2", {}, "Evaluate"),
      list,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", onclick: () => addCandidate() }, "Add candidate")),
      h("div", { class: "row" },
        field("Minimum games", minGames, "A pair counts when all its players had this many rated games"),
        field("From", from, "Score games at or after (earlier games still rate)"),
        field("To", to, "Score games at or before")),
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Evaluate"))),
    evaluated,
    h("form", { class: "card tune-form", onsubmit: tune },
      h("h2", {}, "Tune one parameter"),
      h("div", { class: "row" },
        field("System", tuneSystem),
        field("Parameter", parameter),
        field("Values", values, "Separated by commas; at most 200"),
        field("Best by", metric)),
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Tune"))),
    tuned,
  ];
}
