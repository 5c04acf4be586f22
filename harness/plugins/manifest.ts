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
  };
}
