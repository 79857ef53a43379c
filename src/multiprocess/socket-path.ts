import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { ensurePrivateDirectory } from "../adapters/storage/private-dir.js";

/** Unix socket paths are limited to about 104–108 bytes, depending on the platform. */
const MAX_SOCKET_PATH = 100;

/**
 * Where the owner of a data directory listens: a socket file inside the directory, so only
 * users who may read the data can connect. Deep directories fall back to a private folder of
 * the user's in the temp directory — used only if it is the user's own and nobody else's to
 * enter: whoever made it first would otherwise receive the writes and answer them.
 */
export async function memorySocketPath(dataDir: string): Promise<string> {
  const canonical = await realpath(dataDir);
  const inside = join(canonical, "hindsight.sock");
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  const folder = join(tmpdir(), `hindsight-${userInfo().uid}`);
  await ensurePrivateDirectory(folder, { field: "TMPDIR", mustOwn: true });
  const digest = createHash("sha256").update(canonical).digest("hex").slice(0, 24);
  return join(folder, `${digest}.sock`);
}
