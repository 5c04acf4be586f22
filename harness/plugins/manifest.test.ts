import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readManifest } from "./manifest.ts";

const dirs: string[] = [];
function pluginWith(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ctxbench-manifest-"));
  dirs.push(dir);
  writeFileSync(join(dir, "plugin.yaml"), yaml);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("plugin.yaml's ctxbench section", () => {
  it("is optional, and names the search tool the quality suite asks", async () => {
    expect((await readManifest(pluginWith("name: a\n"))).searchTool).toBeNull();
    expect((await readManifest(pluginWith("name: a\nctxbench:\n  search_tool: find_notes\n"))).searchTool).toEqual({ tool: "find_notes", parameter: null });
    expect((await readManifest(pluginWith("name: a\nctxbench: {search_tool: find_notes, search_parameter: text}\n"))).searchTool).toEqual({ tool: "find_notes", parameter: "text" });
  });

  it.each([
    ["ctxbench: yes\n", /"ctxbench" must be a mapping/],
    ["ctxbench: {search_tol: x}\n", /unknown key "ctxbench\.search_tol" \(known: search_tool, search_parameter\)/],
    ["ctxbench: {search_tool: 3}\n", /"ctxbench\.search_tool" must be a tool name/],
    ["ctxbench: {search_parameter: text}\n", /"ctxbench\.search_parameter" needs "ctxbench\.search_tool"/],
    ["ctxbench: {search_tool: x, search_parameter: ''}\n", /"ctxbench\.search_parameter" must be a parameter name/],
  ])("rejects %j with a one-line error naming the file", async (section, message) => {
    const dir = pluginWith(`name: a\n${section}`);
    await expect(readManifest(dir)).rejects.toThrow(message);
    await expect(readManifest(dir)).rejects.toThrow(join(dir, "plugin.yaml"));
  });
});
