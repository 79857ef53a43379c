/**
 * Decay over time, as the engine itself computes it: maintenance's dry run at moments ahead
 * says how many memories of each layer would be archived by then if none were used again.
 * No formula is copied into the page, so the chart cannot drift from what maintenance does.
 */
import { api } from "./api.js";
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import type { Stats } from "./types.js";

/** The moments ahead, in days. */
const HORIZON = [0, 7, 30, 90, 180, 365, 730];
const LAYERS = ["episodic", "semantic"] as const;
const SIZE = { width: 640, height: 240, left: 48, right: 16, top: 16, bottom: 36 };

interface Point {
  days: number;
  episodic: number;
  semantic: number;
}

interface Preview {
  episodic: { archived: number };
  semantic: { archived: number };
}

/** Active memories left per layer at each moment ahead of `from`. */
export async function forecast(from: Date): Promise<Point[]> {
  const stats = await api<Stats>("GET", "/v1/stats");
  // One after the other: each dry run reads every memory, and the server serves others too.
  const points: Point[] = [];
  for (const days of HORIZON) {
    const now = new Date(from.getTime() + days * 86_400_000).toISOString();
    const preview = await api<Preview>("POST", "/v1/maintain", { dry_run: true, now });
    points.push({
      days,
      episodic: stats.episodic.active - preview.episodic.archived,
      semantic: stats.semantic.active - preview.semantic.archived,
    });
  }
  return points;
}

export function decayChart(points: Point[]): HTMLElement {
  const top = Math.max(1, ...points.flatMap((point) => [point.episodic, point.semantic]));
  const plotWidth = SIZE.width - SIZE.left - SIZE.right;
  const plotHeight = SIZE.height - SIZE.top - SIZE.bottom;
  // Evenly spaced moments: a week and two years both stay readable.
  const x = (index: number) => SIZE.left + (index * plotWidth) / Math.max(1, points.length - 1);
  const y = (value: number) => SIZE.top + plotHeight - (value / top) * plotHeight;
  const axis = [
    svg("line", {
      x1: SIZE.left,
      y1: y(0),
      x2: SIZE.width - SIZE.right,
      y2: y(0),
      class: "axis",
    }),
    svg("line", { x1: SIZE.left, y1: SIZE.top, x2: SIZE.left, y2: y(0), class: "axis" }),
    svg("text", { x: SIZE.left - 6, y: y(top) + 4, "text-anchor": "end" }, String(top)),
    svg("text", { x: SIZE.left - 6, y: y(0) + 4, "text-anchor": "end" }, "0"),
    ...points.map((point, index) =>
      svg(
        "text",
        { x: x(index), y: SIZE.height - SIZE.bottom + 16, "text-anchor": "middle" },
        String(point.days),
      ),
    ),
    svg(
      "text",
      { x: SIZE.left + plotWidth / 2, y: SIZE.height - 4, "text-anchor": "middle" },
      t("days"),
    ),
  ];
  const lines = LAYERS.map((layer) =>
    svg(
      "g",
      { class: `series ${layer}` },
      svg("polyline", {
        points: points.map((point, index) => `${x(index)},${y(point[layer])}`).join(" "),
      }),
      ...points.map((point, index) =>
        svg(
          "circle",
          { cx: x(index), cy: y(point[layer]), r: 3 },
          svg("title", {}, `${t(layer)} · ${point.days} ${t("days")}: ${point[layer]}`),
        ),
      ),
    ),
  );
  const table = h(
    "table",
    { class: "forecast" },
    h("tr", {}, h("th", {}, t("days")), ...points.map((point) => h("th", {}, String(point.days)))),
    ...LAYERS.map((layer) =>
      h(
        "tr",
        { class: layer },
        h("th", {}, t(layer)),
        ...points.map((point) => h("td", {}, String(point[layer]))),
      ),
    ),
  );
  return h(
    "figure",
    { id: "decay-chart" },
    h("figcaption", {}, t("forecast")),
    svg(
      "svg",
      {
        viewBox: `0 0 ${SIZE.width} ${SIZE.height}`,
        width: SIZE.width,
        role: "img",
        "aria-label": t("forecast"),
      },
      ...axis,
      ...lines,
    ),
    h(
      "div",
      { class: "legend" },
      ...LAYERS.map((layer) => h("span", { class: `series ${layer}` }, t(layer))),
    ),
    table,
  );
}
