import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findPython } from "./python.ts";

const BRIDGE_DIR = fileURLToPath(new URL("../../bridge/hermes/", import.meta.url));

describe("the Hermes bridge's own tests (unittest, standard library only)", () => {
  // Bounded by the run's own 180 s (execFile's), not vitest's 60 s: ~30 s of mostly waiting, longer under load.
  it("pass under python3 -I -B", async () => {
    const python = findPython();
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(python.executable, ["-I", "-B", "-W", "error::ResourceWarning", "-m", "unittest", "discover", "-s", "tests", "-t", "."], { cwd: BRIDGE_DIR, timeout: 180_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      });
    });
    expect(output).toMatch(/Ran \d+ tests/);
    expect(code, output.slice(-4000)).toBe(0);
  }, 180_000);
});
