/**
 * The operator's views: the lifecycle (what decay would archive, consolidation with a dry run
 * first) and shared memory (the quarantine's review, groups, source trust). They need a key
 * bound to no agent; an agent's key gets the API's PERMISSION_DENIED, shown as such.
 */
import { api } from "./api.js";
import { decayChart, forecast } from "./decay-chart.js";
import { h, progress } from "./dom.js";
import { t } from "./i18n.js";
import { type Memory, textOf } from "./types.js";
import { describe, type Notify } from "./views.js";

interface DecayCounts {
  scored: number;
  archived: number;
  reactivated: number;
  archived_ids?: string[];
  reactivated_ids?: string[];
}

interface MaintainResult extends DecayCounts {
  episodic: DecayCounts;
  semantic: DecayCounts;
  dry_run?: true;
}

interface ConsolidateResult {
  created: { id: string; key: string; value: string; sources: string[] }[];
  updated: { id: string; key: string; value: string; sources: string[] }[];
  superseded: string[];
  groups: { task_type: string; episodes: number; method: string }[];
  dry_run?: true;
}

const idLinks = (ids: readonly string[]) =>
  h("ul", {}, ...ids.map((id) => h("li", {}, h("a", { href: `#/memory/${id}` }, id))));

export function lifecycleView(main: HTMLElement, notify: Notify): void {
  const output = h("div", { id: "lifecycle-output" });
  const now = h("input", { name: "now", placeholder: "2026-06-01T00:00:00Z" });
  const buttons = h("div", { class: "actions" });
  // One operation at a time: the buttons wait while one runs, its progress in their place.
  const run = async (label: string, work: () => Promise<Node[]>) => {
    const controls = [...buttons.querySelectorAll("button")];
    for (const button of controls) button.disabled = true;
    output.replaceChildren(progress(label));
    try {
      output.replaceChildren(...(await work()));
    } catch (error) {
      output.replaceChildren(h("p", { class: "error" }, describe(error)));
      notify(describe(error), true);
    } finally {
      for (const button of controls) button.disabled = false;
    }
  };
  const moment = () => (now.value.trim() ? new Date(now.value.trim()) : new Date());
  const chart = () =>
    run(t("forecastButton"), async () => {
      const from = moment();
      if (Number.isNaN(from.getTime())) throw new Error(`${t("simulatedNow")}: ${now.value}`);
      return [decayChart(await forecast(from))];
    });
  const maintain = (dryRun: boolean) =>
    run(t("maintain"), async () => {
      const result = await api<MaintainResult>("POST", "/v1/maintain", {
        dry_run: dryRun,
        ...(now.value.trim() ? { now: now.value.trim() } : {}),
      });
      const archived = [
        ...(result.episodic.archived_ids ?? []),
        ...(result.semantic.archived_ids ?? []),
      ];
      return [
        h(
          "p",
          {},
          `${result.dry_run ? t("wouldArchive") : t("archivedNow")}: ${result.archived} · ${t("reactivated")}: ${result.reactivated} · ${t("scored")}: ${result.scored}`,
        ),
        ...(result.dry_run ? [idLinks(archived)] : []),
      ];
    });
  const consolidate = (dryRun: boolean) =>
    run(t("consolidate"), async () => {
      const result = await api<ConsolidateResult>("POST", "/v1/consolidate", {
        dry_run: dryRun,
      });
      if (result.groups.length === 0) return [h("p", {}, t("nothingToConsolidate"))];
      return [
        h("p", {}, result.dry_run ? t("dryRunNote") : t("done")),
        h(
          "ul",
          {},
          ...[...result.created, ...result.updated].map((pattern) =>
            h(
              "li",
              {},
              h("strong", {}, pattern.key),
              ` — ${pattern.value} (${pattern.sources.length})`,
            ),
          ),
        ),
      ];
    });
  main.replaceChildren(
    h("h2", {}, t("lifecycle")),
    h("form", { class: "filters" }, h("label", {}, t("simulatedNow"), now)),
    buttons,
    output,
  );
  const actions: [id: string, run: () => void, label: string][] = [
    ["maintain-preview", () => void maintain(true), t("previewDecay")],
    ["maintain-run", () => void maintain(false), t("runDecay")],
    ["consolidate-preview", () => void consolidate(true), t("previewConsolidation")],
    ["consolidate-run", () => void consolidate(false), t("runConsolidation")],
    ["decay-forecast", () => void chart(), t("forecastButton")],
  ];
  buttons.append(
    ...actions.map(([id, onclick, label]) => h("button", { type: "button", id, onclick }, label)),
  );
}

interface Group {
  group: string;
  members: { agent_id: string }[];
}

export async function sharedView(main: HTMLElement, notify: Notify): Promise<void> {
  try {
    const [quarantine, groups, sources] = await Promise.all([
      api<{ memories: Memory[] }>("GET", "/v1/quarantine"),
      api<{ groups: Group[] }>("GET", "/v1/groups"),
      api<{ sources: { source: string; trust: string }[]; default_trust: string }>(
        "GET",
        "/v1/sources",
      ),
    ]);
    const reviewer = h("input", { name: "reviewer", value: "inspector", required: true });
    const review =
      (memory: Memory, decision: "confirm" | "reject", why: HTMLInputElement) => async () => {
        const reason = why.value.trim();
        try {
          await api("POST", `/v1/memories/${memory.id}/review`, {
            decision,
            reviewer: reviewer.value || "inspector",
            ...(reason ? { reason } : {}),
          });
          notify(t("saved"));
          void sharedView(main, notify);
        } catch (error) {
          notify(describe(error), true);
        }
      };
    main.replaceChildren(
      h("h2", {}, t("quarantine")),
      h("label", {}, t("reviewer"), reviewer),
      ...(quarantine.memories.length === 0
        ? [h("p", {}, t("nothingQuarantined"))]
        : quarantine.memories.map((memory) => {
            const why = h("input", { name: "reason", placeholder: t("reason") });
            return h(
              "article",
              { class: "memory quarantined" },
              h("div", {}, textOf(memory)),
              h(
                "div",
                { class: "meta" },
                memory.shared_group ?? "",
                memory.source ?? "",
                memory.agent_id ?? "",
              ),
              h(
                "div",
                { class: "actions" },
                why,
                h(
                  "button",
                  { type: "button", class: "confirm", onclick: review(memory, "confirm", why) },
                  t("confirm"),
                ),
                h(
                  "button",
                  { type: "button", class: "reject", onclick: review(memory, "reject", why) },
                  t("reject"),
                ),
              ),
            );
          })),
      h("h2", {}, t("groups")),
      h(
        "table",
        {},
        ...groups.groups.map((group) =>
          h(
            "tr",
            {},
            h("th", {}, group.group),
            h("td", {}, group.members.map((m) => m.agent_id).join(", ")),
          ),
        ),
      ),
      h("h2", {}, t("trust")),
      h("p", {}, `${t("defaultTrust")}: ${sources.default_trust}`),
      h(
        "table",
        {},
        ...sources.sources.map((source) =>
          h("tr", {}, h("th", {}, source.source), h("td", {}, source.trust)),
        ),
      ),
    );
  } catch (error) {
    main.replaceChildren(h("p", { class: "error" }, describe(error)));
    notify(describe(error), true);
  }
}
