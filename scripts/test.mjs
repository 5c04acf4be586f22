// `npm test` after the build: the typecheck and vitest at once. tsc is single-threaded, so run
// before vitest it kept a core idle for its whole run (about 20 s on 2 cores). tsc's report is
// printed after vitest's, so the two never interleave; the exit status is vitest's when it failed, else tsc's.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const resolve = createRequire(import.meta.url).resolve;

const typecheck = new Promise((done) => {
  const tsc = spawn(process.execPath, [resolve("typescript/bin/tsc"), "--noEmit", "-p", ROOT], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  tsc.stdout.on("data", (chunk) => (output += chunk));
  tsc.stderr.on("data", (chunk) => (output += chunk));
  tsc.on("close", (code, signal) => done({ code: code ?? (signal ? 1 : 0), output }));
});
const tests = new Promise((done) => {
  const vitest = spawn(process.execPath, [join(dirname(resolve("vitest/package.json")), "vitest.mjs"), "run", ...process.argv.slice(2)], { cwd: ROOT, stdio: "inherit" });
  vitest.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
});

const [checked, tested] = await Promise.all([typecheck, tests]);
if (checked.code === 0) console.error("typecheck (tsc --noEmit): clean");
else process.stderr.write(`typecheck (tsc --noEmit) failed:\n${checked.output}`);
process.exit(tested !== 0 ? tested : checked.code);
