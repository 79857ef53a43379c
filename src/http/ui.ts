/**
 * The memory inspector's files (ui/, built into dist/ui by `npm run build`), served at /ui from
 * memory: a fixed set read once, so no request can name a file outside it. The page holds no
 * data; everything it shows comes from the REST API with the same key checks as any client.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "hono";
import { PACKAGE_ROOT } from "../package-root.js";

/** Built into dist/ui, whether this runs from src/, dist/ or the CLI's bundle. */
const UI_DIR = join(PACKAGE_ROOT, "dist", "ui");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** Scripts, styles and requests from this origin only; never framed by another site. */
const HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
};

export interface UiFiles {
  /** The file's body and type by name (`index.html`, `main.js`, …); empty when not built. */
  get(name: string): { body: string; type: string } | undefined;
}

export function loadUi(directory = UI_DIR): UiFiles {
  const files = new Map<string, { body: string; type: string }>();
  let names: string[] = [];
  try {
    names = readdirSync(directory);
  } catch {
    // Not built (a checkout before `npm run build`): /ui answers 404 with how to build it.
  }
  for (const name of names) {
    const type = TYPES[name.slice(name.lastIndexOf("."))];
    if (type) files.set(name, { body: readFileSync(join(directory, name), "utf8"), type });
  }
  return { get: (name) => files.get(name) };
}

/**
 * `authRequired`: the page is told (in a meta tag) that the API needs a key, so it asks for
 * one before its first request instead of learning it from a refused one.
 */
export function serveUi(files: UiFiles, authRequired: boolean) {
  const index = files.get("index.html");
  const page = index && {
    ...index,
    body: index.body.replace(
      '<meta name="hindsight-auth" content="none" />',
      `<meta name="hindsight-auth" content="${authRequired ? "bearer" : "none"}" />`,
    ),
  };
  return (c: Context) => {
    const name = c.req.param("file") ?? "index.html";
    const file = name === "index.html" ? page : files.get(name);
    if (!file) {
      return c.json(
        {
          code: "ROUTE_NOT_FOUND",
          message:
            name === "index.html"
              ? "the inspector is not built: run npm run build"
              : `no file ${name} in the inspector`,
        },
        404,
      );
    }
    return c.body(file.body, 200, { "content-type": file.type, ...HEADERS });
  };
}
