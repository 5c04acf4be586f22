import { execFileSync } from "node:child_process";
import { delimiter, isAbsolute, join } from "node:path";
import { UsageError } from "../util/errors.ts";
import { isExecutableFile } from "../util/executable-file.ts";

/** The Hermes bridge needs this Python or later. */
export const MIN_PYTHON: readonly [number, number] = [3, 10];

/** No usable Python interpreter (missing, not executable, or too old): exit 2, one line. */
export class PythonUnavailable extends UsageError {}

export interface PythonInterpreter {
  /** The interpreter's own executable (a pyenv or venv shim resolved to what it runs). */
  executable: string;
  version: string;
}

const resolved = new Map<string, PythonInterpreter>();

/**
 * The Python to run the Hermes bridge with: `--python PATH` if given, else `python3` on PATH.
 * It is asked for its version and its own executable once (so a shim script is not paid for on
 * every engine process); missing or older than 3.10 is a PythonUnavailable with one line to show.
 */
export function findPython(requested?: string, env: NodeJS.ProcessEnv = process.env): PythonInterpreter {
  const command = requested ?? "python3";
  const key = `${command}\0${env["PATH"] ?? ""}`;
  const known = resolved.get(key);
  if (known) return known;
  const path = requested !== undefined ? checkExplicit(requested) : onPath("python3", env);
  let answer: string;
  try {
    answer = execFileSync(path, ["-I", "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3]); print(sys.executable)"], {
      encoding: "utf8",
      env,
      timeout: 15_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    throw new PythonUnavailable(`${path} did not run as a Python interpreter: ${firstLine(error)}`);
  }
  const [version = "", executable = ""] = answer.trim().split("\n").map((line) => line.trim());
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    throw new PythonUnavailable(`${path} is Python ${version}; the Hermes bridge needs Python ${MIN_PYTHON.join(".")} or later (pick another with --python PATH)`);
  }
  const interpreter = { executable: executable && isAbsolute(executable) ? executable : path, version };
  resolved.set(key, interpreter);
  return interpreter;
}

function checkExplicit(path: string): string {
  if (!isExecutableFile(path)) throw new PythonUnavailable(`--python ${path}: no executable file there`);
  return path;
}

function onPath(name: string, env: NodeJS.ProcessEnv): string {
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new PythonUnavailable(`no ${name} on PATH: Python plugins need Python ${MIN_PYTHON.join(".")} or later (or pass --python PATH)`);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]!.trim();
}
