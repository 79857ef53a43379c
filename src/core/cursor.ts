/**
 * Page cursors as opaque tokens (base64url of `|`-joined parts): clients pass them back and
 * never build them; a token that does not decode to the expected parts is refused by name.
 */
import { invalidInput } from "./errors.js";

export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(parts.join("|"), "utf8").toString("base64url");
}

/** The cursor's parts, each checked; INVALID_INPUT naming `cursor` when any fails. */
export function decodeCursor(
  token: string,
  checks: readonly ((part: string) => boolean)[],
  what: string,
): string[] {
  const parts = Buffer.from(token, "base64url").toString("utf8").split("|");
  if (parts.length !== checks.length || !checks.every((check, index) => check(parts[index]!))) {
    throw invalidInput("cursor", `is not a next_cursor from an earlier page of this ${what}`);
  }
  return parts;
}
