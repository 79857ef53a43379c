/**
 * API keys and the tenants they belong to: `HINDSIGHT_API_KEYS=key:tenant,key:tenant`, or
 * the same pairs one per line in `HINDSIGHT_API_KEYS_FILE` (for secrets mounted as files),
 * plus the single-tenant `HINDSIGHT_API_KEY` (or the key alone in the file `HINDSIGHT_API_KEY_FILE`,
 * a Docker secret), which belongs to the default tenant. A key may
 * also be bound to one agent of its tenant, `key:tenant/agent`: its requests act as that agent
 * (see agent-scope). Keys are kept only as SHA-256 digests.
 */
import { createHash } from "node:crypto";
import { TenantName } from "../config/schema.js";
import { ErrorCode, HindsightError } from "../core/errors.js";
import { DEFAULT_TENANT } from "./tenant.js";

/** Whom a key lets in: a tenant's operator, or one agent of the tenant. */
export interface KeyHolder {
  tenant: string;
  /** Requests with this key act as this agent only; absent for an operator key. */
  agent?: string;
}

/** Digest of a key → its holder. */
export type ApiKeyTable = ReadonlyMap<string, KeyHolder>;

/** Agent ids in key entries: what the entry syntax leaves unambiguous. */
const AGENT = /^[^\s,:/]{1,256}$/u;

export function keyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function configError(source: string, message: string): HindsightError {
  return new HindsightError(ErrorCode.CONFIG_INVALID, `${source}: ${message}`, { field: source });
}

/**
 * Parses `key:tenant` and `key:tenant/agent` entries separated by commas or new lines; `#`
 * starts a comment line.
 */
export function parseApiKeys(text: string, source: string, into = new Map<string, KeyHolder>()) {
  const entries = text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "" && !entry.startsWith("#"));
  for (const [index, entry] of entries.entries()) {
    const colon = entry.lastIndexOf(":");
    const key = entry.slice(0, colon).trim();
    const [tenant = "", agent, ...rest] = entry
      .slice(colon + 1)
      .trim()
      .split("/");
    if (colon <= 0 || key === "" || /\s/.test(key) || rest.length > 0) {
      throw configError(source, `entry ${index + 1} is not 'key:tenant' or 'key:tenant/agent'`);
    }
    const name = TenantName.safeParse(tenant);
    if (!name.success) {
      throw configError(
        source,
        `entry ${index + 1}: tenant '${tenant}' ${name.error.issues[0]?.message}`,
      );
    }
    if (agent !== undefined && !AGENT.test(agent)) {
      throw configError(
        source,
        `entry ${index + 1}: agent '${agent}' is empty or holds / , : or spaces`,
      );
    }
    const holder: KeyHolder = agent === undefined ? { tenant } : { tenant, agent };
    const digest = keyDigest(key);
    const existing = into.get(digest);
    if (existing !== undefined && describe(existing) !== describe(holder)) {
      throw configError(
        source,
        `entry ${index + 1}: the same key is given to '${describe(existing)}' and '${describe(holder)}'`,
      );
    }
    into.set(digest, holder);
  }
  return into;
}

const describe = (holder: KeyHolder) =>
  holder.agent === undefined ? holder.tenant : `${holder.tenant}/${holder.agent}`;

/**
 * The key table from the environment, or undefined when no key is configured (then no key is
 * asked for). `readFile` is injected: only entry points touch the file system for config.
 */
export function apiKeysFromEnv(
  env: Record<string, string | undefined>,
  readFile: (path: string) => string,
): ApiKeyTable | undefined {
  const table = new Map<string, KeyHolder>();
  const single = env.HINDSIGHT_API_KEY?.trim();
  if (single) table.set(keyDigest(single), { tenant: DEFAULT_TENANT });
  const singleFile = fileOf(env, "HINDSIGHT_API_KEY_FILE", readFile)?.trim();
  if (singleFile) {
    // One key, as HINDSIGHT_API_KEY takes it; a trailing newline (echo, an editor) is not part of it.
    if (/\s/.test(singleFile)) {
      throw configError(
        "HINDSIGHT_API_KEY_FILE",
        "holds more than one word; it takes one key (HINDSIGHT_API_KEYS_FILE takes 'key:tenant' lines)",
      );
    }
    table.set(keyDigest(singleFile), { tenant: DEFAULT_TENANT });
  }
  if (env.HINDSIGHT_API_KEYS?.trim())
    parseApiKeys(env.HINDSIGHT_API_KEYS, "HINDSIGHT_API_KEYS", table);
  const pairs = fileOf(env, "HINDSIGHT_API_KEYS_FILE", readFile);
  if (pairs !== undefined) parseApiKeys(pairs, "HINDSIGHT_API_KEYS_FILE", table);
  return table.size > 0 ? table : undefined;
}

/** The text of the file a `…_FILE` variable names, or undefined when it names none. */
function fileOf(
  env: Record<string, string | undefined>,
  name: string,
  readFile: (path: string) => string,
): string | undefined {
  const file = env[name]?.trim();
  if (!file) return undefined;
  try {
    return readFile(file);
  } catch (error) {
    throw configError(name, `cannot read ${file}: ${(error as Error).message}`);
  }
}
