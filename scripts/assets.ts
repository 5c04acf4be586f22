/** What the build compiles from, and which of its other files the package ships beside the compiled modules. */
export const SOURCE_ROOTS = ["harness", "engines", "scenarios", "reports", "bridge"] as const;

const ASSET_EXTENSIONS = [".json", ".yaml", ".yml", ".py", ".mjs"];

/**
 * A file (path relative to the package root) the compiled code reads or runs at run time: every
 * JSON, YAML, Python and hand-written `.mjs` file of the source roots (the Hermes bridge under
 * bridge/ among them) except test data (anything under a `fixtures/` or `tests/` directory,
 * Python tests), and the bundled engines' READMEs.
 */
export function isShippedAsset(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  if (parts.includes("fixtures") || parts.includes("tests")) return false;
  if (/^test_.*\.py$|_test\.py$/.test(name)) return false;
  if (parts[0] === "engines" && name === "README.md") return true;
  return ASSET_EXTENSIONS.some((extension) => name.endsWith(extension));
}
