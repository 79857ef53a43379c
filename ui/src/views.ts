/** The inspector's views: search, browse, one memory, stats. Each renders into `main`. */
import { ApiError, api, query } from "./api.js";
import { dateTime, h, highlighted, queryWords } from "./dom.js";
import { t } from "./i18n.js";
import { provenanceGraph } from "./provenance-graph.js";
import {
  type AuditEntry,
  type History,
  type LlmUsage,
  type Memory,
  type MemoryPage,
  type Recalled,
  type Stats,
  textOf,
  timeOf,
  type WithProvenance,
} from "./types.js";

export type Notify = (message: string, error?: boolean) => void;

/** The API's code and message, as it gave them. */
export function describe(error: unknown): string {
  return error instanceof ApiError ? `${error.code}: ${error.message}` : String(error);
}

/** Shows an error; a refused key asks for another (main listens). */
export function failed(error: unknown, notify: Notify): void {
  notify(describe(error), true);
  if (error instanceof ApiError && error.status === 401) {
    window.dispatchEvent(new Event("hindsight:unauthorized"));
  }
}

const field = (label: string, control: HTMLElement) => h("label", {}, label, control);
const input = (name: string, attributes: Record<string, string> = {}) =>
  h("input", { name, ...attributes });
const layerSelect = (name: string, fallback: string) =>
  h(
    "select",
    { name },
    ...["all", "episodic", "semantic"].map((layer) =>
      h("option", { value: layer, selected: layer === fallback }, t(layer as "all")),
    ),
  );
const tagsOf = (text: string) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);

function memoryLink(memory: Memory): HTMLElement {
  return h("a", { href: `#/memory/${memory.id}` }, t("open"));
}

function metaOf(memory: Memory, extra: (Node | string)[] = []): HTMLElement {
  return h(
    "div",
    { class: "meta" },
    h("span", {}, t(memory.layer)),
    h("span", {}, memory.status),
    memory.task_type ? h("span", {}, memory.task_type) : null,
    memory.outcome ? h("span", {}, memory.outcome) : null,
    h("span", {}, dateTime(timeOf(memory), "minute")),
    memory.tags.length > 0 ? h("span", {}, memory.tags.map((tag) => `#${tag}`).join(" ")) : null,
    ...extra,
  );
}

export function searchView(main: HTMLElement, notify: Notify): void {
  const results = h("div", { id: "results" });
  const form = h(
    "form",
    { class: "filters", role: "search" },
    field(
      t("search"),
      input("query_text", { type: "search", placeholder: t("query"), required: "" }),
    ),
    field(t("layer"), layerSelect("memory_layer", "all")),
    field(t("taskType"), input("task_type_filter")),
    field(t("tags"), input("tags")),
    field(t("user"), input("user_id")),
    field(t("agent"), input("agent_id")),
    field(t("session"), input("session_id")),
    field(t("timeRange"), input("time_range", { placeholder: "2025-01-01~2025-01-31" })),
    h("label", {}, t("archived"), h("input", { type: "checkbox", name: "include_archived" })),
    h("button", { type: "submit" }, t("go")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const tags = tagsOf(text("tags"));
    const request = {
      query_text: text("query_text"),
      memory_layer: text("memory_layer"),
      top_k: 20,
      explain: true,
      include_archived: data.get("include_archived") === "on",
      ...Object.fromEntries(
        ["task_type_filter", "user_id", "agent_id", "session_id", "time_range"]
          .filter((name) => text(name) !== "")
          .map((name) => [name, text(name)]),
      ),
      ...(tags.length > 0 ? { tags } : {}),
    };
    results.replaceChildren(h("p", {}, t("loading")));
    try {
      const answer = await api<{ results: Recalled[] }>("POST", "/v1/recall", request);
      const words = queryWords(request.query_text);
      results.replaceChildren(
        ...(answer.results.length === 0
          ? [h("p", {}, t("noResults"))]
          : answer.results.map((result) =>
              h(
                "article",
                { class: "result" },
                h("div", {}, ...highlighted(textOf(result), words)),
                metaOf(result, [
                  h("strong", {}, `${t("score")} ${result.score.toFixed(3)}`),
                  memoryLink(result),
                ]),
                h(
                  "div",
                  { class: "signals" },
                  ...Object.entries(result.signals).map(([name, value]) =>
                    h("span", { title: name }, `${name} ${Number(value).toFixed(3)}`),
                  ),
                ),
              ),
            )),
      );
    } catch (error) {
      results.replaceChildren();
      failed(error, notify);
    }
  });
  main.replaceChildren(form, results);
  (form.querySelector("input[type=search]") as HTMLInputElement).focus();
}

export function browseView(main: HTMLElement, notify: Notify): void {
  const list = h("div", { id: "memories" });
  const form = h(
    "form",
    { class: "filters" },
    field(t("layer"), layerSelect("memory_layer", "all")),
    field(
      t("status"),
      h(
        "select",
        { name: "status" },
        ...["active", "archived", "quarantined", "rejected", "superseded", "all"].map((status) =>
          h("option", { value: status }, status),
        ),
      ),
    ),
    field(t("taskType"), input("task_type")),
    field(t("tags"), input("tags")),
    field(t("user"), input("user_id")),
    field(t("agent"), input("agent_id")),
    field(t("timeRange"), input("time_range")),
    field(t("limit"), input("limit", { type: "number", min: "1", max: "100", value: "20" })),
    h("button", { type: "submit" }, t("browse")),
  );
  const load = async (cursor?: string) => {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    try {
      const page = await api<MemoryPage>(
        "GET",
        `/v1/memories${query({
          memory_layer: text("memory_layer"),
          status: text("status"),
          task_type: text("task_type"),
          tags: tagsOf(text("tags")),
          user_id: text("user_id"),
          agent_id: text("agent_id"),
          time_range: text("time_range"),
          limit: text("limit"),
          cursor,
        })}`,
      );
      list.replaceChildren(
        h("p", {}, `${page.total} ${t("total")}`),
        ...page.memories.map((memory) =>
          h(
            "article",
            { class: "memory" },
            h("div", {}, textOf(memory)),
            metaOf(memory, [memoryLink(memory)]),
          ),
        ),
        h(
          "div",
          { class: "actions" },
          cursor ? h("button", { type: "button", onclick: () => void load() }, t("first")) : null,
          page.next_cursor
            ? h(
                "button",
                { type: "button", onclick: () => void load(page.next_cursor!) },
                t("next"),
              )
            : null,
        ),
      );
    } catch (error) {
      failed(error, notify);
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void load();
  });
  main.replaceChildren(form, list);
  void load();
}

export async function memoryView(main: HTMLElement, id: string, notify: Notify): Promise<void> {
  main.replaceChildren(h("p", {}, t("loading")));
  let memory: WithProvenance;
  let history: History;
  let audit: AuditEntry[] | null;
  let graph: HTMLElement | null;
  try {
    [memory, history, audit] = await Promise.all([
      api<WithProvenance>("GET", `/v1/memories/${id}`),
      api<History>("GET", `/v1/memories/${id}/history`),
      // The audit log is the operator's: an agent's key is refused it, and sees the rest.
      api<{ entries: AuditEntry[] }>("GET", `/v1/audit${query({ memory_id: id, limit: 50 })}`).then(
        (answer) => answer.entries,
        () => null,
      ),
    ]);
    graph = await provenanceGraph(memory);
  } catch (error) {
    main.replaceChildren(h("p", { class: "error" }, describe(error)));
    failed(error, notify);
    return;
  }
  const reload = () => void memoryView(main, id, notify);
  const act = (label: string, run: () => Promise<unknown>, done: string) =>
    h(
      "button",
      {
        type: "button",
        onclick: async () => {
          try {
            await run();
            notify(done);
            reload();
          } catch (error) {
            failed(error, notify);
          }
        },
      },
      label,
    );
  const links = (label: string, ids: string[]) =>
    ids.length === 0
      ? null
      : h(
          "tr",
          {},
          h("th", {}, label),
          h(
            "td",
            {},
            ...ids.flatMap((other) => [h("a", { href: `#/memory/${other}` }, other), " "]),
          ),
        );
  const editable =
    memory.layer === "episodic"
      ? [["summary", t("summary"), memory.summary ?? ""] as const]
      : [
          ["key_text", t("keyText"), memory.key_text ?? ""] as const,
          ["value_text", t("valueText"), memory.value_text ?? ""] as const,
        ];
  const editor = h(
    "form",
    { class: "filters", id: "editor", hidden: true },
    ...editable.map(([name, label, value]) => {
      const area = h("textarea", { name, rows: "3", cols: "60" });
      area.value = value;
      return field(label, area);
    }),
    field(t("tags"), input("tags", { value: memory.tags.join(", ") })),
    field(
      t("confidence"),
      input("confidence", {
        type: "number",
        min: "0",
        max: "1",
        step: "0.05",
        value: String(memory.confidence),
      }),
    ),
    h("button", { type: "submit" }, t("save")),
  );
  editor.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(editor);
    const change: Record<string, unknown> = {
      tags: tagsOf(String(data.get("tags") ?? "")),
      confidence: Number(data.get("confidence")),
    };
    for (const [name] of editable) change[name] = String(data.get(name) ?? "");
    try {
      await api("PATCH", `/v1/memories/${id}`, change);
      notify(t("saved"));
      reload();
    } catch (error) {
      failed(error, notify);
    }
  });
  main.replaceChildren(
    h("h2", {}, textOf(memory)),
    metaOf(memory),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        {
          type: "button",
          onclick: () => {
            editor.hidden = !editor.hidden;
          },
        },
        t("edit"),
      ),
      memory.status === "active"
        ? act(t("forget"), () => api("DELETE", `/v1/memories/${id}`), t("forgotten"))
        : act(t("restore"), () => api("POST", `/v1/memories/${id}/restore`), t("restored")),
      act(
        t("useful"),
        () => api("POST", "/v1/feedback", { memory_id: id, useful: true }),
        t("saved"),
      ),
      act(
        t("notUseful"),
        () => api("POST", "/v1/feedback", { memory_id: id, useful: false }),
        t("saved"),
      ),
    ),
    editor,
    h(
      "table",
      {},
      h("tr", {}, h("th", {}, "id"), h("td", {}, memory.id)),
      h("tr", {}, h("th", {}, t("confidence")), h("td", {}, String(memory.confidence))),
      h(
        "tr",
        {},
        h("th", {}, t("metadata")),
        h("td", {}, h("code", {}, JSON.stringify(memory.metadata))),
      ),
      ...(["user_id", "agent_id", "session_id", "source"] as const).map((name) =>
        memory[name] ? h("tr", {}, h("th", {}, name), h("td", {}, String(memory[name]))) : null,
      ),
      links(t("sources"), memory.provenance.sources),
      links(t("consolidatedInto"), memory.provenance.consolidated_into),
      links(t("supersedes"), memory.provenance.supersedes),
      links(
        t("supersededBy"),
        memory.provenance.superseded_by ? [memory.provenance.superseded_by] : [],
      ),
    ),
    ...(graph ? [h("h3", {}, t("graph")), graph] : []),
    h("h3", {}, t("history")),
    h(
      "table",
      { id: "history" },
      ...history.events.map((event) =>
        h(
          "tr",
          {},
          h("td", {}, dateTime(event.at)),
          h("td", {}, event.event),
          h("td", {}, event.reason),
        ),
      ),
    ),
    h("h3", {}, t("audit")),
    audit === null
      ? h("p", {}, t("auditOperator"))
      : h(
          "table",
          { id: "audit" },
          ...audit.map((entry) =>
            h(
              "tr",
              {},
              h("td", {}, dateTime(entry.at)),
              h("td", {}, entry.operation),
              h("td", {}, entry.reason),
              h("td", {}, h("code", {}, JSON.stringify(entry.details))),
            ),
          ),
        ),
  );
}

export async function statsView(main: HTMLElement, notify: Notify): Promise<void> {
  try {
    const [stats, working, quarantine] = await Promise.all([
      api<Stats>("GET", "/v1/stats"),
      // Either may be unavailable (no working store, an agent's key): the counts stay.
      api<{ total: number }>("GET", "/v1/working?limit=1").catch(() => null),
      api<{ memories: unknown[] }>("GET", "/v1/quarantine").catch(() => null),
    ]);
    const row = (layer: "episodic" | "semantic") =>
      h(
        "tr",
        {},
        h("th", {}, t(layer)),
        h("td", {}, String(stats[layer].total)),
        h("td", {}, String(stats[layer].active)),
        h("td", {}, String(stats[layer].archived)),
      );
    const pair = (label: string, value: string) =>
      h("tr", {}, h("th", {}, label), h("td", {}, value));
    const llm = stats.llm;
    const usage = (name: string, tier: LlmUsage) =>
      h(
        "tr",
        {},
        h("th", {}, name),
        ...[tier.requests, tier.failures, tier.prompt_tokens, tier.completion_tokens].map((value) =>
          h("td", {}, String(value)),
        ),
      );
    main.replaceChildren(
      h("h2", {}, t("counts")),
      h(
        "table",
        { id: "counts" },
        h(
          "tr",
          {},
          h("th", {}),
          h("th", {}, t("total_")),
          h("th", {}, t("active")),
          h("th", {}, "archived"),
        ),
        row("episodic"),
        row("semantic"),
      ),
      h(
        "table",
        {},
        pair(t("store"), stats.store),
        pair(t("embedder"), stats.embedder),
        working ? pair(t("working"), `${working.total} ${t("totalCount")}`) : null,
        quarantine
          ? pair(t("quarantine"), `${quarantine.memories.length} ${t("quarantined")}`)
          : null,
      ),
      h("h2", {}, t("model")),
      h(
        "table",
        { id: "llm" },
        pair("provider", `${llm.provider}${llm.model ? ` · ${llm.model}` : ""}`),
        llm.summary_model ? pair("summary model", llm.summary_model) : null,
        h(
          "tr",
          {},
          h("th", {}),
          ...[t("requests"), t("failures"), t("promptTokens"), t("completionTokens")].map((label) =>
            h("th", {}, label),
          ),
        ),
        usage(t("total_"), llm),
        ...Object.entries(llm.tiers ?? {}).map(([name, tier]) => usage(name, tier)),
      ),
    );
  } catch (error) {
    failed(error, notify);
  }
}
