import type { Message, ToolCall } from "../../harness/contract/types.ts";

/** The text of a message: its string content, or its text parts joined by newlines. */
export function messageText(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content) {
    if (part && typeof part === "object" && part.type === "text" && typeof (part as { text?: unknown }).text === "string") {
      texts.push((part as { text: string }).text);
    }
  }
  return texts.join("\n");
}

/** Whitespace collapsed and cut to `max` characters with an ellipsis. */
export function condense(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** A long text's beginning and end, which is where commands print what matters. */
export function headAndTail(text: string, head: number, tail: number): string {
  if (text.length <= head + tail) return text;
  return `${text.slice(0, head)}\n${text.slice(text.length - tail)}`;
}

export function parseArguments(args: unknown): Record<string, unknown> | null {
  if (typeof args !== "string" || args === "") return null;
  try {
    const parsed: unknown = JSON.parse(args);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// Argument names that say most about a call, in the order they are shown.
const TELLING_KEYS = ["path", "file_path", "file", "filename", "command", "cmd", "query", "pattern", "url", "name", "target"];
const FILE_KEYS = new Set(["path", "file_path", "file", "filename", "target_file", "source", "destination", "paths", "files"]);

/** `read_file path=src/a.ts`: the tool's name and its most telling short arguments. */
export function describeCall(call: ToolCall | undefined): string {
  const name = call?.function?.name || "tool";
  const args = parseArguments(call?.function?.arguments);
  if (!args) return name;
  const keys = Object.keys(args).sort((a, b) => rank(a) - rank(b));
  const shown: string[] = [];
  for (const key of keys) {
    const value = args[key];
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
    shown.push(`${key}=${condense(String(value), 80)}`);
    if (shown.length === 3) break;
  }
  return shown.length > 0 ? `${name} ${shown.join(" ")}` : name;
}

function rank(key: string): number {
  const index = TELLING_KEYS.indexOf(key);
  return index === -1 ? TELLING_KEYS.length : index;
}

/** File paths a call's arguments name. */
export function filesOfCall(call: ToolCall | undefined): string[] {
  const args = parseArguments(call?.function?.arguments);
  if (!args) return [];
  const files: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (!FILE_KEYS.has(key)) continue;
    if (typeof value === "string" && isPathLike(value)) files.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === "string" && isPathLike(item)) files.push(item);
  }
  return files;
}

/** A file or directory name worth listing: not empty, not just `.` or `..`. */
function isPathLike(value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== "" && !/^[./\\]+$/.test(trimmed);
}

const FILE_IN_TEXT =
  /(?:^|[\s"'`(])((?:[\w.-]+\/)*[\w-][\w.-]*\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|md|json|jsonl|ya?ml|toml|ini|cfg|conf|sql|sh|txt|html|css|scss|lock|env|xml|csv))(?=$|[\s"'`),:;])/g;

/** File paths mentioned in free text. */
export function filesInText(text: string): string[] {
  const files: string[] = [];
  for (const match of text.matchAll(FILE_IN_TEXT)) if (match[1]) files.push(match[1]);
  return files;
}

// Error reports, not every line that mentions the word: `TypeError: …`, `FAILED`, `exit code 2`.
const ERROR_LINE =
  /(?:error|exception|fatal|panic)\s*:|\btraceback\b|\bfail(?:ed|ure|s)?\b|\bexit (?:code|status) [1-9]\d*|\bnot found\b|\bpermission denied\b|\bsegmentation fault\b|\bcommand not found\b/i;

// Log levels are upper case; "error" in lower case is as often code (`new Error(`) as a report.
const ERROR_LEVEL = /\b(?:ERROR|FATAL|CRITICAL|PANIC)\b/;

const isErrorLine = (line: string) => ERROR_LINE.test(line) || ERROR_LEVEL.test(line);

/** The first line of a text that reports an error, or null. */
export function firstErrorLine(text: string): string | null {
  if (!isErrorLine(text)) return null;
  for (const line of text.split("\n")) if (isErrorLine(line)) return line;
  return null;
}

/** `[read_file path=a.ts] 42 lines, 1,234 chars`: one line that stands for a tool result. */
export function describeResult(call: ToolCall | undefined, resultText: string): string {
  const lines = resultText === "" ? 0 : resultText.split("\n").length;
  const error = firstErrorLine(headAndTail(resultText, 2000, 2000));
  const size = `${lines} line${lines === 1 ? "" : "s"}, ${resultText.length.toLocaleString("en-US")} chars`;
  return `[${describeCall(call)}] ${size}${error ? `; ${condense(error, 120)}` : ""}`;
}

/** Sentences (or lines) of a text. */
export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter((sentence) => sentence.trim() !== "");
}
