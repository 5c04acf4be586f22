import { describeConformance } from "ctxbench/vitest";

// Every ctxbench conformance check as a test, judged as `npx ctxbench certify` judges it: the
// engine in plugins/__NAME__ runs in a player process, on the checks' probes (a few seconds).
// `scenarios: true` also plays the catalogue scenarios, as certify does.
describeConformance("plugins/__NAME__");
