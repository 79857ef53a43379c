/**
 * A store holds private memories: its directories are 0700 and its files 0600, whatever the
 * umask, and a folder it shares with other users' space (the temp directory) is used only when
 * it is the user's own. One mechanism for every path hindsight keeps data or sockets in.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import {
  access,
  chmod,
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { ErrorCode, HindsightError } from "../../core/errors.js";

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const uid = () => (typeof process.getuid === "function" ? process.getuid() : undefined);

function refuse(path: string, why: string, field: string): never {
  throw new HindsightError(ErrorCode.CONFIG_INVALID, `${field}: ${path} ${why}`, {
    field,
    details: { path },
  });
}

export interface PrivateDirectoryOptions {
  /** The setting the path comes from, named in errors (e.g. HINDSIGHT_DATA_DIR). */
  field: string;
  /**
   * Refuse a directory another user owns or could enter (the temp directory's fallback
   * folder: whoever creates it first would receive the writes). Without it, a directory owned
   * by another user is used as it is (an operator's choice, e.g. a mounted volume).
   */
  mustOwn?: boolean;
}

/**
 * Creates `path` (and its parents) if missing, and makes it private: 0700 when the user owns
 * it. Refuses a path that is not a directory, and with `mustOwn` one that is a symbolic link
 * or belongs to someone else.
 */
export async function ensurePrivateDirectory(
  path: string,
  options: PrivateDirectoryOptions,
): Promise<void> {
  // Kernel file systems look writable and are not (a data dir under /proc hung for minutes).
  if (/^\/(proc|sys|dev)(\/|$)/u.test(await realpath(path).catch(() => path))) {
    refuse(
      path,
      "is in a kernel file system (/proc, /sys, /dev); choose a real directory",
      options.field,
    );
  }
  try {
    await mkdir(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR") refuse(path, "is not a directory", options.field);
    // EACCES, EROFS, and the ENOENT Node gives for a read-only mount: the setting is at fault.
    if (code) refuse(path, `cannot be created (${code})`, options.field);
    throw error;
  }
  const stats = await lstat(path);
  if (stats.isSymbolicLink() && options.mustOwn) {
    refuse(path, "is a symbolic link; refusing to keep private data behind it", options.field);
  }
  if (!stats.isDirectory() && !stats.isSymbolicLink()) {
    refuse(path, "is not a directory", options.field);
  }
  const me = uid();
  const mine = me === undefined || stats.uid === me;
  if (!mine) {
    if (options.mustOwn) {
      refuse(
        path,
        `belongs to another user (uid ${stats.uid}); remove it or set TMPDIR`,
        options.field,
      );
    }
    return;
  }
  try {
    await access(path, constants.W_OK | constants.X_OK);
    if ((stats.mode & 0o077) !== 0 && !stats.isSymbolicLink()) {
      await chmod(path, PRIVATE_DIRECTORY_MODE);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "not writable";
    refuse(
      path,
      `is not writable (${code === "EROFS" ? "read-only file system" : code})`,
      options.field,
    );
  }
}

/**
 * Makes every directory under `root` 0700 and every file 0600. PGlite creates its files 0666
 * whatever the umask; the private top directory already keeps other users out, and this keeps
 * the files themselves private too (a copied or re-shared directory keeps its modes).
 */
export async function makeTreePrivate(root: string): Promise<void> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  await Promise.all([
    chmod(root, PRIVATE_DIRECTORY_MODE),
    ...entries.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      if (entry.isDirectory()) return chmod(path, PRIVATE_DIRECTORY_MODE);
      if (entry.isFile()) return chmod(path, PRIVATE_FILE_MODE);
      return undefined;
    }),
  ]);
}

/** True when `path` exists and its mode lets group or others in. */
export async function isShared(path: string): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  return stats !== undefined && (stats.mode & 0o077) !== 0;
}

/**
 * A random secret kept in a private file of `dir`, created once. Only those who may read the
 * directory know it, so names derived from it (the lock's abstract socket) cannot be taken
 * first by another user. Written beside and linked into place, so two processes creating it
 * at once agree on one value.
 */
export async function directorySecret(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  const existing = await readFile(path, "utf8").catch(() => undefined);
  if (existing?.trim()) return existing.trim();
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(temporary, `${randomBytes(32).toString("hex")}\n`, {
    mode: PRIVATE_FILE_MODE,
    flag: "wx",
  });
  try {
    await link(temporary, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(temporary, { force: true });
  }
  return (await readFile(path, "utf8")).trim();
}
