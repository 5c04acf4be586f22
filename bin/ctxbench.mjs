#!/usr/bin/env node
// ctxbench ships TypeScript sources; tsx's global loader keeps one module graph, so a plugin
// that imports "ctxbench" sees the same contract the CLI runs.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../harness/cli/main.ts");
process.exitCode = await runCli(process.argv.slice(2));
