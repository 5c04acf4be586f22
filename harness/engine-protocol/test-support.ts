import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fromJsonSchema } from "../util/json-schema.ts";
import type { Schema } from "../util/schema.ts";
import { ERROR_CODES } from "./messages.ts";

export const PROTOCOL_SCHEMA = JSON.parse(readFileSync(new URL("./protocol.schema.json", import.meta.url), "utf8")) as { $defs: Record<string, Record<string, unknown>> };
const defs = PROTOCOL_SCHEMA.$defs;
const validators = new Map<string, Schema<unknown>>();

/** A validator for one `#/$defs/<name>` of the protocol schema. */
function validatorFor(name: string): Schema<unknown> {
  let validator = validators.get(name);
  if (!validator) {
    if (!Object.hasOwn(defs, name)) throw new Error(`the protocol schema has no definition ${name}`);
    validators.set(name, (validator = fromJsonSchema(PROTOCOL_SCHEMA, `#/$defs/${name}`)));
  }
  return validator;
}

export function schemaProblem(name: string, value: unknown): string | null {
  const problem = validatorFor(name).check(value, "$");
  return problem ? `${name} ${problem.path}: ${problem.message}` : null;
}

/**
 * Records both directions of a family's traffic (pass `onMessage` to it) and checks every message
 * against the schema: the envelope by direction, a result by the method of the request it
 * answers, an error's data by its code.
 */
export function trafficValidator() {
  const messages: Array<{ direction: "in" | "out"; message: unknown }> = [];
  return {
    messages,
    onMessage(direction: "in" | "out", message: unknown) {
      messages.push({ direction, message });
    },
    problems(): string[] {
      const problems: string[] = [];
      const requests = { in: new Map<unknown, string>(), out: new Map<unknown, string>() };
      for (const { direction, message } of messages) {
        const envelope = direction === "out" ? "hostToEngine" : "engineToHost";
        const problem = schemaProblem(envelope, message);
        if (problem) problems.push(`${direction}: ${problem} in ${JSON.stringify(message).slice(0, 200)}`);
        const { id, method } = message as { id?: unknown; method?: unknown };
        if (typeof method === "string" && id !== undefined) requests[direction].set(id, method);
      }
      for (const { direction, message } of messages) {
        const { id, method, result, error } = message as { id?: unknown; method?: unknown; result?: unknown; error?: { code: number; data?: unknown } };
        if (typeof method === "string" || id === undefined) continue;
        const asked = requests[direction === "in" ? "out" : "in"].get(id);
        if (asked === undefined) {
          problems.push(`${direction}: a response to no request (id ${String(id)})`);
          continue;
        }
        let problem: string | null = null;
        if (result !== undefined) problem = schemaProblem(`result.${asked}`, result);
        else if (error?.code === ERROR_CODES.engineRaised) problem = schemaProblem("error.engineRaised", error.data);
        else if (error?.code === ERROR_CODES.loadFailed) problem = schemaProblem("error.loadFailed", error.data);
        else if (error?.code === ERROR_CODES.llmFailed) problem = schemaProblem("error.llmFailed", error.data);
        if (problem) problems.push(`${direction}: ${problem}`);
      }
      return problems;
    },
  };
}

/** A temporary directory of plugin directories: `plugin(name, files)` writes one. */
export function pluginsRoot() {
  const root = mkdtempSync(join(tmpdir(), "ctxbench-py-plugins-"));
  return {
    root,
    plugin(name: string, files: Record<string, string>): string {
      const directory = join(root, name);
      for (const [relative, text] of Object.entries(files)) {
        const path = join(directory, relative);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
      }
      return directory;
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A complete engine in Python; `extra` is indented into its class body. */
export function pythonEngine(name: string, extra = ""): string {
  return `from agent.context_engine import ContextEngine


class Engine(ContextEngine):
    @property
    def name(self):
        return ${JSON.stringify(name)}

    def update_from_response(self, usage):
        self.last_prompt_tokens = usage.get("prompt_tokens", 0)
        self.last_completion_tokens = usage.get("completion_tokens", 0)
        self.last_total_tokens = usage.get("total_tokens", 0)

    def should_compress(self, prompt_tokens=None):
        tokens = self.last_prompt_tokens if prompt_tokens is None else prompt_tokens
        return self.threshold_tokens > 0 and tokens >= self.threshold_tokens

    def compress(self, messages, current_tokens=None, focus_topic=None):
        self.compression_count += 1
        return messages[:1] + messages[-2:]
${extra
  .split("\n")
  .map((line) => (line === "" ? "" : `    ${line}`))
  .join("\n")}

def register(ctx):
    ctx.register_context_engine(Engine())
`;
}
