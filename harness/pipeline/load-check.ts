import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { directoryCandidate } from "../plugins/select.ts";
import type { DiscoveredEngine } from "../plugins/types.ts";
import { PlayerProcess } from "../player/client.ts";
import { defaultBounds, type Bounds } from "./bounds.ts";
import { playerEnv } from "./env.ts";

/** Whether a plugin loads in a player, and the name its engine reports (REG-5). */
export interface LoadCheck {
  ok: boolean;
  engineName: string | null;
  error: string | null;
}

/**
 * Load each discovered engine in a player of its own (never in this process), a few at a time, each
 * bounded like a certification's load: a module that exits, hangs or throws at import is reported
 * as that engine's failure to load.
 */
export async function checkLoads(engines: readonly DiscoveredEngine[], env: NodeJS.ProcessEnv, python: { python?: string; hermesAgent?: string } = {}, overrides: Partial<Bounds> = {}): Promise<LoadCheck[]> {
  const bounds = defaultBounds(overrides);
  const sandbox = mkdtempSync(join(tmpdir(), "ctxbench-load-"));
  const checks: LoadCheck[] = new Array(engines.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < engines.length; index = next++) {
      const engine = engines[index]!;
      const cwd = join(sandbox, `player-${index}`);
      mkdirSync(join(cwd, "work"), { recursive: true });
      const spec = { name: engine.name, selection: engine.name, candidates: [directoryCandidate(engine)], runtime: { python: python.python ?? null, hermesAgent: python.hermesAgent === undefined ? null : resolve(python.hermesAgent), config: null } };
      const player = new PlayerProcess({ plan: { engine: spec, sandbox: join(cwd, "runs"), limits: bounds.limits }, cwd: join(cwd, "work"), env: playerEnv(env), heapMb: bounds.heapMb });
      const ready = await player.ready(bounds.loadTimeoutMs);
      player.kill();
      await player.close();
      checks[index] = ready.ok ? { ok: true, engineName: ready.engine?.reportedName ?? null, error: null } : { ok: false, engineName: null, error: ready.message.replace(/^the player /, "the player loading it ") };
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(bounds.players, engines.length)) }, lane));
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
  return checks;
}
