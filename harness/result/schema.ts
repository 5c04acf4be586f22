/**
 * The one result JSON: what `certify --format json` prints, what `--out DIR` writes as
 * result.json, and what `report` and `merge` read. Composed of the certification fragments
 * (conformance/check-result.ts) and every registered bench suite's own shape; its types are
 * derived from it and result.schema.json is generated from it. No wall-clock times anywhere:
 * only durations, in fields whose name ends in `Ms`, so the same seed gives the same bytes apart
 * from those.
 */
import { benchSuites, type BenchSuiteResult } from "../bench/registry.ts";
import type { BenchSuite } from "../bench/suite.ts";
import { certificationSchema } from "../conformance/check-result.ts";
import { array, jsonSchemaDocument, literal, object, taggedUnion, typed, type Infer } from "../util/schema.ts";
import { runInfoSchema } from "./run-info.ts";

/** 2: one shape for every output; certifications record shard, seeds and check-set digest. */
export const RESULT_SCHEMA_VERSION = 2;

const DESCRIPTION =
  "ctxbench result: certifications and benchmarks of context-engine plugins, with the machine they ran on. " +
  "`ctxbench certify --format json` prints this document and `--out DIR` writes it as result.json; `ctxbench report` and `ctxbench merge` read it.";

/** The result schema over a set of bench suites (by default every registered one). */
export function resultSchemaOf(suites: readonly BenchSuite<any>[] = benchSuites()) {
  return object(
    {
      schemaVersion: literal(RESULT_SCHEMA_VERSION),
      runInfo: runInfoSchema,
      certifications: array(certificationSchema),
      benchmarks: array(typed<BenchSuiteResult>(taggedUnion("suite", suites.map((suite) => suite.shape) as never))),
    },
    { description: DESCRIPTION },
  );
}

export type ResultJson = Infer<ReturnType<typeof resultSchemaOf>>;

/** The JSON Schema (draft 2020-12) published as harness/result/result.schema.json. */
export function resultJsonSchema(): Record<string, unknown> {
  return jsonSchemaDocument(resultSchemaOf(), { $id: `urn:ctxbench:result:${RESULT_SCHEMA_VERSION}`, title: `ctxbench result (schema version ${RESULT_SCHEMA_VERSION})` });
}

/** The result with keys in schema order (evidence keys sorted): the bytes the json format writes. */
export function canonicalResult(result: ResultJson): ResultJson {
  return resultSchemaOf().canonical(result);
}
