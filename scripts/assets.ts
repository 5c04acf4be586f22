/** What the build compiles from, and which of its other files the package ships beside the compiled modules. */
export const SOURCE_ROOTS = ["harness", "engines", "scenarios", "reports"] as const;

const ASSET_EXTENSIONS = [".json", ".yaml", ".yml", ".py"];

/**
 * A file (path relative to the package root) the compiled code reads at run time: every JSON,
 * YAML and Python file of the source roots except test data (anything under a `fixtures/`
 * directory, Python tests), and the bundled engines' READMEs.
 */
export function isShippedAsset(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  if (parts.includes("fixtures")) return false;
  if (/^test_.*\.py$|_test\.py$/.test(name)) return false;
  if (parts[0] === "engines" && name === "README.md") return true;
  return ASSET_EXTENSIONS.some((extension) => name.endsWith(extension));
}
