import { createHash } from "node:crypto";
import { mkdir, realpath } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/** Unix socket paths are limited to about 104–108 bytes, depending on the platform. */
const MAX_SOCKET_PATH = 100;

/**
 * Where the owner of a data directory listens: a socket file inside the directory, so only
 * users who may read the data can connect. Deep directories fall back to a private folder of
 * the user's in the temp directory.
 */
export async function memorySocketPath(dataDir: string): Promise<string> {
  const canonical = await realpath(dataDir);
  const inside = join(canonical, "hindsight.sock");
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  const folder = join(tmpdir(), `hindsight-${userInfo().uid}`);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const digest = createHash("sha256").update(canonical).digest("hex").slice(0, 24);
  return join(folder, `${digest}.sock`);
}
