/**
 * Masks credential-shaped text before it is copied into a summary: a summary outlives the turn it
 * came from, so a key pasted once must not be restated in every later context.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  // Provider and platform key formats.
  /\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

// `password=…`, `api_key: …`, `Authorization: Bearer …`: keep the name, mask the value.
const ASSIGNED_SECRET =
  /\b((?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|token|password|passwd|pwd|client[_-]?secret|private[_-]?key)["']?\s*[:=]\s*["']?)([^\s"',;]{6,})/gi;
// Environment-style assignments: `OPENAI_KEY=…`, `DB_PASSWORD: …`.
const ENV_SECRET = /\b([A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)\s*[:=]\s*["']?)([^\s"',;]{6,})/g;
const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/=-]{12,})/g;
// Credentials inside URLs: scheme://user:password@host.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi;

export const REDACTED = "[REDACTED]";

export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(ASSIGNED_SECRET, (_match, name: string) => `${name}${REDACTED}`);
  out = out.replace(ENV_SECRET, (_match, name: string) => `${name}${REDACTED}`);
  out = out.replace(BEARER, (_match, prefix: string) => `${prefix}${REDACTED}`);
  out = out.replace(URL_CREDENTIALS, (_match, head: string, _secret: string, at: string) => `${head}${REDACTED}${at}`);
  return out;
}
