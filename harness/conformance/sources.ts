import type { Check } from "./types.ts";

/** What a check reads: a catalogue scenario played through the reference host, or a probe. */
export type SourceKind = "scenario" | "probe";

/** One run to record: a scenario or probe at one seed. */
export interface SourceRef {
  kind: SourceKind;
  name: string;
  seed: number;
}

/** The label checks and evidence use for a run (`scenario:preflight`, `probe:usage`); the seed is apart. */
export const sourceLabel = (source: { kind: SourceKind; name: string }): string => `${source.kind}:${source.name}`;

/** A unique key for one run: the label and the seed. */
export const sourceKey = (source: SourceRef): string => `${sourceLabel(source)}#${source.seed}`;

/** The runs a check reads, scenarios first (without scenarios, only its probes), as labels. */
export function sourcesOf(check: Check, withScenarios: boolean): string[] {
  return [...(withScenarios ? check.scenarios.map((name) => `scenario:${name}`) : []), ...check.probes.map((id) => `probe:${id}`)];
}

export function parseSourceLabel(label: string): { kind: SourceKind; name: string } {
  const at = label.indexOf(":");
  const kind = label.slice(0, at);
  if (at < 0 || (kind !== "scenario" && kind !== "probe")) throw new Error(`not a source label: ${JSON.stringify(label)}`);
  return { kind, name: label.slice(at + 1) };
}

/**
 * Every run the checks read, each once per seed: a run is shared by every check naming it. In the
 * order the catalogue first names them, seed by seed.
 */
export function planSources(checks: readonly Check[], seeds: readonly number[], withScenarios: boolean): SourceRef[] {
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const check of checks) {
    for (const label of sourcesOf(check, withScenarios)) {
      if (seen.has(label)) continue;
      seen.add(label);
      labels.push(label);
    }
  }
  return seeds.flatMap((seed) => labels.map((label) => ({ ...parseSourceLabel(label), seed })));
}

/** The seeds a certification plays every run at unless told otherwise. */
export const DEFAULT_SEEDS: readonly number[] = [1];
