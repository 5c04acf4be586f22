import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { abridge } from "../conformance/excerpt.ts";
import type { EvaluatedCheck } from "../conformance/types.ts";
import { canonicalJson } from "../trace/canonical-json.ts";
import { replayCommands } from "./replay.ts";

/** File name of a check's repro: its id with the slash made safe. */
export function reproFileName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9-]+/g, "_")}.md`;
}

/** A self-contained Markdown repro: what failed, the runs and seeds that show it, how to replay each, and the trace excerpt. */
export function renderRepro(result: EvaluatedCheck, engine: string, flags: readonly string[]): string {
  const commands = replayCommands(flags, result);
  const lines = [
    `# ${result.id}: ${result.outcome}`,
    "",
    `- engine: ${engine}`,
    `- rule: ${result.rule} (${result.level}) — ${result.title}`,
    `- runs read: ${result.sources.join(", ")} at seed(s) ${result.seeds.join(", ")}`,
    `- shown by: ${result.shownBy.map((run) => `${run.source} at seed ${run.seed}`).join(", ")}`,
    "",
    result.message,
    "",
    "## Replay",
    "",
    "The check alone:",
    "",
    "```sh",
    commands.certify,
    ...(commands.certifyShown === null ? [] : ["# quicker while you fix it: only the scenarios that show it (and the check's probes)", commands.certifyShown]),
    "```",
    "",
    "Each run that shows it, its trace written to a file (the evidence below is in it):",
    "",
    "```sh",
    ...commands.runs.map((run) => run.command),
    "```",
    "",
    "## Trace excerpt",
    "",
  ];
  if (result.evidence.length === 0) lines.push("(no events: the run itself failed before the check could read it)");
  for (const item of result.evidence) {
    lines.push(`### ${item.source} (seed ${item.seed ?? result.seeds[0]}) event ${item.seq}: ${item.note}`, "", "```json", JSON.stringify(JSON.parse(canonicalJson(abridge(item.event))), null, 2), "```", "");
  }
  return `${lines.join("\n")}\n`;
}

/** Writes one repro file per given result; returns the paths. */
export function writeRepros(directory: string, results: readonly EvaluatedCheck[], engine: string, flags: readonly string[]): string[] {
  if (results.length === 0) return [];
  mkdirSync(directory, { recursive: true });
  return results.map((result) => {
    const path = join(directory, reproFileName(result.id));
    writeFileSync(path, renderRepro(result, engine, flags));
    return path;
  });
}
