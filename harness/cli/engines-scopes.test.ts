import { describe, expect, it } from "vitest";
import { projectWithScopes, scratchTreesPerTest } from "../plugins/test-support.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";

const scratch = scratchTreesPerTest();
const EXTENSIONS = ["ts", "mts", "cts", "js", "mjs", "cjs"] as const;
const SCOPES = ["commonjs", "module"] as const;

describe("ctxbench engines list over plugins in every package scope and entry extension", () => {
  it("engines list --load shows all twelve loading", async () => {
    const io = memoryIo(await projectWithScopes(scratch));
    expect(await runCli(["engines", "list", "--plugins", "commonjs", "module", "--json", "--load"], io), io.err()).toBe(0);
    const { engines } = JSON.parse(io.out()) as { engines: Array<{ name: string; bundled: boolean; load: { ok: boolean; engineName: string } }> };
    const user = engines.filter((engine) => !engine.bundled);
    expect(user.map((engine) => [engine.name, engine.load.ok, engine.load.engineName])).toEqual(
      SCOPES.flatMap((scope) => [...EXTENSIONS].sort().map((extension) => [`${scope}-${extension}`, true, `${scope}-${extension}`])),
    );
  });
});
