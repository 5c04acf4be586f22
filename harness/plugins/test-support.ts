import { afterEach } from "vitest";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGE_ROOT } from "../util/package-root.ts";

/** The loader fixtures of test/fixtures/plugins. */
export const FIXTURES = fileURLToPath(new URL("../../test/fixtures/plugins/", import.meta.url));
export const FIXTURE_BUNDLED = join(FIXTURES, "bundled");
export const FIXTURE_USER = join(FIXTURES, "user");
export const FIXTURE_GENERAL = join(FIXTURES, "general");

/** A scratch directory holding the given files (relative path → text); returns its path and a cleanup. */
/** `scratch(files)` writes a temporary tree and returns its root; each is removed after its test. */
export function scratchTreesPerTest(): (files: Record<string, string>) => Promise<string> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return async (files) => {
    const tree = await scratchTree(files);
    cleanups.push(tree.cleanup);
    return tree.root;
  };
}

export async function scratchTree(files: Record<string, string>): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "ctxbench-plugins-"));
  for (const [relative, text] of Object.entries(files)) {
    const file = join(root, relative);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A plain-JavaScript engine module body with no imports, built on whichever base class it is given. */
export function engineSource(name: string, baseImport: string): string {
  return `import { ContextEngine } from ${JSON.stringify(baseImport)};
export class Engine extends ContextEngine {
  name = ${JSON.stringify(name)};
  update_from_response(usage) { this.last_prompt_tokens = usage.prompt_tokens; }
  should_compress() { return false; }
  compress(messages) { this.compression_count += 1; return messages; }
}
`;
}

/** The scope fixtures in a project where `ctxbench` is installed (as a link to this checkout). */
export async function projectWithScopes(scratch: (files: Record<string, string>) => Promise<string>): Promise<string> {
  const project = await scratch({});
  await cp(join(FIXTURES, "scopes"), project, { recursive: true });
  await mkdir(join(project, "node_modules"));
  await symlink(PACKAGE_ROOT, join(project, "node_modules/ctxbench"));
  return project;
}
