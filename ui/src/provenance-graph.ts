/**
 * A memory's provenance as a small graph: what it came from on the left (the episodes a rule
 * was drawn from, the facts it superseded), the memory in the middle, what came of it on the
 * right (the rules drawn from an episode, the fact that superseded it). Each node links to its
 * memory.
 */
import { api } from "./api.js";
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { type Memory, textOf, type WithProvenance } from "./types.js";

type Relation = "sources" | "supersedes" | "consolidatedInto" | "supersededBy";

interface Neighbour {
  id: string;
  relation: Relation;
  /** Its text, or null when it could not be read (deleted, or not visible to this key). */
  memory: Memory | null;
}

/** At most this many nodes per side; the rest are counted in a last node. */
const PER_SIDE = 6;
const NODE = { width: 210, height: 38, gap: 12 };
const WIDTH = 3 * NODE.width + 2 * 90;
const LABEL_CHARS = 30;

/** What a node says: an episode's summary; a fact's value, its key being in the tooltip. */
const labelOf = (memory: Memory) =>
  memory.layer === "semantic" ? (memory.value_text ?? "") : textOf(memory);

const clip = (text: string) =>
  [...text].length > LABEL_CHARS ? `${[...text].slice(0, LABEL_CHARS - 1).join("")}…` : text;

/** Reads the neighbours' texts (one request each, at most PER_SIDE a side), then draws. */
export async function provenanceGraph(memory: WithProvenance): Promise<HTMLElement | null> {
  const { provenance } = memory;
  const left = [
    ...provenance.sources.map((id) => ({ id, relation: "sources" as const })),
    ...provenance.supersedes.map((id) => ({ id, relation: "supersedes" as const })),
  ];
  const right = [
    ...provenance.consolidated_into.map((id) => ({ id, relation: "consolidatedInto" as const })),
    ...(provenance.superseded_by
      ? [{ id: provenance.superseded_by, relation: "supersededBy" as const }]
      : []),
  ];
  if (left.length === 0 && right.length === 0) return null;
  const read = (side: { id: string; relation: Relation }[]) =>
    Promise.all(
      side.slice(0, PER_SIDE).map(async (entry) => ({
        ...entry,
        memory: await api<Memory>("GET", `/v1/memories/${entry.id}`).catch(() => null),
      })),
    );
  const [leftNodes, rightNodes] = await Promise.all([read(left), read(right)]);
  return draw(memory, leftNodes, left.length, rightNodes, right.length);
}

function draw(
  memory: Memory,
  left: Neighbour[],
  leftTotal: number,
  right: Neighbour[],
  rightTotal: number,
): HTMLElement {
  const rows = Math.max(
    left.length + (leftTotal > left.length ? 1 : 0),
    right.length + (rightTotal > right.length ? 1 : 0),
    1,
  );
  const height = rows * (NODE.height + NODE.gap) + NODE.gap;
  const column = (index: number) => index * (NODE.width + 90);
  const rowY = (index: number, count: number) =>
    (height - count * (NODE.height + NODE.gap) + NODE.gap) / 2 + index * (NODE.height + NODE.gap);
  const centre = { x: column(1), y: rowY(0, 1) };
  const edges: SVGElement[] = [];
  const nodes: SVGElement[] = [];
  const side = (entries: Neighbour[], total: number, x: number, toCentre: boolean) => {
    const count = entries.length + (total > entries.length ? 1 : 0);
    entries.forEach((entry, index) => {
      const y = rowY(index, count);
      const [from, to] = toCentre
        ? [
            { x: x + NODE.width, y: y + NODE.height / 2 },
            { x: centre.x, y: centre.y + NODE.height / 2 },
          ]
        : [
            { x: centre.x + NODE.width, y: centre.y + NODE.height / 2 },
            { x, y: y + NODE.height / 2 },
          ];
      edges.push(
        svg("line", {
          x1: from.x,
          y1: from.y,
          x2: to.x,
          y2: to.y,
          class: `edge ${entry.relation}`,
          "marker-end": "url(#arrow)",
        }),
      );
      const label = entry.memory ? labelOf(entry.memory) : entry.id;
      nodes.push(
        svg(
          "a",
          { href: `#/memory/${entry.id}`, class: `node ${entry.relation}` },
          svg(
            "title",
            {},
            `${t(entry.relation)}: ${entry.memory ? textOf(entry.memory) : entry.id}`,
          ),
          svg("rect", { x, y, width: NODE.width, height: NODE.height, rx: 6 }),
          svg("text", { x: x + 8, y: y + 15, class: "relation" }, t(entry.relation)),
          svg("text", { x: x + 8, y: y + 30 }, clip(label)),
        ),
      );
    });
    if (total > entries.length) {
      const y = rowY(entries.length, count);
      nodes.push(
        svg(
          "text",
          { x: x + 8, y: y + NODE.height / 2, class: "more" },
          `+${total - entries.length}`,
        ),
      );
    }
  };
  side(left, leftTotal, column(0), true);
  side(right, rightTotal, column(2), false);
  nodes.push(
    svg(
      "g",
      { class: "node self" },
      svg("title", {}, textOf(memory)),
      svg("rect", { x: centre.x, y: centre.y, width: NODE.width, height: NODE.height, rx: 6 }),
      svg("text", { x: centre.x + 8, y: centre.y + 15, class: "relation" }, t(memory.layer)),
      svg("text", { x: centre.x + 8, y: centre.y + 30 }, clip(labelOf(memory))),
    ),
  );
  const arrow = svg(
    "marker",
    {
      id: "arrow",
      viewBox: "0 0 10 10",
      refX: 10,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: "auto",
    },
    svg("path", { d: "M0,0 L10,5 L0,10 z" }),
  );
  return h(
    "figure",
    { id: "provenance-graph" },
    svg(
      "svg",
      {
        viewBox: `0 0 ${WIDTH} ${height}`,
        width: WIDTH,
        role: "img",
        "aria-label": t("graph"),
      },
      svg("defs", {}, arrow),
      ...edges,
      ...nodes,
    ),
  );
}
