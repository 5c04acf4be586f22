import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findPython, PythonUnavailable } from "./python.ts";

const dir = mkdtempSync(join(tmpdir(), "ctxbench-python-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeInterpreter(name: string, script: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe("findPython", () => {
  it("resolves python3 on PATH to the interpreter's own executable and version", () => {
    const python = findPython();
    expect(python.version).toMatch(/^3\.\d+\.\d+$/);
    expect(python.executable.startsWith("/")).toBe(true);
  });

  it("a --python path that does not exist is one line", () => {
    expect(() => findPython(join(dir, "nope"))).toThrow(new PythonUnavailable(`--python ${join(dir, "nope")}: no executable file there`));
  });

  it("an interpreter older than 3.10 is refused, saying which", () => {
    const old = fakeInterpreter("python3.8", 'echo 3.8.10; echo "$0"');
    expect(() => findPython(old)).toThrow(/is Python 3\.8\.10; the Hermes bridge needs Python 3\.10 or later/);
  });

  it("something that is not Python is refused", () => {
    const broken = fakeInterpreter("notpython", "exit 3");
    expect(() => findPython(broken)).toThrow(PythonUnavailable);
  });

  it("no python3 on PATH is one line", () => {
    expect(() => findPython(undefined, { PATH: dir })).toThrow(/no python3 on PATH/);
  });
});
