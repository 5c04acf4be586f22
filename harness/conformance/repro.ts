import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalJson } from "../trace/canonical-json.ts";
import { replayCommands } from "./certification.ts";
import { abridge } from "./excerpt.ts";
import type { EvaluatedCheck } from "./types.ts";

/** File name of a check's repro: its id with the slash made safe. */
export function reproFileName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9-]+/g, "_")}.md`;
}

/** A self-contained Markdown repro: what failed, how to replay it, and the trace excerpt that shows it. */
export function renderRepro(result: EvaluatedCheck, engine: string, seed: number): string {
  const commands = replayCommands(engine, result, seed);
  const lines = [
    `# ${result.id}: ${result.outcome}`,
    "",
    `- engine: ${engine}`,
    `- rule: ${result.rule} (${result.level}) — ${result.title}`,
    `- runs read: ${result.sources.join(", ")}`,
    `- seed: ${seed}`,
    "",
    result.message,
    "",
    "## Replay",
    "",
    "```sh",
    commands.certify,
    ...commands.runs,
    "```",
    "",
    "## Trace excerpt",
    "",
  ];
  if (result.evidence.length === 0) lines.push("(no events: the run itself failed before the check could read it)");
  for (const item of result.evidence) {
    lines.push(`### ${item.source} event ${item.seq}: ${item.note}`, "", "```json", JSON.stringify(JSON.parse(canonicalJson(abridge(item.event))), null, 2), "```", "");
  }
  return `${lines.join("\n")}\n`;
}

/** Writes one repro file per given result; returns the paths. */
export function writeRepros(directory: string, results: readonly EvaluatedCheck[], engine: string, seed: number): string[] {
  if (results.length === 0) return [];
  mkdirSync(directory, { recursive: true });
  return results.map((result) => {
    const path = join(directory, reproFileName(result.id));
    writeFileSync(path, renderRepro(result, engine, seed));
    return path;
  });
}
