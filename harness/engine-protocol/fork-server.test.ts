import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { nativeFacts } from "../contract/native.ts";
import type { Message } from "../contract/types.ts";
import { processAlive } from "../util/process-alive.ts";
import { ForkServer } from "./fork-server.ts";
import { bridgeArgs, PythonEngineFactory, type PythonEngineOptions } from "./hermes.ts";
import { findPython } from "./python.ts";
import { ChannelClosed } from "./json-rpc.ts";
import { pluginsRoot, pythonEngine } from "./test-support.ts";

const MESSAGES: Message[] = [
  { role: "system", content: "s" },
  { role: "user", content: "a" },
  { role: "assistant", content: "b" },
];

// Each compress records the engine's process, its parent, and how many engines this module has made.
const WHO_AM_I = `def compress(self, messages, current_tokens=None, focus_topic=None):
    import os, sys
    made = sys.modules[type(self).__module__].MADE
    made.append(1)
    self.pid, self.ppid, self.made = os.getpid(), os.getppid(), len(made)
    return messages`;

const plugins = pluginsRoot();
const factories: PythonEngineFactory[] = [];
afterAll(() => plugins.remove());
afterEach(async () => {
  await Promise.all(factories.splice(0).map((factory) => factory.disposeAll()));
});

function factoryOf(options: PythonEngineOptions = {}): PythonEngineFactory {
  const name = `forked${factories.length}`;
  const directory = plugins.plugin(name, { "__init__.py": `MADE = []\n\n${pythonEngine(name, WHO_AM_I)}` });
  const factory = new PythonEngineFactory({ directory, selection: name, mode: "directory" }, options);
  factories.push(factory);
  return factory;
}

async function whoAmI(factory: PythonEngineFactory): Promise<{ pid: number; ppid: number; made: number }> {
  const engine = await factory.createFresh();
  await engine.compress(structuredClone(MESSAGES), 10);
  const attrs = nativeFacts(engine)!.attrs();
  return { pid: attrs["pid"] as number, ppid: attrs["ppid"] as number, made: attrs["made"] as number };
}

describe("the Hermes bridge's fork server", () => {
  it("forks every engine family from one server: each its own process, its modules as freshly imported", async () => {
    const factory = factoryOf();
    const first = await whoAmI(factory);
    const second = await whoAmI(factory);
    expect(first.pid).not.toBe(second.pid);
    // Both are children of the fork server, not of this process.
    expect(first.ppid).toBe(second.ppid);
    expect(first.ppid).not.toBe(process.pid);
    // The second engine's module did not see the first's: no state crosses families.
    expect([first.made, second.made]).toEqual([1, 1]);
  });

  it("CTXBENCH_PYTHON_FORK=0 starts an interpreter for each family instead", async () => {
    const factory = factoryOf({ env: { ...process.env, CTXBENCH_PYTHON_FORK: "0" } });
    const first = await whoAmI(factory);
    const second = await whoAmI(factory);
    expect([first.ppid, second.ppid]).toEqual([process.pid, process.pid]);
    expect([first.made, second.made]).toEqual([1, 1]);
  });

  it("a fork killed from outside ends its calls with the signal; the family after it is forked as before", async () => {
    const factory = factoryOf();
    const engine = await factory.createFresh();
    await engine.compress(structuredClone(MESSAGES), 10);
    process.kill(nativeFacts(engine)!.attrs()["pid"] as number, "SIGKILL");
    await expect(engine.compress(structuredClone(MESSAGES), 10)).rejects.toThrow("the engine's process was killed (SIGKILL)");
    const next = await whoAmI(factory);
    expect(next.ppid).not.toBe(process.pid);
  });

  it("when the server itself dies, its forks die with it and later families are spawned", async () => {
    const factory = factoryOf();
    const engine = await factory.createFresh();
    await engine.compress(structuredClone(MESSAGES), 10);
    const server = nativeFacts(engine)!.attrs()["ppid"] as number;
    const pid = nativeFacts(engine)!.attrs()["pid"] as number;
    process.kill(server, "SIGKILL");
    await expect.poll(() => processAlive(pid), { timeout: 5000 }).toBe(false);
    await expect(engine.compress(structuredClone(MESSAGES), 10)).rejects.toThrow(new ChannelClosed("the engine's process was killed (SIGKILL)"));
    const next = await whoAmI(factory);
    expect(next.ppid).toBe(process.pid);
  });

  it("leaves no socket behind once a fork has connected", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctxbench-fork-sockets-"));
    const python = findPython();
    const server = new ForkServer({ command: python.executable, args: bridgeArgs(python.version), socketRoot: root });
    try {
      const forked = await server.fork();
      expect(forked).not.toBeNull();
      expect(readdirSync(root)).toEqual([]);
      forked!.child.kill("SIGKILL");
    } finally {
      server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("takes no connection without the fork's secret for the fork's channel: another engine cannot pose as a fork", async () => {
    const impostor = join(fileURLToPath(new URL("../../test/fixtures/fork-server/", import.meta.url)), "impostor.mjs");
    const server = new ForkServer({ command: process.execPath, args: [impostor] });
    try {
      const forked = await server.fork();
      expect(forked).not.toBeNull();
      const [line] = (await once(createInterface({ input: forked!.streams.output }), "line")) as [string];
      expect(line).toBe("the fork's channel");
      forked!.child.kill("SIGKILL");
    } finally {
      server.close();
    }
  });

  it("answers null when it has nowhere to put a fork's socket, so the caller spawns", async () => {
    const python = findPython();
    const server = new ForkServer({ command: python.executable, args: bridgeArgs(python.version), socketRoot: join(tmpdir(), "ctxbench-no-such-directory", "below") });
    try {
      expect(await server.fork()).toBeNull();
    } finally {
      server.close();
    }
  });

  it("answers null when its interpreter cannot start, so the caller spawns", async () => {
    const server = new ForkServer({ command: "/nonexistent/python3", args: [] });
    expect(await server.fork()).toBeNull();
    server.close();
  });

  it("closing it ends the forks still running", async () => {
    const factory = factoryOf();
    const engine = await factory.createFresh();
    await engine.compress(structuredClone(MESSAGES), 10);
    const pid = nativeFacts(engine)!.attrs()["pid"] as number;
    await factory.disposeAll();
    await expect.poll(() => processAlive(pid), { timeout: 5000 }).toBe(false);
  });
});
