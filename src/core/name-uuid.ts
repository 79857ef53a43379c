import { createHash } from "node:crypto";

/**
 * A name-based UUID (the version 5 layout, SHA-1 of the name): the same name gives the same
 * id, so a retried write or a re-imported file lands on the memory it made before.
 */
export function nameUuid(name: string): string {
  const bytes = createHash("sha1").update(name).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
