/** Upstream's caps on the memory context handed to compress(): head, marker, tail. */
export const MEMORY_CONTEXT_MAX_CHARS = 6000;
export const MEMORY_CONTEXT_HEAD_CHARS = 4000;
export const MEMORY_CONTEXT_TAIL_CHARS = 1500;
export const MEMORY_CONTEXT_TRUNCATION_MARKER = "\n...[memory provider context truncated]...\n";
export const REDACTED = "[REDACTED]";

const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi;
const KEY_LIKE = /\b(?:sk|pk|rk|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{12,}\b/g;

/**
 * Sanitize the memory context as upstream: known secrets and URL credentials redacted, then capped
 * at 6,000 characters (the first 4,000, a marker, the last 1,500).
 */
export function sanitizeMemoryContext(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join(REDACTED);
  out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`).replace(KEY_LIKE, REDACTED);
  if (out.length <= MEMORY_CONTEXT_MAX_CHARS) return out;
  return out.slice(0, MEMORY_CONTEXT_HEAD_CHARS) + MEMORY_CONTEXT_TRUNCATION_MARKER + out.slice(out.length - MEMORY_CONTEXT_TAIL_CHARS);
}
