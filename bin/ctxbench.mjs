#!/usr/bin/env node
// An installed package runs its compiled JavaScript (dist/). A checkout runs its TypeScript
// sources through tsx instead, so what runs is never an out-of-date build.
import { existsSync } from "node:fs";

const sources = new URL("../harness/cli/bin.ts", import.meta.url);
if (existsSync(sources)) {
  const [{ register: registerEsm }, { register: registerCjs }] = await Promise.all([import("tsx/esm/api"), import("tsx/cjs/api")]);
  registerEsm();
  registerCjs();
  // harness/plugins/typescript-loader.ts reads this: TypeScript plugins need no second registration.
  globalThis[Symbol.for("ctxbench.typescript-loader")] = true;
  await import(sources.href);
} else {
  await import("../dist/harness/cli/bin.js");
}
