/**
 * The container deployment, checked without a Docker engine: docker-compose.yml against the
 * Compose Specification's JSON schema and against what users rely on (service names, health,
 * a loopback-only port, named volumes), the Dockerfile against CI's build commands, and the
 * .dockerignore allow-list against the files the Dockerfile copies.
 *
 * test/fixtures/compose-spec.json is the official Compose Specification schema
 * (github.com/compose-spec/compose-spec, schema/compose-spec.json; Apache-2.0, "Copyright 2020
 * The Compose Specification Authors"), taken from the npm package dclint@3.1.0
 * (schemas/compose.schema.json) and reformatted by Biome; see test/fixtures/README.md.
 *
 * Booting both for real is `npm run test:deploy` (scripts/test-deploy.sh), not part of this.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type AnySchemaObject } from "ajv";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { hnswBuildBytes } from "../src/adapters/storage/vector-index.js";
import { configFromEnv } from "../src/config/env.js";
import { HindsightConfig } from "../src/config/schema.js";
import { apiKeysFromEnv, keyDigest } from "../src/tenants/api-keys.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

type Env = Record<string, string | undefined>;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

/** Compose interpolation: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, :? ? :+ +. */
function interpolate(value: string, env: Env): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, braced?: string, colon?: string, op?: string, arg = "", bare?: string) => {
      if (match === "$$") return "$";
      const name = (braced ?? bare) as string;
      const current = env[name];
      const unset = current === undefined || (colon === ":" && current === "");
      if (op === "-") return unset ? arg : (current as string);
      if (op === "+") return unset ? "" : arg;
      if (op === "?" && unset) throw new Error(`required variable ${name}: ${arg}`);
      return current ?? "";
    },
  );
}

function interpolateAll(value: Json, env: Env): Json {
  if (typeof value === "string") return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)]));
  }
  return value;
}

interface Healthcheck {
  test: string[] | string;
  interval?: string;
  timeout?: string;
  retries?: number;
  start_period?: string;
  start_interval?: string;
}
interface ServiceSecret {
  source: string;
  target?: string;
  mode?: number | string;
}
interface Service {
  image?: string;
  build?: string | { context: string; args?: Record<string, string> };
  command?: string[] | string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: Healthcheck;
  restart?: string;
  stop_signal?: string;
  stop_grace_period?: string;
  shm_size?: string;
  secrets?: (string | ServiceSecret)[];
}
interface Compose {
  name: string;
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  secrets?: Record<string, { environment?: string; file?: string }>;
}

const COMPOSE_TEXT = read("docker-compose.yml");
/** For engines that refuse start_interval (Docker < 25, podman): merged over the main file. */
const OLDER_ENGINES_TEXT = read("docker-compose.older-engines.yml");

/** Compose's `!reset` (an override removing an attribute), as a marker the merge acts on. */
const RESET = "\u0000reset";
const resetTag = {
  tag: "!reset",
  resolve: () => RESET,
};

function parseYaml(text: string): Json {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, customTags: [resetTag] });
  expect(doc.errors, String(doc.errors)).toEqual([]);
  expect(doc.warnings, String(doc.warnings)).toEqual([]);
  return doc.toJS() as Json;
}

function loadComposeRaw(): Json {
  return parseYaml(COMPOSE_TEXT);
}

/** Compose's merge of an override file: mappings merge key by key, `!reset` removes, the rest replaces. */
function mergeCompose(base: Json, override: Json): Json {
  if (
    base === null ||
    override === null ||
    typeof base !== "object" ||
    typeof override !== "object" ||
    Array.isArray(base) ||
    Array.isArray(override)
  ) {
    return override;
  }
  const merged: Record<string, Json> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === RESET) delete merged[key];
    else merged[key] = key in merged ? mergeCompose(merged[key]!, value) : value;
  }
  return merged;
}

/** The file as Compose sees it with the given environment (nothing set by default). */
function loadCompose(env: Env = {}, { olderEngines = false } = {}): Compose {
  const raw = olderEngines
    ? mergeCompose(loadComposeRaw(), parseYaml(OLDER_ENGINES_TEXT))
    : loadComposeRaw();
  return interpolateAll(raw, env) as unknown as Compose;
}

/** Compose durations as this file writes them (1s, 30s, 1m30s) in milliseconds. */
function durationMs(value: string | undefined): number {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(value ?? "");
  if (!value || !match) throw new Error(`not a duration: ${value}`);
  return (Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0)) * 1000;
}

/** An image variable's default in the raw file: `${NAME:-default}`. */
function imageDefault(variable: string): string {
  const match = new RegExp(`\\$\\{${variable}:-([^}]+)\\}`).exec(COMPOSE_TEXT);
  if (!match) throw new Error(`docker-compose.yml has no \${${variable}:-…}`);
  return match[1]!;
}
const DIGEST = "(?:@sha256:[0-9a-f]{64})?";

function service(compose: Compose, name: string): Service {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service '${name}'`);
  return found;
}

/** Short volume syntax: `source:target[:mode]`; a source without '/' or '.' is a named volume. */
function mounts(svc: Service): { source: string; target: string; named: boolean }[] {
  return (svc.volumes ?? []).map((spec) => {
    const [source = "", target = ""] = spec.split(":");
    return { source, target, named: !/^[./~]/.test(source) };
  });
}

function testArgs(check: Healthcheck | undefined): string[] {
  if (!check) throw new Error("no healthcheck");
  return typeof check.test === "string" ? ["CMD-SHELL", check.test] : check.test;
}

const COMPOSE_SCHEMA = JSON.parse(read("test/fixtures/compose-spec.json")) as AnySchemaObject;
/** sha256 of JSON.stringify(JSON.parse(file)): the vendored file is unchanged JSON. */
const COMPOSE_SCHEMA_SHA256 = "b2dc5daa8ce86f3b6a82dfe17afa0b5428b21d51a18bfb6e1ef304cf88e933ae";

function composeValidator() {
  // The schema declares draft-07 (as https://json-schema.org/draft-07/schema), which is what
  // Ajv's default class implements; register draft-07's meta-schema under that spelling too.
  const require = createRequire(import.meta.url);
  const draft07 = JSON.parse(
    readFileSync(require.resolve("ajv/dist/refs/json-schema-draft-07.json"), "utf8"),
  ) as AnySchemaObject;
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  ajv.addMetaSchema({ ...draft07, $id: COMPOSE_SCHEMA.$schema as string });
  expect(ajv.validateSchema(COMPOSE_SCHEMA), ajv.errorsText()).toBe(true);
  return ajv.compile(COMPOSE_SCHEMA);
}

describe("docker-compose.yml", () => {
  it("is plain YAML with the project name hindsight and no variable left unresolved", () => {
    const compose = loadCompose();
    expect(compose.name).toBe("hindsight");
    expect(JSON.stringify(compose)).not.toMatch(/\$\{?[A-Za-z_]/);
    expect(Object.keys(compose.services).sort()).toEqual(["hindsight", "postgres", "redis"]);
  });

  it("the vendored schema is the official Compose Specification, draft-07", () => {
    const canonical = JSON.stringify(COMPOSE_SCHEMA);
    expect(createHash("sha256").update(canonical).digest("hex")).toBe(COMPOSE_SCHEMA_SHA256);
    expect(COMPOSE_SCHEMA.$id).toBe("compose_spec.json");
    expect(COMPOSE_SCHEMA.title).toBe("Compose Specification");
    // Ajv's default class is draft-07; a 2019-09 or 2020-12 schema would need Ajv2019/Ajv2020.
    expect(COMPOSE_SCHEMA.$schema).toMatch(/json-schema\.org\/draft-07\/schema#?$/);
  });

  it("validates against the Compose Specification schema, before and after interpolation", () => {
    const validate = composeValidator();
    for (const document of [
      loadComposeRaw(),
      loadCompose() as unknown as Json,
      loadCompose({ HINDSIGHT_PORT: "18080", HINDSIGHT_API_KEY: "k" }) as unknown as Json,
      loadCompose({}, { olderEngines: true }) as unknown as Json,
    ]) {
      const valid = validate(document);
      expect(valid, JSON.stringify(validate.errors, null, 2)).toBe(true);
    }
  });

  it("the schema check is live: a misspelt key or a bad condition is rejected", () => {
    const validate = composeValidator();
    const misspelt = loadCompose() as unknown as { services: Record<string, Json> };
    misspelt.services.hindsight = { ...(misspelt.services.hindsight as object), helthcheck: {} };
    expect(validate(misspelt)).toBe(false);
    const badCondition = loadCompose();
    service(badCondition, "hindsight").depends_on = { postgres: { condition: "healthy" } };
    expect(validate(badCondition)).toBe(false);
  });

  it("pins the seed design's images to exact releases, each overridable, and builds hindsight here", () => {
    const compose = loadCompose();
    // pgvector's release is the one the host's tests use (scripts/install-pgvector.sh).
    const pgvector = /PGVECTOR_VERSION:-(\d+\.\d+\.\d+)-/.exec(
      read("scripts/install-pgvector.sh"),
    )?.[1];
    expect(pgvector).toBeDefined();
    expect(service(compose, "postgres").image).toMatch(
      new RegExp(`^pgvector/pgvector:${pgvector!.replace(/\./g, "\\.")}-pg16${DIGEST}$`),
    );
    expect(service(compose, "redis").image).toMatch(
      new RegExp(`^redis:7\\.\\d+\\.\\d+-alpine${DIGEST}$`),
    );
    const { build } = service(compose, "hindsight");
    expect(typeof build === "string" ? build : build?.context).toBe(".");
    // The Node image: the Dockerfile's own default, passed as its build argument.
    const args = typeof build === "string" ? {} : (build?.args ?? {});
    expect(args.NODE_IMAGE).toBe(DOCKERFILE.globalArgs.NODE_IMAGE);
    expect(imageDefault("HINDSIGHT_NODE_IMAGE")).toBe(DOCKERFILE.globalArgs.NODE_IMAGE);

    // Every image can be replaced (a mirror, a stand-in, a newer release) without editing.
    const replaced = loadCompose({
      HINDSIGHT_POSTGRES_IMAGE: "registry.example/pgvector:x",
      HINDSIGHT_REDIS_IMAGE: "registry.example/redis:x",
      HINDSIGHT_NODE_IMAGE: "registry.example/node:x",
    });
    expect(service(replaced, "postgres").image).toBe("registry.example/pgvector:x");
    expect(service(replaced, "redis").image).toBe("registry.example/redis:x");
    const rebuilt = service(replaced, "hindsight").build;
    expect(typeof rebuilt === "object" && rebuilt.args?.NODE_IMAGE).toBe("registry.example/node:x");
    // Nothing floats: no image is named by a bare major or a moving tag.
    for (const image of [
      imageDefault("HINDSIGHT_POSTGRES_IMAGE"),
      imageDefault("HINDSIGHT_REDIS_IMAGE"),
      imageDefault("HINDSIGHT_NODE_IMAGE"),
    ]) {
      expect(image).toMatch(new RegExp(`:\\d+\\.\\d+\\.\\d+-[a-z0-9-]+${DIGEST}$`));
    }
  });

  it("npm run test:deploy boots these files with the boot script's stand-ins, outside npm test", () => {
    const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(pkg.scripts["test:deploy"]).toBe("bash scripts/test-deploy.sh");
    expect(pkg.scripts.test).toBe("vitest run");
    expect(`${pkg.scripts.pretest} ${read("vitest.config.ts")}`).not.toMatch(/test-deploy/);
    const script = read("scripts/test-deploy.sh");
    expect(script).toMatch(/HINDSIGHT_BOOT_COMPOSE:-\$ROOT\/\.\.\/shared\/tools\/boot-compose\.sh/);
    // boot-compose.sh builds its stand-ins under these names; every image variable is set.
    const variables = [...COMPOSE_TEXT.matchAll(/\$\{(HINDSIGHT_\w+_IMAGE):-/g)].map((m) => m[1]);
    expect(variables.sort()).toEqual([
      "HINDSIGHT_NODE_IMAGE",
      "HINDSIGHT_POSTGRES_IMAGE",
      "HINDSIGHT_REDIS_IMAGE",
    ]);
    expect(script).toContain("NODE_STANDIN=docker.io/library/node:20-bookworm-slim");
    expect(script).toContain('export HINDSIGHT_NODE_IMAGE="$NODE_STANDIN"');
    expect(script).toContain("export HINDSIGHT_POSTGRES_IMAGE=docker.io/pgvector/pgvector:pg16");
    expect(script).toContain("export HINDSIGHT_REDIS_IMAGE=docker.io/library/redis:7-alpine");
    // The stand-in holds the Dockerfile's Node, read from its ARG; podman needs the older-engine file.
    expect(script).toMatch(/sed -n 's\/\^ARG NODE_IMAGE=\/\/p'/);
    expect(script).toContain("docker-compose.yml:docker-compose.older-engines.yml");
  });

  it("DATABASE_URL and REDIS_URL name services (not localhost) and match their settings", () => {
    const envs: Env[] = [{}, { POSTGRES_PASSWORD: "s3cret" }];
    for (const env of envs) {
      const compose = loadCompose(env);
      const vars = service(compose, "hindsight").environment ?? {};
      const postgres = service(compose, "postgres").environment ?? {};
      expect(JSON.stringify(vars)).not.toMatch(/localhost|127\.0\.0\.1|::1/);

      const db = new URL(vars.DATABASE_URL ?? "");
      expect(db.protocol).toBe("postgres:");
      expect(Object.keys(compose.services)).toContain(db.hostname);
      expect(db.hostname).toBe("postgres");
      expect(db.port).toBe("5432");
      expect(decodeURIComponent(db.username)).toBe(postgres.POSTGRES_USER);
      expect(decodeURIComponent(db.password)).toBe(postgres.POSTGRES_PASSWORD);
      expect(db.pathname).toBe(`/${postgres.POSTGRES_DB}`);
      if (env.POSTGRES_PASSWORD) expect(postgres.POSTGRES_PASSWORD).toBe(env.POSTGRES_PASSWORD);

      const redis = new URL(vars.REDIS_URL ?? "");
      expect(redis.protocol).toBe("redis:");
      expect(Object.keys(compose.services)).toContain(redis.hostname);
      expect(redis.hostname).toBe("redis");
      expect(redis.port).toBe("6379");
    }
  });

  it("hindsight's environment is accepted by hindsight's own configuration", () => {
    const vars = service(loadCompose(), "hindsight").environment ?? {};
    const config = HindsightConfig.parse(configFromEnv(vars));
    expect(config.databaseUrl).toBe(vars.DATABASE_URL);
    expect(config.embedder.kind).toBe("local"); // the default model, inside the image
    const openai = service(loadCompose({ HINDSIGHT_EMBEDDER: "openai" }), "hindsight");
    expect(HindsightConfig.parse(configFromEnv(openai.environment ?? {})).embedder.kind).toBe(
      "openai",
    );
  });

  it("the API key is a secret made from HINDSIGHT_API_KEY: a file for the server, not in its environment", () => {
    const compose = loadCompose({ HINDSIGHT_API_KEY: "k-123" });
    // Compose takes the secret's text from HINDSIGHT_API_KEY (shell or .env) when it creates
    // the container, and copies it to /run/secrets/<source>.
    expect(compose.secrets?.["hindsight-api-key"]).toEqual({ environment: "HINDSIGHT_API_KEY" });
    const hindsight = service(compose, "hindsight");
    const granted = (hindsight.secrets ?? []).map((secret) =>
      typeof secret === "string" ? { source: secret } : secret,
    );
    expect(granted.map((secret) => secret.source)).toEqual(["hindsight-api-key"]);
    const path = granted[0]!.target ?? `/run/secrets/${granted[0]!.source}`;
    const vars = hindsight.environment ?? {};
    expect(vars.HINDSIGHT_API_KEY_FILE).toBe(path);
    // No key in the container's configuration, so none in `docker inspect`.
    expect(vars.HINDSIGHT_API_KEY).toBeUndefined();
    expect(vars.HINDSIGHT_API_KEYS).toBeUndefined();
    expect(JSON.stringify(hindsight)).not.toContain("k-123");
    // The server (uid 1000) can read it: 0444 (Compose's default for secrets was 0400, root's).
    expect(COMPOSE_TEXT).toMatch(/- source: hindsight-api-key\n\s+#[^\n]*\n\s+mode: 0444\n/);
    // And serve takes it as the default tenant's key, the file's newline not part of it.
    const keys = apiKeysFromEnv(vars, (file) => {
      if (file !== path) throw new Error(`ENOENT ${file}`);
      return "k-123\n";
    });
    expect(keys && Object.fromEntries(keys)).toEqual({
      [keyDigest("k-123")]: { tenant: "default" },
    });
    // Empty on purpose: no key asked for (serve warns about it).
    expect(apiKeysFromEnv(vars, () => "")).toBeUndefined();
  });

  it("other containers may call hindsight by its service name (serve's Host check)", () => {
    const vars = service(loadCompose(), "hindsight").environment ?? {};
    expect(vars.HINDSIGHT_ALLOWED_HOSTS?.split(",")).toContain("hindsight");
    expect(vars.HINDSIGHT_ALLOWED_ORIGINS).toBe("");
    const proxied = loadCompose({ HINDSIGHT_ALLOWED_HOSTS: "hindsight,memory.example.com" });
    expect(service(proxied, "hindsight").environment?.HINDSIGHT_ALLOWED_HOSTS).toBe(
      "hindsight,memory.example.com",
    );
  });

  it("every depends_on waits for a healthy service that exists and has a healthcheck", () => {
    const compose = loadCompose();
    expect(Object.keys(service(compose, "hindsight").depends_on ?? {}).sort()).toEqual([
      "postgres",
      "redis",
    ]);
    for (const svc of Object.values(compose.services)) {
      for (const [name, dependency] of Object.entries(svc.depends_on ?? {})) {
        expect(dependency.condition).toBe("service_healthy");
        expect(service(compose, name).healthcheck).toBeDefined();
      }
    }
  });

  it("publishes hindsight on 127.0.0.1 only by default; HINDSIGHT_PORT moves the host port", () => {
    expect(service(loadCompose(), "hindsight").ports).toEqual(["127.0.0.1:8080:8080"]);
    expect(service(loadCompose({ HINDSIGHT_PORT: "18080" }), "hindsight").ports).toEqual([
      "127.0.0.1:18080:8080",
    ]);
    expect(service(loadCompose(), "postgres").ports).toBeUndefined();
    expect(service(loadCompose(), "redis").ports).toBeUndefined();
  });

  it("keeps data in declared named volumes at each image's data directory", () => {
    const compose = loadCompose();
    const declared = Object.keys(compose.volumes ?? {});
    for (const svc of Object.values(compose.services)) {
      for (const mount of mounts(svc)) {
        expect(mount.named, `${mount.source} is a bind mount`).toBe(true);
        expect(declared).toContain(mount.source);
      }
    }
    const targets = (name: string) => mounts(service(compose, name)).map((m) => m.target);
    expect(targets("postgres")).toEqual(["/var/lib/postgresql/data"]);
    expect(targets("redis")).toEqual(["/data"]);
    expect(declared.sort()).toEqual(["postgres-data", "redis-data"]);
  });

  it("creates no hindsight-data volume: with DATABASE_URL the memories are in postgres-data", () => {
    const compose = loadCompose();
    const hindsight = service(compose, "hindsight");
    expect(hindsight.environment?.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(hindsight.volumes).toBeUndefined();
    expect(Object.keys(compose.volumes ?? {})).not.toContain("hindsight-data");
    // Nor an anonymous one at run time: the image declares no VOLUME.
    for (const stage of DOCKERFILE.stages) expect(all(stage, "VOLUME")).toEqual([]);
  });

  it("postgres and redis stop cleanly: their own stop signals, and time to use them", () => {
    const compose = loadCompose();
    const postgres = service(compose, "postgres");
    const redis = service(compose, "redis");
    // PostgreSQL's fast shutdown (SIGINT: disconnect, checkpoint, exit; no crash recovery on the
    // next start), as the official image's STOPSIGNAL; Redis saves and exits on SIGTERM.
    expect(postgres.stop_signal).toBe("SIGINT");
    expect(redis.stop_signal).toBe("SIGTERM");
    // Compose's default is 10 s, then SIGKILL.
    expect(durationMs(postgres.stop_grace_period)).toBeGreaterThanOrEqual(30_000);
    expect(durationMs(redis.stop_grace_period)).toBeGreaterThanOrEqual(15_000);
    expect(durationMs(service(compose, "hindsight").stop_grace_period)).toBeGreaterThanOrEqual(
      10_000,
    );
  });

  it("gives postgres shared memory for a parallel vector index build of reembed's size", () => {
    // Containers get 64 MB of /dev/shm; a parallel HNSW build takes maintenance_work_mem from
    // it, and reembed's switch sets that to the index's size, up to hnswBuildBytes' cap.
    const size = service(loadCompose(), "postgres").shm_size ?? "64m";
    const match = /^(\d+)([mg])$/.exec(size);
    expect(match, `shm_size ${size}`).not.toBeNull();
    const bytes = Number(match![1]) * 2 ** (match![2] === "g" ? 30 : 20);
    expect(bytes).toBeGreaterThan(hnswBuildBytes(Number.MAX_SAFE_INTEGER, 384) * 1.5);
  });

  it("every service has a healthcheck and a restart policy", () => {
    const compose = loadCompose();
    for (const [name, svc] of Object.entries(compose.services)) {
      expect(testArgs(svc.healthcheck).length, name).toBeGreaterThan(1);
      expect(["CMD", "CMD-SHELL"]).toContain(testArgs(svc.healthcheck)[0]);
      expect(svc.restart, name).toBe("unless-stopped");
    }
  });

  it("postgres is probed with pg_isready for its own user and database", () => {
    const postgres = service(loadCompose(), "postgres");
    const args = testArgs(postgres.healthcheck);
    expect(args.slice(0, 2)).toEqual(["CMD", "pg_isready"]);
    expect(args[args.indexOf("-U") + 1]).toBe(postgres.environment?.POSTGRES_USER);
    expect(args[args.indexOf("-d") + 1]).toBe(postgres.environment?.POSTGRES_DB);
  });

  it("redis persists with AOF and is probed with redis-cli ping", () => {
    const redis = service(loadCompose(), "redis");
    expect(redis.command).toEqual(["redis-server", "--appendonly", "yes"]);
    expect(testArgs(redis.healthcheck).join(" ")).toMatch(/redis-cli ping/);
  });

  it("hindsight's healthcheck is the image's: GET /health with node's fetch", () => {
    const args = testArgs(service(loadCompose(), "hindsight").healthcheck);
    expect(args).toEqual(healthcheckCommand());
    expect(args.join(" ")).toContain("http://127.0.0.1:8080/health");
  });

  it("hindsight reports healthy within seconds of listening: a start interval, or a short interval", () => {
    const check = service(loadCompose(), "hindsight").healthcheck!;
    // Docker Engine 25+: every second during the start period, until the first success.
    expect(durationMs(check.start_interval)).toBeLessThanOrEqual(2_000);
    // The start period covers loading the model and serve's wait for PostgreSQL.
    expect(durationMs(check.start_period)).toBeGreaterThanOrEqual(30_000);
    expect(durationMs(check.interval)).toBeGreaterThan(durationMs(check.start_interval));

    // Older engines refuse start_interval; their override removes it and checks every 5 s.
    const older = service(loadCompose({}, { olderEngines: true }), "hindsight").healthcheck!;
    expect(older.start_interval).toBeUndefined();
    expect(durationMs(older.interval)).toBeLessThanOrEqual(5_000);
    expect(testArgs(older)).toEqual(testArgs(check));
    expect(older.start_period).toBe(check.start_period);
    expect(Object.keys(parseYaml(OLDER_ENGINES_TEXT) as object)).toEqual(["services"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Dockerfile

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}
interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Enough of the Dockerfile grammar for this file: comments, `\` continuations, stages. */
function parseDockerfile(text: string): { globalArgs: Record<string, string>; stages: Stage[] } {
  const instructions: Instruction[] = [];
  let pending = "";
  let start = 0;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line.startsWith("#") || (line === "" && pending === "")) return;
    if (pending === "") start = index + 1;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1)} `;
      return;
    }
    const full = `${pending}${line}`.trim();
    pending = "";
    const match = /^(\S+)\s*(.*)$/s.exec(full);
    if (match)
      instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!, line: start });
  });
  expect(pending, "unterminated continuation").toBe("");

  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const words = instruction.args.split(/\s+/).filter((w) => !w.startsWith("--"));
      const image = (words[0] ?? "").replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => {
        const value = globalArgs[a ?? b];
        if (value === undefined) throw new Error(`FROM uses undeclared ARG ${a ?? b}`);
        return value;
      });
      const as = words.findIndex((w) => w.toUpperCase() === "AS");
      stages.push({ image, name: as === -1 ? undefined : words[as + 1], instructions: [] });
    } else if (stages.length === 0) {
      expect(instruction.keyword, "only ARG may precede FROM").toBe("ARG");
      const [name = "", value = ""] = instruction.args.split("=");
      globalArgs[name] = value;
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

const DOCKERFILE = parseDockerfile(read("Dockerfile"));

function stageNamed(name: string): Stage {
  const found = DOCKERFILE.stages.find((s) => s.name === name);
  if (!found) throw new Error(`Dockerfile has no stage '${name}'`);
  return found;
}
function finalStage(): Stage {
  return DOCKERFILE.stages.at(-1)!;
}
function all(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((i) => i.keyword === keyword);
}
/** RUN's shell command, without BuildKit flags such as --mount=type=cache,target=... */
function runCommand(instruction: Instruction): string {
  return instruction.args.replace(/^(--\S+\s+)+/, "").replace(/\s+/g, " ");
}
/** The top-level commands of a RUN (split at `;`), without its leading `set -eu`. */
function commands(instruction: Instruction): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of runCommand(instruction)) {
    if (char === "{") depth++;
    if (char === "}") depth--;
    if (char === ";" && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current.trim());
  return parts.filter((part) => part !== "" && part !== "set -eu");
}
function execForm(args: string): string[] {
  expect(args.trim().startsWith("["), `not exec form: ${args}`).toBe(true);
  return JSON.parse(args) as string[];
}
function dockerfileEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of all(stage, "ENV")) {
    for (const [, name, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) {
      env[name!] = value!.replace(/^"|"$/g, "");
    }
  }
  return env;
}
function healthcheckCommand(): string[] {
  const [check] = all(finalStage(), "HEALTHCHECK");
  if (!check) throw new Error("the final stage has no HEALTHCHECK");
  const cmd = /(?:^|\s)CMD\s+(.*)$/s.exec(check.args);
  expect(cmd, "HEALTHCHECK CMD").not.toBeNull();
  return ["CMD", ...execForm(cmd![1]!)];
}
/** Sources of COPY instructions that read the build context (not --from another stage). */
function contextCopies(stage: Stage): string[] {
  return all(stage, "COPY")
    .filter((i) => !/--from=/.test(i.args))
    .flatMap((i) => {
      const words = i.args.split(/\s+/).filter((w) => !w.startsWith("--"));
      return words.slice(0, -1);
    });
}
/** Index of the first instruction whose text matches. */
function indexOf(stage: Stage, keyword: string, pattern: RegExp): number {
  return stage.instructions.findIndex((i) => i.keyword === keyword && pattern.test(i.args));
}

describe("Dockerfile", () => {
  const pkg = JSON.parse(read("package.json")) as {
    scripts: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  const ciRun = read(".ci/run");
  const ciInstall = /^\s*(npm ci\b.*)$/m.exec(ciRun)?.[1]?.trim();

  it("is multi-stage on an exact Node LTS release (24): build, then runtime", () => {
    expect(DOCKERFILE.stages.map((s) => s.name)).toEqual(["build", "runtime"]);
    const image = DOCKERFILE.globalArgs.NODE_IMAGE!;
    // Node 20 reached end of life on 2026-04-30; 24 is an LTS line (even, past its October).
    expect(image).toMatch(new RegExp(`^node:24\\.\\d+\\.\\d+-bookworm-slim${DIGEST}$`));
    for (const stage of DOCKERFILE.stages) expect(stage.image).toBe(image);
    // The code itself still supports Node 20 (this machine's, and the package's floor).
    expect((pkg as { engines?: { node?: string } }).engines?.node).toBe(">=20");
  });

  it("every RUN stops at its first failing command, and npm ci's result is checked at once", () => {
    for (const stage of DOCKERFILE.stages) {
      for (const run of all(stage, "RUN")) {
        expect(runCommand(run), `line ${run.line}`).toMatch(/^set -eu; /);
      }
    }
    // The build tools are there right after npm ci (a failed install broke the build two
    // steps later with a misleading `tsc: not found`).
    const install = all(stageNamed("build"), "RUN").find((run) => /npm ci/.test(run.args))!;
    expect(commands(install)).toEqual([ciInstall, "node_modules/.bin/tsc --version"]);
    const runtime = all(finalStage(), "RUN").find((run) => /npm ci/.test(run.args))!;
    expect(commands(runtime).at(-1)).toBe("test -f node_modules/pg/package.json");
  });

  it("takes a CA for a TLS-intercepting proxy (EXTRA_CA_CERTS) for the build's downloads only", () => {
    expect(DOCKERFILE.globalArgs.EXTRA_CA_CERTS).toBe('""');
    for (const stage of DOCKERFILE.stages) {
      expect(all(stage, "ARG").map((i) => i.args)).toContain("EXTRA_CA_CERTS");
    }
    // The build stage trusts it through NODE_EXTRA_CA_CERTS (npm, the model fetch, pip), set
    // before npm ci; the runtime stage only for its npm ci, and its image not at all.
    const build = stageNamed("build");
    expect(dockerfileEnv(build).NODE_EXTRA_CA_CERTS).toBe(
      "/usr/local/share/hindsight-build-ca.pem",
    );
    expect(indexOf(build, "ENV", /NODE_EXTRA_CA_CERTS=/)).toBeLessThan(
      indexOf(build, "RUN", /npm ci/),
    );
    expect(dockerfileEnv(finalStage()).NODE_EXTRA_CA_CERTS).toBeUndefined();
    const runtimeInstall = all(finalStage(), "RUN").find((run) => /npm ci/.test(run.args))!;
    expect(runCommand(runtimeInstall)).toMatch(
      /export NODE_EXTRA_CA_CERTS=.*npm ci .*rm -f \/tmp\/hindsight-build-ca\.pem/,
    );
    // Compose passes it from HINDSIGHT_BUILD_CA_CERTS.
    const { build: composeBuild } = service(
      loadCompose({ HINDSIGHT_BUILD_CA_CERTS: "-----BEGIN CERTIFICATE-----" }),
      "hindsight",
    );
    expect(typeof composeBuild === "object" && composeBuild.args?.EXTRA_CA_CERTS).toBe(
      "-----BEGIN CERTIFICATE-----",
    );
  });

  it("builds with the commands CI runs: .ci/run's npm ci, then npm run build", () => {
    // CI: .ci/run runs `npm ci …` then `npm test`, whose pretest is `npm run build` (and a
    // type check of the tests, which the image does not need).
    expect(ciInstall).toBe("npm ci --no-audit --no-fund");
    expect(ciRun).toMatch(/^\s*npm test\s*$/m);
    expect(pkg.scripts.pretest).toBe("npm run build && npm run typecheck");
    expect(pkg.scripts.build).toBe(
      "tsc -p tsconfig.build.json && tsc -p ui/tsconfig.json && node scripts/build-ui.mjs && node scripts/bundle-cli.mjs",
    );

    const build = stageNamed("build");
    const runs = all(build, "RUN")
      .map((run) => commands(run)[0]!)
      .filter(
        (run) =>
          !run.startsWith("apt-get") &&
          !run.startsWith("node scripts/fetch-model") &&
          !run.startsWith("ca="),
      );
    expect(runs).toEqual([ciInstall, "npm run build"]);
    // The lockfile and .npmrc (onnxruntime's skip) are in place before npm ci; sources before tsc.
    const install = indexOf(build, "RUN", /npm ci/);
    expect(indexOf(build, "COPY", /package-lock\.json/)).toBeLessThan(install);
    expect(indexOf(build, "COPY", /\.npmrc/)).toBeLessThan(install);
    expect(indexOf(build, "COPY", /^src\s/)).toBeGreaterThan(install);
    expect(indexOf(build, "COPY", /tsconfig\.build\.json/)).toBeLessThan(
      indexOf(build, "RUN", /npm run build/),
    );
  });

  it("skips onnxruntime's GPU download wherever npm ci runs", () => {
    expect(read(".npmrc")).toMatch(/^onnxruntime-node-install=skip$/m);
    for (const stage of DOCKERFILE.stages) {
      expect(dockerfileEnv(stage).ONNXRUNTIME_NODE_INSTALL).toBe("skip");
      expect(contextCopies(stage)).toContain(".npmrc");
    }
  });

  it("the runtime stage installs production dependencies only, and holds the default model", () => {
    const runtime = finalStage();
    const install = all(runtime, "RUN")
      .flatMap(commands)
      .find((c) => c.startsWith("npm ci"));
    expect(install).toBe("npm ci --omit=dev --no-audit --no-fund");
    // The default embedder's runtime is a production dependency, not an optional one.
    expect(pkg.optionalDependencies).toBeUndefined();
    const copies = all(runtime, "COPY").map((i) => i.args);
    expect(copies).toContain("--from=build /app/dist ./dist");
    // hindsight looks for the default model in the package's .cache/models.
    expect(copies).toContain("--from=build /app/.cache/models ./.cache/models");
    expect(copies.some((args) => /\bsrc\b/.test(args))).toBe(false);
  });

  it("fetches the model in the build stage with the pinned fetch script, before the sources", () => {
    const build = stageNamed("build");
    const fetch = indexOf(
      build,
      "RUN",
      /node scripts\/fetch-model\.mjs --out \/app\/\.cache\/models/,
    );
    expect(fetch).toBeGreaterThan(indexOf(build, "RUN", /npm ci/));
    expect(fetch).toBeGreaterThan(indexOf(build, "RUN", /apt-get install .*python3-venv/));
    expect(fetch).toBeGreaterThan(indexOf(build, "COPY", /scripts\/calibration\//));
    // The fetch derives the tokenizer's vocabulary with this module (fetch-model.mjs).
    expect(fetch).toBeGreaterThan(indexOf(build, "COPY", /unigram-vocabulary\.mjs/));
    expect(fetch).toBeLessThan(indexOf(build, "COPY", /^src\s/));
  });

  it("runs as a non-root user", () => {
    const users = all(finalStage(), "USER");
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.args.trim();
    expect(user.split(":")[0]).not.toMatch(/^(root|0)$/);
    // Nothing runs as root after the switch.
    const last = finalStage().instructions.lastIndexOf(users.at(-1)!);
    expect(
      finalStage()
        .instructions.slice(last)
        .some((i) => i.keyword === "RUN"),
    ).toBe(false);
  });

  it("keeps the embedded store in /data, owned by the server's user, and exposes 8080", () => {
    const runtime = finalStage();
    expect(dockerfileEnv(runtime).HINDSIGHT_DATA_DIR).toBe("/data");
    // A directory for a volume mounted there (docker run -v hindsight-data:/data), not a VOLUME.
    expect(all(runtime, "RUN").map(runCommand)).toContain(
      "set -eu; mkdir -p /data; chown node:node /data",
    );
    expect(all(runtime, "EXPOSE").map((i) => i.args)).toEqual(["8080"]);
  });

  it("checks health with node's fetch against /health (no curl in slim images)", () => {
    const args = healthcheckCommand();
    expect(args.slice(0, 3)).toEqual(["CMD", "node", "-e"]);
    expect(args[3]).toMatch(/fetch\('http:\/\/127\.0\.0\.1:8080\/health'/);
    expect(args.join(" ")).not.toMatch(/\b(curl|wget)\b/);
    // Healthy within 10 s of listening on any engine. No --start-interval: Docker's classic
    // builder before Engine 25 and buildah 1.28 (podman 4.3) refuse the flag.
    const [check] = all(finalStage(), "HEALTHCHECK");
    const flag = (name: string) => new RegExp(`--${name}=(\\S+)`).exec(check!.args)?.[1];
    expect(durationMs(flag("interval"))).toBeLessThanOrEqual(10_000);
    expect(durationMs(flag("start-period"))).toBeGreaterThanOrEqual(30_000);
    expect(check!.args).not.toContain("--start-interval");
  });

  it("starts `serve` on 0.0.0.0:8080 under tini", () => {
    const runtime = finalStage();
    expect(execForm(all(runtime, "ENTRYPOINT").at(-1)!.args)).toEqual(["/usr/bin/tini", "--"]);
    expect(execForm(all(runtime, "CMD").at(-1)!.args)).toEqual([
      "node",
      "dist/cli/main.js",
      "serve",
      "--host",
      "0.0.0.0",
      "--port",
      "8080",
    ]);
    expect(all(runtime, "RUN").some((i) => /apt-get install .*\btini\b/.test(runCommand(i)))).toBe(
      true,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// .dockerignore

/** Docker's .dockerignore rules: the last matching pattern wins; a match on a parent counts. */
function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const negate = line.startsWith("!");
      const pattern = (negate ? line.slice(1) : line).replace(/^\/+|\/+$/g, "");
      const source = pattern
        .split(/(\*\*\/|\/\*\*$|\*\*|\*|\?)/)
        .map((part) => {
          if (part === "**/") return "(?:.*/)?";
          if (part === "/**") return "(?:/.*)?";
          if (part === "**") return ".*";
          if (part === "*") return "[^/]*";
          if (part === "?") return "[^/]";
          return part.replace(/[.+^${}()|[\]\\]/g, "\\$&");
        })
        .join("");
      return { negate, regex: new RegExp(`^${source}$`) };
    });
  return (path: string) => {
    const parts = path.split("/");
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
    let excluded = false;
    for (const rule of rules) {
      if (candidates.some((candidate) => rule.regex.test(candidate))) excluded = !rule.negate;
    }
    return excluded;
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

describe(".dockerignore", () => {
  const excluded = dockerignore(read(".dockerignore"));

  it("sends every file the Dockerfile copies, and the non-test sources", () => {
    const copied = [...new Set(DOCKERFILE.stages.flatMap(contextCopies))];
    expect(copied.sort()).toEqual([
      ".npmrc",
      "package-lock.json",
      "package.json",
      "scripts/build-ui.mjs",
      "scripts/bundle-cli.mjs",
      "scripts/calibration/multilingual-e5-small-q4.json",
      "scripts/convert-e5-q4.py",
      "scripts/fetch-model.mjs",
      "src",
      "src/adapters/embedders/unigram-vocabulary.mjs",
      "tsconfig.build.json",
      "tsconfig.json",
      "ui",
    ]);
    for (const source of copied) {
      expect(statSync(join(ROOT, source)), source).toBeTruthy();
      expect(excluded(source), source).toBe(false);
    }
    const sources = [...filesUnder("src"), ...filesUnder("ui")];
    expect(sources.length).toBeGreaterThan(0);
    for (const file of sources) expect(excluded(file), file).toBe(file.endsWith(".test.ts"));
  });

  it("keeps local data, secrets, dependencies and build output out of the context", () => {
    for (const path of [
      "node_modules/pg/package.json",
      "dist/cli/main.js",
      ".git/HEAD",
      ".env",
      ".cache/models/multilingual-e5-small-q4/config.json",
      "scripts/calibration/corpus.jsonl",
      ".hindsight/data/PG_VERSION",
      "test/cli.test.ts",
      "docker-compose.yml",
      "src/core/recall/bm25.test.ts",
    ]) {
      expect(excluded(path), path).toBe(true);
    }
  });
});
