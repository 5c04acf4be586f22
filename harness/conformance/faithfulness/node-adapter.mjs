// The Node adapter's entry: the engine protocol on stdin/stdout. From a checkout it runs the
// TypeScript sources through tsx; in an installed package, the compiled module beside it.
import { existsSync } from "node:fs";

const sources = new URL("./node-adapter.ts", import.meta.url);
if (existsSync(sources)) {
  (await import("tsx/esm/api")).register();
  // harness/plugins/typescript-loader.ts reads this: a TypeScript engine needs no second registration.
  globalThis[Symbol.for("ctxbench.typescript-loader")] = true;
}
const { serveStdio } = await import(existsSync(sources) ? sources.href : "./node-adapter.js");
serveStdio();
