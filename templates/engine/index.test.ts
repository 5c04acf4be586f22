import { describeConformance } from "ctxbench/vitest";
import { __CLASS__ } from "./index.ts";

// Every ctxbench conformance check as a test, on the check's probes (well under a second).
// `scenarios: true` also plays the catalogue scenarios, as `npx ctxbench certify` does.
describeConformance(() => new __CLASS__(), { plugin: "plugins/__NAME__" });
