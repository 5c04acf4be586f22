import Table from "cli-table3";
import type { Argv, CommandModule } from "yargs";
import { CHECKS } from "../conformance/checks/index.ts";
import { findRule } from "../conformance/rules.ts";
import { PROBES } from "../conformance/probes/index.ts";
import { UsageError } from "../util/errors.ts";
import type { CliIo } from "./io.ts";
import { parseText } from "./option-values.ts";

/** One check as `checks list` describes it. */
export interface CheckListing {
  id: string;
  rule: string;
  level: string;
  title: string;
  /** The rule's statement (RULES.md is the normative text). */
  statement: string;
  scenarios: string[];
  probes: string[];
}

export function checkListings(rule?: string): CheckListing[] {
  return CHECKS.filter((check) => rule === undefined || check.rule === rule).map((check) => ({
    id: check.id,
    rule: check.rule,
    level: check.level,
    title: check.title,
    statement: findRule(check.rule)?.statement ?? "",
    scenarios: [...check.scenarios],
    probes: [...check.probes],
  }));
}

/** `ctxbench checks list [--rule ID] [--json]`: the check catalogue and what each check reads. */
export function checksCommand(io: CliIo): CommandModule<object, object> {
  return {
    command: "checks <command>",
    describe: "List the conformance checks: ids, levels, titles and the scenarios and probes each reads",
    builder: (yargs: Argv) =>
      yargs
        .command(listCommand(io))
        .demandCommand(1, "Name a checks command: list.")
        .example("ctxbench checks list", "every check, its level and what it reads")
        .example("ctxbench checks list --rule CMP-2", "the checks of one rule")
        .example("ctxbench checks list --json", "the catalogue for scripts"),
    handler: () => undefined,
  };
}

function listCommand(io: CliIo): CommandModule<object, { rule?: string | undefined; json: boolean }> {
  return {
    command: "list",
    describe: "Every check: id, level (MUST decides the verdict, SHOULD warns), title, and the scenarios and probes it reads",
    builder: (y) =>
      y
        .option("rule", { type: "string", coerce: (raw: unknown) => parseText("--rule", raw, "a rule id (e.g. CMP-2)"), describe: "Only the checks of this rule id (e.g. CMP-2, TCU-3)" })
        .option("json", { type: "boolean", default: false, describe: "Print a JSON array instead of a table" }),
    handler: (args) => {
      const rule = args.rule?.trim().toUpperCase();
      if (rule !== undefined && !findRule(rule)) throw new UsageError(`unknown rule "${args.rule}"; rule ids look like CMP-2 (see ctxbench checks list)`);
      const listings = checkListings(rule);
      if (rule !== undefined && listings.length === 0) throw new UsageError(`rule ${rule} binds the host, not engines: the project's own tests prove it, no check certifies it`);
      if (args.json) {
        io.stdout(`${JSON.stringify(listings, null, 2)}\n`);
        return;
      }
      const table = new Table({ head: ["check", "level", "title", "reads"], colWidths: [36, 8, 52, 40], wordWrap: true, style: io.isTty ? { head: ["cyan"] } : { head: [], border: [] } });
      for (const listing of listings) table.push([listing.id, listing.level, listing.title, reads(listing)]);
      io.stdout(`${table.toString()}\n${listings.length} checks; a probe is a deterministic driver of the engine's hooks (${[...PROBES.keys()].join(", ")}), a scenario is played through the reference host (ctxbench scenarios list).\n`);
    },
  };
}

function reads(listing: CheckListing): string {
  const parts = [];
  if (listing.probes.length > 0) parts.push(`probes: ${listing.probes.join(", ")}`);
  if (listing.scenarios.length > 0) parts.push(`scenarios: ${listing.scenarios.join(", ")}`);
  return parts.join("; ");
}
