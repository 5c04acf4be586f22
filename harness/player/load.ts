import { basename } from "node:path";
import { disposeEngine } from "../contract/native.ts";
import type { PlayableEngine } from "../conformance/play-source.ts";
import type { EngineInfo, EngineSpec } from "../plugins/spec.ts";
import { clashNotice } from "../plugins/select.ts";
import { EngineLoadFailure, engineLoaderFor, registeredLanguages } from "./loaders/index.ts";
import { readName } from "./loaders/typescript.ts";
import type { SearchToolHint } from "../bench/suites/search-tool.ts";

export interface PlayerEngine {
  info: EngineInfo;
  engine: PlayableEngine;
  /** plugin.yaml's hint for the quality benchmark's search tool. */
  searchTool: SearchToolHint | null;
}

/**
 * Find the planned engine: each candidate, in the plan's order, through the loader of its
 * language. The first directory candidate, or the first general/module candidate that
 * registers the selected name, is the engine. Throws EngineLoadFailure with one line otherwise.
 */
export async function loadPlannedEngine(spec: EngineSpec, sandbox: string): Promise<PlayerEngine> {
  const causes: string[] = [];
  const bundledAlso = spec.candidates.some((candidate) => candidate.bundled);
  for (const candidate of spec.candidates) {
    const loader = engineLoaderFor(candidate.language);
    if (loader === undefined) {
      const message = `${candidate.location}: a ${candidate.language} plugin, and this ctxbench has no loader for ${candidate.language} (it loads: ${registeredLanguages().join(", ")})`;
      if (candidate.path === "directory") throw new EngineLoadFailure(message);
      causes.push(message);
      continue;
    }
    let loaded;
    try {
      loaded = await loader.load(candidate, { name: spec.name, sandbox, runtime: spec.runtime });
    } catch (error) {
      if (candidate.path === "directory" || !(error instanceof EngineLoadFailure)) throw error;
      causes.push(error.message);
      continue;
    }
    if (loaded === null) continue;
    const reportedName = readName(loaded.first, candidate.entry);
    const version = candidate.manifest?.version ?? ownVersion(loaded.first);
    // Every run gets a fresh engine: the one made while loading (for a Python plugin, a process) is let go of.
    await disposeEngine(loaded.first).catch(() => undefined);
    const notices = [...loaded.notices];
    if (!candidate.bundled && bundledAlso && candidate.path !== "directory") notices.push(clashNotice(spec.name, candidate.location));
    const info: EngineInfo = {
      name: spec.name,
      selection: spec.selection,
      reportedName,
      version,
      language: candidate.language,
      path: candidate.path,
      bundled: candidate.bundled,
      location: candidate.location,
      // A checkout's built-in compressor is named by its selection, as a directory is by its name.
      directoryName: candidate.path === "module" ? null : candidate.mode === "builtin-compressor" ? spec.name : basename(candidate.location),
      manifestName: candidate.manifest?.name ?? null,
      notices,
    };
    const engine: PlayableEngine = {
      selectedName: spec.name,
      manifestName: info.manifestName,
      version,
      origin: { path: candidate.path, bundled: candidate.bundled, directoryName: info.directoryName, manifestName: info.manifestName, language: candidate.language },
      createFresh: loaded.createFresh,
    };
    return { info, engine, searchTool: candidate.manifest?.searchTool ?? null };
  }
  const tried = spec.candidates.map((candidate) => candidate.location).join(", ");
  throw new EngineLoadFailure(`context engine "${spec.name}" not found: no plugin registered it (tried ${tried})${causes.length > 0 ? `; ${causes.join("; ")}` : ""}`);
}

function ownVersion(engine: object): string | null {
  try {
    const version = (engine as { version?: unknown }).version;
    return typeof version === "string" ? version : null;
  } catch {
    return null;
  }
}
