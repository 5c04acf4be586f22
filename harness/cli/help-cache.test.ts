import yargs from "yargs";
import { describe, expect, it, vi } from "vitest";
import { skipHelpCache } from "./help-cache.ts";

async function helpRenders(skip: boolean): Promise<number> {
  const parser = yargs(["go", "--level", "2"])
    .command("go", "run it", (command) => command.option("level", { type: "number" }), () => undefined)
    .exitProcess(false);
  const usage = (parser as unknown as { getInternalMethods(): { getUsageInstance(): { help(): string } } }).getInternalMethods().getUsageInstance();
  const help = vi.spyOn(usage, "help");
  if (skip) skipHelpCache(parser);
  const argv = await parser.parseAsync();
  expect(argv["level"]).toBe(2);
  return help.mock.calls.length;
}

describe("skipHelpCache", () => {
  it("a command run renders no help it will not show (yargs alone renders it once the handler starts)", async () => {
    expect(await helpRenders(false)).toBeGreaterThan(0);
    expect(await helpRenders(true)).toBe(0);
  });
});
