/**
 * Queries on PGlite as named prepared statements, each run in one round trip into the
 * WebAssembly backend.
 *
 * PGlite's own `query` sends a statement's parse, describe, bind, describe, execute and sync as
 * six calls into PostgreSQL, and parses and plans the statement every time. A recall's
 * candidate statement spent ~1.7 ms of its ~8 ms planning on a 10 000-memory store. Here a
 * statement is parsed and described once, under a name; every later run is one buffer of
 * bind, execute and sync. PostgreSQL keeps the plan (a generic one once it is no worse than
 * the custom plans of its first runs) and re-plans by itself when a table it reads changes.
 *
 * This is safe on PGlite and not on a PostgreSQL server: PGlite is one session owned by this
 * process, so a statement prepared on it stays there; a pooled server connection (PgBouncer
 * in transaction mode) can hand the next statement to a session that never saw it.
 *
 * Values are serialised, and fields parsed, with PGlite's own serializers and parsers for the
 * types PostgreSQL describes, exactly as its `query` does; the reply's rows are read from the
 * wire format here (`replyRows`).
 */
import type { PGlite } from "@electric-sql/pglite";
import { LruMap } from "../../core/lru-map.js";
import { isStalePlan, MAX_PREPARED_PARAMETERS } from "./executor.js";

type Protocol = typeof import("@electric-sql/pglite")["protocol"];
type ParseType = typeof import("@electric-sql/pglite")["types"]["parseType"];

/** What this module uses of a PGlite instance: public API, plus its two mutexes. */
export interface PGliteProtocolHost {
  execProtocolStream: PGlite["execProtocolStream"];
  execProtocolRawStream: PGlite["execProtocolRawStream"];
  readonly serializers: PGlite["serializers"];
  readonly parsers: PGlite["parsers"];
  /**
   * The locks PGlite's `query` takes: no other statement (the query lock) and no other
   * transaction (the transaction lock) may run in between. Not in PGlite's typings; pinned
   * by the version in package.json and checked by the storage contract tests.
   */
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

interface Described {
  sql: string;
  name: string;
  paramTypes: readonly number[];
  fields: readonly { name: string; dataTypeID: number }[];
}

/**
 * At most this many statements stay prepared (by default): the SQL the service sends comes
 * from a few dozen templates, and the filters a recall names make a few variants of each.
 */
const MAX_PREPARED = 200;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const decoder = new TextDecoder();
const DATA_ROW = 0x44; // 'D'
const ERROR_RESPONSE = 0x45; // 'E'

/**
 * The rows of one execution's reply, each a list of its fields' text (null for NULL), read
 * from the wire format here: PGlite's message parser copies every field into an ArrayBuffer of
 * its own before decoding it, ~0.4 ms of a recall's 60-row candidate statement against ~0.05
 * here. A reply holding an error is handed to that parser, which builds PGlite's own
 * DatabaseError (its code, detail, position), and that is thrown.
 */
function replyRows(reply: Uint8Array, protocol: Protocol): (string | null)[][] {
  const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
  const rows: (string | null)[][] = [];
  let at = 0;
  while (at + 5 <= reply.length) {
    const type = reply[at]!;
    // The length counts itself, not the type byte.
    const end = at + 1 + view.getInt32(at + 1);
    if (end < at + 5 || end > reply.length) throw new Error("PGlite sent a malformed reply");
    if (type === ERROR_RESPONSE) throw databaseError(reply, protocol);
    if (type === DATA_ROW) {
      const count = view.getInt16(at + 5);
      const fields = new Array<string | null>(count);
      let field = at + 7;
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(field);
        field += 4;
        if (length < 0) {
          fields[i] = null;
        } else {
          fields[i] = decoder.decode(reply.subarray(field, field + length));
          field += length;
        }
      }
      rows.push(fields);
    }
    at = end;
  }
  return rows;
}

/** The error a reply holds, as PGlite's own parser makes it. */
function databaseError(reply: Uint8Array, protocol: Protocol): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(reply, (message) => {
    if (!error && message.name === "error") error = message as unknown as Error;
  });
  return error ?? new Error("PGlite replied with an error it could not parse");
}

export interface PreparedQueries {
  /**
   * Runs one statement. `inTransaction`: the caller already holds PGlite's transaction lock
   * (inside `db.transaction`), so only the query lock is taken and the files are not synced.
   */
  query<T>(sql: string, params: readonly unknown[], inTransaction: boolean): Promise<T[]>;
}

export function preparedQueries(
  db: PGliteProtocolHost,
  protocol: Protocol,
  parseType: ParseType,
  { maxPrepared = MAX_PREPARED }: { maxPrepared?: number } = {},
): PreparedQueries {
  const { serialize } = protocol;
  const prepared = new LruMap<string, Described>(maxPrepared);
  let counter = 0;

  // Parsed by PGlite: describing and closing, seldom. (Its `execProtocol` is not used: after a
  // raw run, below, it would keep sending replies to that run's handler; `execProtocolStream`
  // sets its own, as PGlite's `query` and `exec` do.)
  const send = (message: Uint8Array, sync: boolean) =>
    db.execProtocolStream(message, { syncToFs: sync });

  /** The reply to a message, unparsed. */
  const sendRaw = async (message: Uint8Array, sync: boolean): Promise<Uint8Array> => {
    const chunks: Uint8Array[] = [];
    await db.execProtocolRawStream(message, {
      syncToFs: sync,
      // A view of the WebAssembly memory, reused once this returns.
      onRawData: (chunk) => chunks.push(chunk.slice()),
    });
    return chunks.length === 1 ? chunks[0]! : concat(chunks);
  };

  const describe = async (sql: string, name: string): Promise<Described> => {
    const messages = await send(
      concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      false,
    );
    let paramTypes: readonly number[] = [];
    let fields: Described["fields"] = [];
    for (const message of messages) {
      if (message.name === "parameterDescription")
        paramTypes = (message as unknown as { dataTypeIDs: number[] }).dataTypeIDs;
      if (message.name === "rowDescription")
        fields = (message as unknown as { fields: Described["fields"] }).fields;
    }
    return { sql, name, paramTypes, fields };
  };

  const values = (statement: Described, params: readonly unknown[]) =>
    params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[statement.paramTypes[index]!];
      return serializer ? serializer(value) : String(value);
    });

  const execute = async <T>(
    statement: Described,
    params: readonly unknown[],
    sync: boolean,
  ): Promise<T[]> => {
    const reply = await sendRaw(
      concat([
        serialize.bind({ statement: statement.name, values: values(statement, params) }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      sync,
    );
    const rows: T[] = [];
    const { fields } = statement;
    for (const cells of replyRows(reply, protocol)) {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i]!;
        row[field.name] = parseType(cells[i] ?? null, field.dataTypeID, db.parsers);
      }
      rows.push(row as T);
    }
    return rows;
  };

  const close = (name: string) =>
    send(concat([serialize.close({ type: "S", name }), serialize.sync()]), false);

  const forget = async (entry: Described) => {
    prepared.delete(entry.sql);
    await close(entry.name);
  };

  // Statements dropped inside a transaction the failure aborted, closed once it has ended.
  let unclosed: string[] = [];

  const named = async (sql: string): Promise<Described> => {
    const hit = prepared.get(sql);
    if (hit) return hit;
    const statement = await describe(sql, `hindsight_${++counter}`);
    for (const [, evicted] of prepared.set(sql, statement)) await close(evicted.name);
    return statement;
  };

  const run = async <T>(
    sql: string,
    params: readonly unknown[],
    inTransaction: boolean,
  ): Promise<T[]> => {
    // Outside a transaction PGlite syncs its files after the statement, as its query does.
    const sync = !inTransaction;
    if (!inTransaction && unclosed.length > 0) {
      const names = unclosed;
      unclosed = [];
      for (const name of names) await close(name);
    }
    // One of a kind: described and run unnamed, in two round trips, and not kept.
    if (params.length > MAX_PREPARED_PARAMETERS)
      return execute<T>(await describe(sql, ""), params, sync);
    const statement = await named(sql);
    try {
      return await execute<T>(statement, params, sync);
    } catch (error) {
      // A column added or retyped under a kept statement: it is described again, and rerun
      // at once unless the failure has aborted the caller's transaction (its next one works).
      if (!isStalePlan(error)) throw error;
      if (inTransaction) {
        prepared.delete(statement.sql);
        unclosed.push(statement.name);
        throw error;
      }
      await forget(statement);
      return execute<T>(await named(sql), params, sync);
    }
  };

  return {
    query: <T>(sql: string, params: readonly unknown[], inTransaction: boolean) =>
      inTransaction
        ? db._runExclusiveQuery(() => run<T>(sql, params, true))
        : db._runExclusiveTransaction(() =>
            db._runExclusiveQuery(() => run<T>(sql, params, false)),
          ),
  };
}
