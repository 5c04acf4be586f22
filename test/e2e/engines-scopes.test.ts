import { describe, expect, it } from "vitest";
import { projectWithScopes, scratchTreesPerTest } from "../../harness/plugins/test-support.ts";
import { ctxbench } from "./support.ts";

const scratch = scratchTreesPerTest();
const EXTENSIONS = ["ts", "mts", "cts", "js", "mjs", "cjs"] as const;
const SCOPES = ["commonjs", "module"] as const;

// As a process: inside a vitest worker `ctxbench` resolves to its TypeScript sources (the
// ctxbench-source condition), which a CommonJS plugin's require() cannot load; a user's
// process never has that condition.
describe("ctxbench engines list over plugins in every package scope and entry extension", () => {
  it("engines list --load shows all twelve loading", async () => {
    const project = await projectWithScopes(scratch);
    const result = await ctxbench(["engines", "list", "--plugins", "commonjs", "module", "--json", "--load"], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const { engines } = JSON.parse(result.stdout) as { engines: Array<{ name: string; bundled: boolean; load: { ok: boolean; engineName: string } }> };
    const user = engines.filter((engine) => !engine.bundled);
    expect(user.map((engine) => [engine.name, engine.load.ok, engine.load.engineName])).toEqual(
      SCOPES.flatMap((scope) => [...EXTENSIONS].sort().map((extension) => [`${scope}-${extension}`, true, `${scope}-${extension}`])),
    );
  });
});
