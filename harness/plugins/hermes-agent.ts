import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UsageError } from "../util/errors.ts";
import type { DiscoveredEngine, DiscoverOptions } from "./types.ts";

/** The module of a hermes-agent checkout that holds the built-in ContextCompressor. */
export const HERMES_COMPRESSOR_MODULE = join("agent", "context_compressor.py");

/**
 * `--hermes-agent DIR`: the checkout's built-in ContextCompressor as an engine named `compressor`
 * (constructed with its positional model argument by the Hermes bridge). A checkout without
 * `agent/context_compressor.py` is a UsageError.
 */
export async function hermesCompressor(options: DiscoverOptions): Promise<DiscoveredEngine | null> {
  if (options.hermesAgent === undefined) return null;
  const root = resolve(options.cwd, options.hermesAgent);
  const entry = join(root, HERMES_COMPRESSOR_MODULE);
  const isFile = await stat(entry).then((stats) => stats.isFile(), () => false);
  if (!isFile) throw new UsageError(`--hermes-agent ${root}: not a hermes-agent checkout (no ${HERMES_COMPRESSOR_MODULE})`);
  return {
    name: "compressor",
    manifestName: "compressor",
    version: null,
    description: `hermes-agent's built-in ContextCompressor (${root})`,
    searchTool: null,
    directory: root,
    entry,
    bundled: false,
    language: "python",
    mode: "builtin-compressor",
  };
}
