/**
 * The layer order of docs/architecture.md ("Layers") holds in the code: every import of
 * harness/, engines/, scenarios/ and reports/ (tests included, type-only imports included) points
 * to its own layer or one listed above it, no two folders import each other round a cycle, and
 * every folder is in a layer. The list is read from the document, so changing the order is
 * changing the design, in one place.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const ROOTS = ["harness", "engines", "scenarios", "reports"];

/** The layers as the document lists them, lowest first; each a list of member names. */
export function layersOf(document: string): string[][] {
  const section = document.split(/^## /m).find((part) => part.startsWith("Layers"));
  const block = section?.match(/```\n([\s\S]*?)```/)?.[1];
  if (block === undefined) throw new Error('docs/architecture.md has no code block under "## Layers"');
  return block
    .split("\n")
    .map((line) => line.replace(/\([^)]*\)/g, "").trim())
    .filter((line) => line.length > 0)
    .map((line) => line.split("·").map((member) => member.trim()));
}

/** Where a member of the list lives: `harness/<name>` or a top-level `<name>`; `api` is harness/index.ts. */
function unitOf(name: string): string {
  if (name === "api") return "harness/index.ts";
  return existsSync(join(REPO, "harness", name)) ? `harness/${name}` : name;
}

/** The unit a file belongs to: its folder under harness/ (or harness/index.ts), or its top-level folder. */
function unitOfFile(file: string): string {
  const parts = relative(REPO, file).split("/");
  if (parts[0] === "harness") return `harness/${parts[1]}`;
  return parts[0]!;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return entry === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry) ? [path] : [];
  });
}

export interface Import {
  from: string;
  specifier: string;
  to: string;
}

/** Every relative import (static, dynamic, re-export, type-only) of the files under the roots. */
export function importsOf(files: readonly string[]): Import[] {
  return files.flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => ({ from: file, specifier, to: resolve(dirname(file), specifier) })),
  );
}

export interface LayerReport {
  /** Units (folders) that no layer lists. */
  unplaced: string[];
  /** Imports from a unit to one in a later layer, as readable lines. */
  upward: string[];
  /** Folder cycles, each as `a → b → a`. */
  cycles: string[];
}

export function checkLayers(layers: readonly string[][], imports: readonly Import[], units: readonly string[]): LayerReport {
  const rank = new Map<string, number>();
  layers.forEach((members, index) => members.forEach((member) => rank.set(unitOf(member), index)));
  const nameOf = (index: number) => layers[index]!.join(" · ");
  const unplaced = units.filter((unit) => !rank.has(unit));
  const upward: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const { from, specifier, to } of imports) {
    const [source, target] = [unitOfFile(from), unitOfFile(to)];
    if (source === target) continue;
    if (!edges.has(source)) edges.set(source, new Set());
    edges.get(source)!.add(target);
    const [a, b] = [rank.get(source), rank.get(target)];
    if (a !== undefined && b !== undefined && b > a)
      upward.push(`${relative(REPO, from)} imports ${specifier}: ${source} (layer "${nameOf(a)}") may not import ${target} (layer "${nameOf(b)}", above it)`);
  }
  return { unplaced, upward, cycles: cyclesOf(edges) };
}

/** Strongly connected groups of more than one unit (Tarjan), each written as one cycle through it. */
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit)!);
    stack.push(unit);
    onStack.add(unit);
    for (const next of edges.get(unit) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(unit, Math.min(low.get(unit)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(unit, Math.min(low.get(unit)!, index.get(next)!));
    }
    if (low.get(unit) === index.get(unit)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== unit);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const unit of [...edges.keys()].sort()) if (!index.has(unit)) visit(unit);
  return groups.map((group) => `${[...group, group[0]].join(" → ")}`);
}

describe("the layers of docs/architecture.md", () => {
  const layers = layersOf(readFileSync(join(REPO, "docs/architecture.md"), "utf8"));
  const files = ROOTS.flatMap((root) => sourceFiles(join(REPO, root)));
  const units = [...new Set(files.map(unitOfFile))].sort();

  it("reads the list from the document, lowest layer first", () => {
    expect(layers[0]).toEqual(["util"]);
    expect(layers.at(-1)).toContain("cli");
    expect(layers.flat()).toEqual(expect.arrayContaining(["contract", "host", "conformance", "bench", "result", "reports"]));
  });

  it("places every folder of the code in a layer", () => {
    expect(checkLayers(layers, [], units).unplaced, "add these to the Layers list of docs/architecture.md").toEqual([]);
  });

  it("lets no import point up the list", () => {
    expect(checkLayers(layers, importsOf(files), units).upward).toEqual([]);
  });

  it("has no cycle between folders", () => {
    expect(checkLayers(layers, importsOf(files), units).cycles).toEqual([]);
  });

  it("catches an upward import and a cycle when there is one", () => {
    const util = join(REPO, "harness/util/format.ts");
    const reports = join(REPO, "reports/tables.ts");
    const store = join(REPO, "harness/store/rows.ts");
    const trace = join(REPO, "harness/trace/events.ts");
    const report = checkLayers(
      layers,
      [
        { from: util, specifier: "../../reports/tables.ts", to: reports },
        { from: store, specifier: "../trace/events.ts", to: trace },
        { from: trace, specifier: "../store/rows.ts", to: store },
      ],
      units,
    );
    expect(report.upward).toEqual([
      'harness/util/format.ts imports ../../reports/tables.ts: harness/util (layer "util") may not import reports (layer "reports", above it)',
    ]);
    expect(report.cycles).toEqual(["harness/store → harness/trace → harness/store"]);
  });
});
