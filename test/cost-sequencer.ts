import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest files first, across both projects. vitest's own order runs one project's files before
 * the other's and, without a results cache (a fresh clone, CI), keeps the glob's order: the heavy
 * unit files then started last and the run ended on one of them alone, a core idle. A file's
 * cost is its duration in the last local run when vitest has one, else its duration in a run
 * recorded in test/file-seconds.json (a hint: only the order depends on it), else nothing.
 */
const RECORDED = JSON.parse(readFileSync(new URL("file-seconds.json", import.meta.url), "utf8")) as Record<string, number>;

export class CostSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const cost = new Map<TestSpecification, number>();
    for (const file of files) {
      const path = relative(root, file.moduleId).split("\\").join("/");
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      cost.set(file, cached !== undefined && !cached.failed ? cached.duration / 1000 : (RECORDED[path] ?? 0));
    }
    return [...files].sort((a, b) => cost.get(b)! - cost.get(a)!);
  }
}
