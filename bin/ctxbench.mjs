#!/usr/bin/env node
// An installed package runs its compiled JavaScript (dist/). A checkout does too when dist/ was
// built from its sources as they are now (bin/built.mjs); otherwise it runs its TypeScript
// sources through tsx, so what runs is never an out-of-date build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { builtFromCurrentSources } from "./built.mjs";

const sources = new URL("../harness/cli/bin.ts", import.meta.url);
if (existsSync(sources) && !builtFromCurrentSources(fileURLToPath(new URL("..", import.meta.url)))) {
  const [{ register: registerEsm }, { register: registerCjs }] = await Promise.all([import("tsx/esm/api"), import("tsx/cjs/api")]);
  registerEsm();
  registerCjs();
  // harness/plugins/typescript-loader.ts reads this: TypeScript plugins need no second registration.
  globalThis[Symbol.for("ctxbench.typescript-loader")] = true;
  await import(sources.href);
} else {
  await import("../dist/harness/cli/bin.js");
}
