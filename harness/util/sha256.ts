import { hash } from "node:crypto";

/** sha256 of a string, 64 lowercase hex characters: crypto's one-shot hash, about a third of createHash().update().digest() for the short strings ctxbench hashes. */
export function sha256Hex(data: string): string {
  return hash("sha256", data, "hex");
}
