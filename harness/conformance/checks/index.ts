import type { Check } from "../types.ts";
import { basicChecks } from "./basics.ts";
import { compressChecks } from "./compress.ts";
import { hookChecks } from "./hooks.ts";
import { runtimeChecks } from "./runtime.ts";

/** The check catalogue, in rule order. Ids are stable and never renumbered. */
export const CHECKS: readonly Check[] = [...basicChecks, ...compressChecks, ...hookChecks, ...runtimeChecks];

/** Checks whose id equals, or starts with, one of the selectors (`CMP-2` selects every CMP-2 check; `CMP` every CMP check). */
export function selectChecks(selectors: readonly string[], catalogue: readonly Check[] = CHECKS): Check[] {
  if (selectors.length === 0) return [...catalogue];
  return catalogue.filter((check) => selectors.some((selector) => check.id === selector || check.rule === selector || check.id.startsWith(selector)));
}
