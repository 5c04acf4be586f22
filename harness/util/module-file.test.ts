import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { nodeArgumentsFor, siblingModule } from "./module-file.ts";

describe("siblingModule", () => {
  it("keeps the caller's own extension: .ts from the sources, .js compiled", () => {
    expect(siblingModule("file:///pkg/harness/cli/certify.ts", "../player/main")).toBe("/pkg/harness/player/main.ts");
    expect(siblingModule("file:///pkg/dist/harness/cli/certify.js", "../player/main")).toBe("/pkg/dist/harness/player/main.js");
    expect(siblingModule("file:///pkg/x/a.mts", "./b")).toBe("/pkg/x/b.mts");
  });
});

describe("nodeArgumentsFor", () => {
  it("runs JavaScript as it is and TypeScript through tsx, which it resolves itself", () => {
    expect(nodeArgumentsFor("/pkg/dist/main.js")).toEqual(["/pkg/dist/main.js"]);
    const [flag, loader, file] = nodeArgumentsFor("/pkg/main.ts");
    expect([flag, file]).toEqual(["--import", "/pkg/main.ts"]);
    expect(loader).toMatch(/^file:\/\/.*\/tsx\//);
  });

  it("gives arguments that run a TypeScript module from any working directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-module-file-"));
    const file = join(dir, "main.ts");
    writeFileSync(file, 'const answer: number = 42;\nconsole.log(answer, import.meta.url === process.argv[2]);\n');
    expect(execFileSync(process.execPath, [...nodeArgumentsFor(file), pathToFileURL(file).href], { cwd: dir, encoding: "utf8" })).toBe("42 true\n");
  });
});
