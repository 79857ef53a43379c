/**
 * The memory inspector: a hash-routed page over the REST API of the server that serves it.
 * With API keys configured, it asks for one on the first 401 and keeps it for this tab.
 */
import { apiKey, setApiKey } from "./api.js";
import { h } from "./dom.js";
import { currentLanguage, switchLanguage, t } from "./i18n.js";
import { lifecycleView, sharedView } from "./operator-views.js";
import { browseView, memoryView, searchView, statsView } from "./views.js";
import { workingView } from "./working-view.js";

const main = document.getElementById("main")!;
const status = document.getElementById("status")!;

function notify(message: string, error = false): void {
  status.replaceChildren(h("span", { class: error ? "error" : "" }, message));
  if (!error) setTimeout(() => status.replaceChildren(), 3000);
}

function askForKey(): void {
  const key = h("input", { type: "password", name: "key", autocomplete: "off", required: true });
  const form = h(
    "form",
    { class: "filters", id: "key-form" },
    h("p", {}, t("keyNeeded")),
    h("label", {}, t("key"), key),
    h("button", { type: "submit" }, t("useKey")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setApiKey(key.value);
    void route();
  });
  main.replaceChildren(form);
  key.focus();
}

const ROUTES: { path: string; label: () => string }[] = [
  { path: "search", label: () => t("search") },
  { path: "browse", label: () => t("browse") },
  { path: "working", label: () => t("working") },
  { path: "lifecycle", label: () => t("lifecycle") },
  { path: "shared", label: () => t("shared") },
  { path: "stats", label: () => t("stats") },
];

function renderNav(current: string): void {
  document
    .getElementById("nav")!
    .replaceChildren(
      ...ROUTES.map((entry) =>
        h(
          "a",
          { href: `#/${entry.path}`, "aria-current": entry.path === current ? "page" : undefined },
          entry.label(),
        ),
      ),
    );
  document.getElementById("language")!.textContent =
    currentLanguage() === "en" ? "中文" : "English";
}

async function route(): Promise<void> {
  const [, view = "search", id] = location.hash.split("/");
  renderNav(view);
  // The server says whether its API needs a key; ask for one before any request is refused.
  const auth = document.querySelector<HTMLMetaElement>('meta[name="hindsight-auth"]')?.content;
  if (auth === "bearer" && !apiKey()) return askForKey();
  if (view === "browse") return browseView(main, notify);
  if (view === "stats") return statsView(main, notify);
  if (view === "working") return workingView(main, notify);
  if (view === "lifecycle") return lifecycleView(main, notify);
  if (view === "shared") return sharedView(main, notify);
  if (view === "memory" && id) return memoryView(main, id, notify);
  return searchView(main, notify);
}

document.getElementById("language")!.addEventListener("click", () => {
  switchLanguage();
  void route();
});
window.addEventListener("hashchange", () => void route());
window.addEventListener("hindsight:unauthorized", () => askForKey());
void route();
