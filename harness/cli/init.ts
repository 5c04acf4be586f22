import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { ENGINE_NAME_PATTERN, scaffoldDevDependencies, scaffoldFiles } from "./scaffold.ts";
import { UsageError } from "../util/errors.ts";
import { readTextInput } from "../util/input-limits.ts";
import type { CliIo } from "./io.ts";
import { prepareOutputDirectory, prepareOutputFile, removeCreated, writeFilesAtomically, type OutputFile } from "./output-paths.ts";
import { parsePath } from "./option-values.ts";

interface InitArgs {
  name: string;
  dir: string;
  install: boolean;
  force: boolean;
}

// What `npm init -y` writes as the test script.
const NPM_PLACEHOLDER_TEST = 'echo "Error: no test specified" && exit 1';

/** `ctxbench init [NAME]`: a new engine project that certifies as generated. */
export function initCommand(io: CliIo): CommandModule<object, InitArgs> {
  return {
    command: "init [name]",
    describe: "Scaffold an engine plugin that certifies as generated: plugins/NAME/, a test, a tsconfig and a CI workflow",
    builder: (yargs: Argv) =>
      yargs
        .positional("name", { type: "string", default: "my-engine", describe: "The engine's name: its plugin directory, plugin.yaml name and name property" })
        .option("dir", { type: "string", default: ".", coerce: (raw: unknown) => parsePath("--dir", raw), describe: "The project directory (its package.json gets the test tools)" })
        .option("install", { type: "boolean", default: true, describe: "Run npm install when the test tools were added to package.json (--no-install to skip)" })
        .option("force", { type: "boolean", default: false, describe: "Overwrite the engine's files if they exist" })
        .example("$0 init my-engine", "plugins/my-engine/{plugin.yaml,index.ts,index.test.ts}, tsconfig.json, .github/workflows/certify.yml")
        .example("$0 init lcm-lite --dir ../engines --no-install", "scaffold elsewhere, install later") as unknown as Argv<InitArgs>,
    handler: (args) => init(io, args),
  };
}

function init(io: CliIo, args: InitArgs): void {
  if (!ENGINE_NAME_PATTERN.test(args.name)) {
    throw new UsageError(`engine name ${JSON.stringify(args.name)}: use lowercase letters and digits, words joined by "-" or "_" (e.g. my-engine)`);
  }
  // The project directory is checked (and made) before anything is written; the files are written as one set.
  const prepared = prepareOutputDirectory("--dir", args.dir, io.cwd);
  const project = prepared.path;
  const created = [...prepared.created];
  let manifest: PackageJsonUpdate;
  const written: string[] = [];
  try {
    const files = scaffoldFiles(args.name);
    const clashes = files.filter((file) => !file.keepExisting && existsSync(join(project, file.path)));
    if (clashes.length > 0 && !args.force) {
      throw new UsageError(`${clashes.map((file) => join(project, file.path)).join(", ")} already exist${clashes.length === 1 ? "s" : ""}; nothing written (--force overwrites)`);
    }
    const outputs: OutputFile[] = [];
    for (const file of files) {
      const target = join(project, file.path);
      if (file.keepExisting && existsSync(target)) {
        io.stderr(`kept your ${file.path}${file.path === "tsconfig.json" ? ' (it must include "plugins" for npx tsc --noEmit to check the engine)' : ""}\n`);
        continue;
      }
      created.push(...prepareOutputFile("--dir", join(args.dir, file.path), io.cwd).created);
      outputs.push({ path: target, data: file.content });
      written.push(file.path);
    }
    manifest = updatePackageJson(io, project, args.name);
    writeFilesAtomically([...outputs, { path: join(project, "package.json"), data: manifest.content }]);
  } catch (error) {
    removeCreated(created);
    throw error;
  }
  for (const path of [...written, ...manifest.changes]) io.stdout(`  ${path}\n`);

  if (manifest.addedTools && args.install) runNpmInstall(io, project);
  io.stdout(nextSteps(args, manifest.addedTools && !args.install));
}

interface PackageJsonUpdate {
  changes: string[];
  addedTools: boolean;
  /** The new package.json, written with the engine's files. */
  content: string;
}

/** Adds the test tools (devDependencies) and the test and certify scripts, keeping everything the project already has. */
function updatePackageJson(io: CliIo, project: string, name: string): PackageJsonUpdate {
  const path = join(project, "package.json");
  let manifest: Record<string, unknown>;
  let created = false;
  if (existsSync(path)) {
    try {
      manifest = JSON.parse(readTextInput(path, "package.json files")) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`${path}: not valid JSON (${(error as Error).message}); nothing written`);
    }
    if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) throw new UsageError(`${path}: not a JSON object; nothing written`);
  } else {
    manifest = { name: basename(project).toLowerCase().replace(/[^a-z0-9-_.]/g, "-"), version: "0.1.0", private: true, type: "module" };
    created = true;
  }
  const has = (section: string, key: string) => typeof manifest[section] === "object" && manifest[section] !== null && key in (manifest[section] as object);
  const devDependencies = { ...((manifest["devDependencies"] as Record<string, string> | undefined) ?? {}) };
  const added = Object.entries(scaffoldDevDependencies()).filter(([tool]) => !has("dependencies", tool) && !has("devDependencies", tool));
  for (const [tool, version] of added) devDependencies[tool] = version;
  if (added.length > 0) manifest["devDependencies"] = Object.fromEntries(Object.entries(devDependencies).sort(([a], [b]) => (a < b ? -1 : 1)));
  const scripts = { ...((manifest["scripts"] as Record<string, string> | undefined) ?? {}) };
  const scriptChanges: string[] = [];
  if (scripts["test"] === undefined || scripts["test"] === NPM_PLACEHOLDER_TEST) {
    scripts["test"] = "tsc --noEmit && vitest run";
    scriptChanges.push("test");
  }
  if (scripts["certify"] === undefined) {
    scripts["certify"] = `ctxbench certify --plugins plugins --engine ${name}`;
    scriptChanges.push("certify");
  }
  manifest["scripts"] = scripts;
  if (!has("dependencies", "ctxbench") && !has("devDependencies", "ctxbench")) {
    io.stderr('warning: package.json does not list ctxbench: the engine imports it, so add it (npm install --save-dev <ctxbench tarball or git URL>; see ctxbench\'s README)\n');
  }
  const what = [...(added.length > 0 ? [`devDependencies ${added.map(([tool]) => tool).join(", ")}`] : []), ...scriptChanges.map((script) => `script "${script}"`)];
  return {
    changes: created ? ["package.json (new)"] : what.length > 0 ? [`package.json: ${what.join(", ")}`] : [],
    addedTools: added.length > 0,
    content: `${JSON.stringify(manifest, null, 2)}\n`,
  };
}

function runNpmInstall(io: CliIo, project: string): void {
  // Under npx, npm_execpath is the npm that is running: use the same one.
  const npmCli = io.env["npm_execpath"];
  const [command, prefix] = npmCli && /npm-cli\.js$/.test(npmCli) ? [process.execPath, [npmCli]] : ["npm", []];
  io.stderr("running npm install for the test tools…\n");
  const result = spawnSync(command, [...prefix, "install", "--no-audit", "--no-fund"], { cwd: project, env: io.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.error) throw new UsageError(`npm install could not start (${result.error.message}); run it yourself in ${project}`);
  if (result.status !== 0) {
    io.stderr(result.stderr);
    throw new UsageError(`npm install failed (exit ${result.status}) in ${project}; the files are written: fix the install and run npm install`);
  }
}

function nextSteps(args: InitArgs, installPending: boolean): string {
  const cd = args.dir === "." ? [] : [`cd ${args.dir}`];
  const steps = [
    ...cd,
    ...(installPending ? ["npm install"] : []),
    `npx ctxbench certify --plugins plugins --engine ${args.name}   # the verdict`,
    "npx vitest run                                        # each check as a test, in under a second",
    "npx tsc --noEmit                                      # type-check the engine",
  ];
  return `\nNext:\n${steps.map((step) => `  ${step}\n`).join("")}Then make compress() yours in plugins/${args.name}/index.ts.\n`;
}
