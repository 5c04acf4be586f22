import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ChannelClosed, JsonRpcPeer, RpcError } from "./json-rpc.ts";

function pair(handlers: Partial<ConstructorParameters<typeof JsonRpcPeer>[2]> = {}, maxLineBytes?: number) {
  const fromEngine = new PassThrough();
  const toEngine = new PassThrough();
  const written: string[] = [];
  toEngine.on("data", (chunk: Buffer) => written.push(chunk.toString()));
  const peer = new JsonRpcPeer(
    fromEngine,
    toEngine,
    { onRequest: async () => null, onNotification: () => undefined, ...handlers },
    maxLineBytes === undefined ? {} : { maxLineBytes },
  );
  return { peer, fromEngine, written };
}

describe("JsonRpcPeer", () => {
  it("matches answers to requests whatever order they come in, across chunk boundaries", async () => {
    const { peer, fromEngine, written } = pair();
    const first = peer.request("a", {});
    const second = peer.request("b", {});
    expect(written.map((line) => JSON.parse(line).id)).toEqual([1, 2]);
    const text = `${JSON.stringify({ jsonrpc: "2.0", id: 2, result: "two" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 1, result: "one" })}\n`;
    for (const piece of [text.slice(0, 7), text.slice(7, 40), text.slice(40)]) fromEngine.write(piece);
    expect(await Promise.all([first, second])).toEqual(["one", "two"]);
  });

  it("an error answer rejects with its code and data", async () => {
    const { peer, fromEngine } = pair();
    const pending = peer.request("a", {});
    fromEngine.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "TypeError: x", data: { type: "TypeError" } } })}\n`);
    const error = (await pending.catch((caught: unknown) => caught)) as RpcError;
    expect([error.code, error.message, error.data]).toEqual([-32000, "TypeError: x", { type: "TypeError" }]);
  });

  it("answers the other side's requests and passes notifications on", async () => {
    const seen: string[] = [];
    const { fromEngine, written } = pair({ onRequest: async (method, params) => ({ echo: method, params }), onNotification: (method) => seen.push(method) });
    fromEngine.write(`${JSON.stringify({ jsonrpc: "2.0", id: "b1", method: "llm.call", params: { task: "t" } })}\n${JSON.stringify({ jsonrpc: "2.0", method: "imports", params: {} })}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(written[0]!)).toEqual({ jsonrpc: "2.0", id: "b1", result: { echo: "llm.call", params: { task: "t" } } });
    expect(seen).toEqual(["imports"]);
  });

  it("a line that is not JSON, not JSON-RPC, or too long ends the channel and fails what is pending", async () => {
    for (const bad of ["not json\n", `${JSON.stringify({ id: 1, result: 2 })}\n`, `${"x".repeat(100)}`]) {
      const { peer, fromEngine } = pair({}, 50);
      const pending = peer.request("a", {});
      fromEngine.write(bad);
      const error = await pending.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChannelClosed);
      expect(peer.closed).not.toBeNull();
      await expect(peer.request("b", {})).rejects.toBe(peer.closed);
    }
  });

  it("says when answers, or the channel's end, settle its requests (a family's watchdog then lets go)", async () => {
    const left: number[] = [];
    const { peer, fromEngine } = pair({ onSettled: () => left.push(peer.pendingCount) });
    const first = peer.request("a", {});
    const second = peer.request("b", {}).catch((caught: unknown) => caught);
    expect([peer.lastRequestId, peer.isPending(1), peer.isPending(2)]).toEqual([2, true, true]);
    fromEngine.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result: "one" })}\n`);
    expect(await first).toBe("one");
    expect(peer.isPending(1)).toBe(false);
    peer.close("the engine's process exited");
    expect(await second).toBeInstanceOf(ChannelClosed);
    expect(left).toEqual([1, 0]);
  });
});
