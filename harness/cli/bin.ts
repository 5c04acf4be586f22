import module from "node:module";
import { runCli } from "./main.ts";

// Node 22.1+ keeps compiled bytecode between runs; Node 20 has no compile cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
process.exitCode = await runCli(process.argv.slice(2));
