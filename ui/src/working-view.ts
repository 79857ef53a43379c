/**
 * Working memory: the live sessions with their budget use, and one session as an agent reads
 * it — its four-part summary, the items kept word for word, the assembled context.
 */
import { api, query } from "./api.js";
import { dateTime, h } from "./dom.js";
import { t } from "./i18n.js";
import { failed, type Notify } from "./views.js";

interface Summary {
  goal: string;
  done: string;
  blocked: string;
  next: string;
  method: string;
  items_summarized: number;
}

interface Listing {
  session: string;
  agent_id: string | null;
  items: number;
  tokens: number;
  budget: number;
  goal: string | null;
  summary: Summary | null;
  last_activity_at: string | null;
  expires_at: string;
}

interface Context {
  session: string;
  tokens: number;
  budget: number;
  summary: Summary | null;
  items: { seq: number; kind: string; role: string; content: string; created_at: string }[];
  context: string;
}

/** Tokens against the budget, as a bar and as figures. */
function budgetBar(tokens: number, budget: number): HTMLElement {
  return h(
    "span",
    { class: "budget" },
    h("meter", {
      min: "0",
      max: String(budget),
      value: String(tokens),
      high: String(Math.round(budget * 0.85)),
    }),
    ` ${tokens} / ${budget}`,
  );
}

function summaryTable(summary: Summary): HTMLElement {
  const row = (label: string, value: string) =>
    h("tr", {}, h("th", {}, label), h("td", {}, value || "—"));
  return h(
    "table",
    { class: "summary" },
    row(t("goal"), summary.goal),
    row(t("done_"), summary.done),
    row(t("blocked"), summary.blocked),
    row(t("nextStep"), summary.next),
    row(t("items"), `${summary.items_summarized} (${summary.method})`),
  );
}

export function workingView(main: HTMLElement, notify: Notify): void {
  const list = h("div", { id: "sessions" });
  const detail = h("div", { id: "session" });
  const agent = h("input", { name: "agent_id" });
  const form = h(
    "form",
    { class: "filters" },
    h("label", {}, t("agent"), agent),
    h("button", { type: "submit" }, t("refresh")),
  );
  const open = async (entry: Listing) => {
    try {
      const session = await api<Context>(
        "GET",
        `/v1/working/${encodeURIComponent(entry.session)}${query({ agent_id: entry.agent_id ?? undefined })}`,
      );
      detail.replaceChildren(
        h("h3", {}, entry.agent_id ? `${session.session} · ${entry.agent_id}` : session.session),
        h("p", {}, t("budgetUse"), " ", budgetBar(session.tokens, session.budget)),
        ...(session.summary ? [summaryTable(session.summary)] : []),
        h(
          "table",
          { class: "items" },
          ...session.items.map((item) =>
            h(
              "tr",
              {},
              h("td", {}, `#${item.seq}`),
              h("td", {}, `${item.kind} (${item.role})`),
              h("td", {}, item.content),
            ),
          ),
        ),
        h("details", {}, h("summary", {}, t("context")), h("pre", {}, session.context)),
      );
    } catch (error) {
      failed(error, notify);
    }
  };
  const load = async () => {
    try {
      const answer = await api<{ sessions: Listing[]; total: number }>(
        "GET",
        `/v1/working${query({ agent_id: agent.value.trim(), limit: 200 })}`,
      );
      if (answer.sessions.length === 0) {
        list.replaceChildren(h("p", {}, t("noSessions")));
        return;
      }
      list.replaceChildren(
        h("p", {}, `${answer.total} ${t("sessions")}`),
        h(
          "table",
          {},
          h(
            "tr",
            {},
            ...[t("session"), t("agent"), t("budgetUse"), t("items"), t("goal")]
              .concat([t("lastActivity"), t("expires")])
              .map((label) => h("th", {}, label)),
          ),
          ...answer.sessions.map((entry) =>
            h(
              "tr",
              { class: "working-session" },
              h(
                "td",
                {},
                h(
                  "button",
                  { type: "button", class: "link", onclick: () => void open(entry) },
                  entry.session,
                ),
              ),
              h("td", {}, entry.agent_id ?? "—"),
              h("td", {}, budgetBar(entry.tokens, entry.budget)),
              h("td", {}, String(entry.items)),
              h("td", {}, entry.goal ?? "—"),
              h("td", {}, dateTime(entry.last_activity_at)),
              h("td", {}, dateTime(entry.expires_at)),
            ),
          ),
        ),
      );
    } catch (error) {
      list.replaceChildren();
      failed(error, notify);
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    detail.replaceChildren();
    void load();
  });
  main.replaceChildren(h("h2", {}, t("working")), form, list, detail);
  void load();
}
