import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { changedPaths, snapshotTrees } from "./tree-watch.ts";

const root = mkdtempSync(join(tmpdir(), "ctxbench-tree-watch-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const base = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(base, path, ".."), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  return base;
}

describe("watching the user's tree for writes outside the sandbox", () => {
  it("sees a changed and a removed file in the working directory, but not a file another process adds beside the run", () => {
    const cwd = tree("cwd", { "src/a.ts": "a", "notes.txt": "n", "node_modules/x/index.js": "x", ".git/HEAD": "h" });
    const roots = [{ path: cwd, additions: false }];
    const before = snapshotTrees(roots, []);
    writeFileSync(join(cwd, "src/a.ts"), "changed!");
    utimesSync(join(cwd, "src/a.ts"), new Date(0), new Date(0));
    unlinkSync(join(cwd, "notes.txt"));
    writeFileSync(join(cwd, "new.txt"), "another process's output");
    writeFileSync(join(cwd, "node_modules/x/index.js"), "y");
    writeFileSync(join(cwd, ".git/HEAD"), "moved");
    expect(changedPaths(before, snapshotTrees(roots, []))).toEqual([
      { path: join(cwd, "notes.txt"), change: "removed" },
      { path: join(cwd, "src/a.ts"), change: "changed" },
    ]);
  });

  it("sees anything new in a plugin directory, and leaves out the paths it is told to skip", () => {
    const plugins = tree("plugins", { "mine/index.ts": "export {}" });
    const out = join(plugins, "mine", "out");
    const roots = [{ path: join(plugins, "mine"), additions: true }];
    const before = snapshotTrees(roots, [out]);
    writeFileSync(join(plugins, "mine", "state.db"), "engine state");
    mkdirSync(out);
    writeFileSync(join(out, "report.md"), "ctxbench's own output");
    mkdirSync(join(plugins, "mine", "__pycache__"));
    writeFileSync(join(plugins, "mine", "__pycache__", "x.pyc"), "");
    expect(changedPaths(before, snapshotTrees(roots, [out]))).toEqual([{ path: join(plugins, "mine", "state.db"), change: "added" }]);
  });

  it("leaves out the file its own stdout is redirected into (ctxbench certify --format json > result.json)", () => {
    const cwd = tree("redirected", { "src/a.ts": "a" });
    const output = openSync(join(cwd, "result.json"), "w");
    const program = `import { changedPaths, snapshotTrees } from ${JSON.stringify(new URL("./tree-watch.ts", import.meta.url).href)};
const roots = [{ path: ${JSON.stringify(cwd)}, additions: false }];
const before = snapshotTrees(roots, []);
process.stdout.write("x".repeat(10000));
await new Promise((resolve) => setTimeout(resolve, 20));
process.stderr.write(JSON.stringify(changedPaths(before, snapshotTrees(roots, []))));`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", program], { stdio: ["ignore", output, "pipe"], encoding: "utf8" });
    closeSync(output);
    expect(child.status, child.stderr).toBe(0);
    expect(readFileSync(join(cwd, "result.json"), "utf8")).toHaveLength(10000);
    expect(JSON.parse(child.stderr)).toEqual([]);
  });

  it("does not watch the temporary directory from above it, where every process on the machine writes", () => {
    const roots = [{ path: tmpdir(), additions: false }];
    const snapshot = snapshotTrees(roots, []);
    expect([...snapshot.entries.keys()].some((path) => path.startsWith(root))).toBe(false);
  });
});
