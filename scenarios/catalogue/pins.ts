import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { scenarioToJson } from "../io.ts";
import { buildScenario, DEFAULT_SEED, listScenarios } from "./index.ts";

/**
 * sha256 of each catalogue scenario's JSON at the default seed. The catalogue test compares the
 * pinned values; after a deliberate change to the generator or an entry, regenerate them with
 *   npx tsx scenarios/catalogue/pins.ts --write
 * and say in the commit why the bytes changed (traces and verdicts recorded against them move too).
 */
export const PINS_FILE = new URL("./pins.json", import.meta.url);

export function currentPins(): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const { name } of listScenarios()) pins[name] = createHash("sha256").update(scenarioToJson(buildScenario(name, DEFAULT_SEED))).digest("hex");
  return pins;
}

export function pinnedPins(): Record<string, string> {
  return JSON.parse(readFileSync(PINS_FILE, "utf8")) as Record<string, string>;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, "/")) && process.argv.includes("--write")) {
  writeFileSync(PINS_FILE, `${JSON.stringify(currentPins(), null, 2)}\n`);
  process.stdout.write(`wrote ${PINS_FILE.pathname}\n`);
}
