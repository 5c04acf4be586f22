import { join } from "node:path";
import { UsageError } from "../util/errors.ts";
import type { PluginManifest } from "./types.ts";
import { readYamlMapping } from "./yaml-file.ts";

export const MANIFEST_FILE = "plugin.yaml";

/** Read and check a plugin directory's plugin.yaml: `name` is required, `description` and `version` optional. */
export async function readManifest(directory: string): Promise<PluginManifest> {
  const file = join(directory, MANIFEST_FILE);
  const data = await readYamlMapping(file);
  if (data === null) throw new UsageError(`${file}: empty manifest; it needs at least a name`);
  const { name, description, version } = data;
  if (typeof name !== "string" || name.trim() === "") throw new UsageError(`${file}: missing "name"`);
  if (description !== undefined && description !== null && typeof description !== "string") {
    throw new UsageError(`${file}: "description" must be text`);
  }
  if (version !== undefined && version !== null && typeof version !== "string" && typeof version !== "number") {
    throw new UsageError(`${file}: "version" must be text`);
  }
  return {
    name,
    description: description ?? "",
    version: version === undefined || version === null ? null : String(version),
    searchTool: searchToolOf(file, data["ctxbench"]),
  };
}

const CTXBENCH_KEYS = ["search_tool", "search_parameter"];

/** The optional `ctxbench:` section: hints for the benchmarks, which upstream's host ignores. */
function searchToolOf(file: string, section: unknown): PluginManifest["searchTool"] {
  if (section === undefined || section === null) return null;
  if (typeof section !== "object" || Array.isArray(section)) throw new UsageError(`${file}: "ctxbench" must be a mapping (e.g. ctxbench: {search_tool: my_search})`);
  const entries = section as Record<string, unknown>;
  const unknown = Object.keys(entries).find((key) => !CTXBENCH_KEYS.includes(key));
  if (unknown !== undefined) throw new UsageError(`${file}: unknown key "ctxbench.${unknown}" (known: ${CTXBENCH_KEYS.join(", ")})`);
  const { search_tool: tool, search_parameter: parameter } = entries;
  if (tool === undefined || tool === null) {
    if (parameter !== undefined && parameter !== null) throw new UsageError(`${file}: "ctxbench.search_parameter" needs "ctxbench.search_tool"`);
    return null;
  }
  if (typeof tool !== "string" || tool.trim() === "") throw new UsageError(`${file}: "ctxbench.search_tool" must be a tool name`);
  if (parameter !== undefined && parameter !== null && (typeof parameter !== "string" || parameter.trim() === "")) {
    throw new UsageError(`${file}: "ctxbench.search_parameter" must be a parameter name`);
  }
  return { tool, parameter: typeof parameter === "string" ? parameter : null };
}
