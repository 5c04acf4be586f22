/** Set by whoever registered tsx in this process (bin/ctxbench.mjs from a checkout, or the first TypeScript plugin). */
const REGISTERED = Symbol.for("ctxbench.typescript-loader");

let registering: Promise<void> | undefined;

/**
 * TypeScript plugins need no build step: the first one loaded registers tsx for ES modules and for
 * CommonJS alike (a `.ts` file in a `"type": "commonjs"` package is CommonJS). Compiled ctxbench
 * loads tsx only then, so commands that load no TypeScript never pay for it.
 */
export function ensureTypeScriptLoader(): Promise<void> {
  if ((globalThis as { [REGISTERED]?: boolean })[REGISTERED]) return Promise.resolve();
  registering ??= (async () => {
    const [esm, cjs] = await Promise.all([import("tsx/esm/api"), import("tsx/cjs/api")]);
    esm.register();
    cjs.register();
    (globalThis as { [REGISTERED]?: boolean })[REGISTERED] = true;
  })();
  return registering;
}
