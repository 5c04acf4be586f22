import type { ToolSchema } from "../../harness/contract/types.ts";
import { estimateMessageTokensRough } from "../../harness/contract/tokens.ts";
import type { LcmStore, StoredNode } from "./store.ts";
import { clipText } from "./text.ts";

export const LCM_TOOL_SCHEMAS: readonly ToolSchema[] = [
  {
    name: "lcm_grep",
    description:
      "Full-text search over everything this conversation compacted: the original messages and the summaries. " +
      "Returns matching messages (with the node that summarizes them) and summary nodes.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to find; every word must match." },
        limit: { type: "integer", minimum: 1, maximum: 50, description: "Most results per kind (default 10)." },
        scope: { type: "string", enum: ["messages", "summaries", "both"], description: "What to search (default both)." },
      },
      required: ["query"],
    },
  },
  {
    name: "lcm_describe",
    description: "Describe one summary node: depth, summary text, size, parent and children.",
    parameters: {
      type: "object",
      properties: { node_id: { type: "string", description: "A node id such as lcm_0123456789abcdef." } },
      required: ["node_id"],
    },
  },
  {
    name: "lcm_expand",
    description: "Restore a summary node to the original messages it covers, oldest first (condensed nodes descend to their leaves).",
    parameters: {
      type: "object",
      properties: {
        node_id: { type: "string", description: "A node id such as lcm_0123456789abcdef." },
        max_tokens: { type: "integer", minimum: 1, description: "Most tokens of messages to return (default 4000)." },
      },
      required: ["node_id"],
    },
  },
];

/** Where a tool call looks: the store of the caller's session and the sessions it may see. */
export interface ToolScope {
  store: LcmStore;
  sessions: readonly string[];
}

type Args = Record<string, unknown>;
class ArgumentError extends Error {}

/** Run one lcm tool. Always a JSON string: results, or `{"error": …}` (TOOL-2). */
export function runLcmTool(name: string, args: unknown, scope: ToolScope | null): string {
  try {
    if (!LCM_TOOL_SCHEMAS.some((schema) => schema.name === name)) return error(`Unknown context engine tool: ${String(name)}`);
    const parsed = parseArgs(args);
    if (scope === null) return error("lcm cannot tell which session this call belongs to; no compacted history is reachable");
    if (name === "lcm_grep") return grep(parsed, scope);
    const node = findNode(scope, requiredString(parsed, "node_id"));
    if (node === null) return error(`Node ${String(parsed.node_id)} not found in this conversation`);
    return name === "lcm_describe" ? describe(node) : expand(node, parsed, scope);
  } catch (caught) {
    if (caught instanceof ArgumentError) return error(caught.message);
    return error(`lcm tool ${String(name)} failed: ${caught instanceof Error ? caught.message : String(caught)}`);
  }
}

function grep(args: Args, scope: ToolScope): string {
  const query = requiredString(args, "query");
  const limit = optionalInteger(args, "limit", 10, 1, 50);
  const kind = args.scope ?? "both";
  if (kind !== "messages" && kind !== "summaries" && kind !== "both") throw new ArgumentError('scope must be "messages", "summaries" or "both"');
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const messages =
    kind === "summaries"
      ? []
      : scope.store.searchMessages(scope.sessions, words, query, true, limit).map((hit) => ({
          row: hit.row,
          message_uid: hit.uid,
          role: hit.role,
          current: hit.current,
          node_id: scope.store.nodeOfMessage(hit.row),
          excerpt: clipText(hit.text, 400),
        }));
  const summaries =
    kind === "messages"
      ? []
      : scope.store.searchSummaries(scope.sessions, words, query, limit).map((hit) => ({
          node_id: hit.node,
          depth: hit.depth,
          excerpt: clipText(hit.summary, 400),
        }));
  return JSON.stringify({ query, mode: scope.store.searchMode, messages, summaries, count: messages.length + summaries.length });
}

function describe(node: StoredNode): string {
  return JSON.stringify({
    node_id: node.id,
    kind: node.depth === 0 ? "leaf" : "condensed",
    depth: node.depth,
    summary: node.summary,
    token_count: node.tokenCount,
    source_token_count: node.sourceTokenCount,
    message_count: node.messageCount,
    parent: node.parent,
    children: node.children,
  });
}

function expand(node: StoredNode, args: Args, scope: ToolScope): string {
  const maxTokens = optionalInteger(args, "max_tokens", 4_000, 1, Number.MAX_SAFE_INTEGER);
  const messages = [];
  let tokens = 0;
  let truncated = false;
  for (const entry of scope.store.nodeMessages(node.id)) {
    const cost = estimateMessageTokensRough(entry.message);
    if (messages.length > 0 && tokens + cost > maxTokens) {
      truncated = true;
      break;
    }
    tokens += cost;
    messages.push(entry.message);
  }
  return JSON.stringify({ node_id: node.id, depth: node.depth, message_count: node.messageCount, returned: messages.length, truncated, messages });
}

function findNode(scope: ToolScope, id: string): StoredNode | null {
  const node = scope.store.getNode(id);
  return node !== null && scope.sessions.includes(node.session) ? node : null;
}

function parseArgs(args: unknown): Args {
  let value = args;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new ArgumentError("arguments must be a JSON object");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ArgumentError("arguments must be a JSON object");
  return value as Args;
}

function requiredString(args: Args, key: string): string {
  const value = args[key];
  if (typeof value !== "string" || value.trim() === "") throw new ArgumentError(`${key} must be a non-empty string`);
  return value.trim();
}

function optionalInteger(args: Args, key: string, fallback: number, min: number, max: number): number {
  const value = args[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ArgumentError(`${key} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function error(message: string): string {
  return JSON.stringify({ error: message });
}
