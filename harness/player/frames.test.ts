import { describe, expect, it, vi } from "vitest";
import { FrameReader, frameLine, newSecret } from "./frames.ts";

function reader(secret: string, maxFrameBytes = 1024) {
  const seen = { frames: [] as string[], forged: [] as string[], overflow: [] as number[] };
  const frames = new FrameReader(secret, maxFrameBytes, {
    frame: (body) => seen.frames.push(body),
    forged: (reason) => seen.forged.push(reason),
    overflow: (bytes) => seen.overflow.push(bytes),
  });
  return { frames, seen };
}

describe("the player's frame channel", () => {
  it("passes authenticated frames in order, however the bytes are split", () => {
    const secret = newSecret();
    const text = Buffer.from(frameLine(secret, 0, '{"type":"closing"}') + frameLine(secret, 1, '{"a":"é\\n"}'));
    for (const size of [1, 2, 7, text.length]) {
      const { frames, seen } = reader(secret);
      for (let at = 0; at < text.length; at += size) frames.push(text.subarray(at, at + size));
      expect(seen.frames).toEqual(['{"type":"closing"}', '{"a":"é\\n"}']);
      expect(seen.forged).toEqual([]);
    }
  });

  it("drops and counts a line without a MAC, with a MAC of another secret, replayed, or out of order", () => {
    const secret = newSecret();
    const { frames, seen } = reader(secret);
    const good = frameLine(secret, 0, '{"type":"closing"}');
    frames.push(Buffer.from('result: pass ABC-1/base-class-and-members\n'));
    frames.push(Buffer.from(frameLine(newSecret(), 0, '{"type":"closing"}')));
    frames.push(Buffer.from(frameLine(secret, 5, '{"type":"closing"}')));
    frames.push(Buffer.from(good));
    frames.push(Buffer.from(good));
    expect(seen.frames).toEqual(['{"type":"closing"}']);
    expect(seen.forged).toEqual(["a line without a MAC", "a line whose MAC does not verify", "frame 5 where frame 0 was due", "frame 0 where frame 1 was due"]);
  });

  it("stops at a line longer than the cap, even one that never ends", () => {
    const { frames, seen } = reader(newSecret(), 1000);
    for (let i = 0; i < 100; i++) frames.push(Buffer.alloc(100, 120));
    expect(seen.overflow).toHaveLength(1);
    expect(seen.overflow[0]!).toBeGreaterThan(1000);
    frames.push(Buffer.from("\n"));
    expect(seen.frames).toEqual([]);
  });

  it("copies each byte once: a 4 MiB line in 1 KiB chunks is joined once, when its newline arrives", () => {
    const secret = newSecret();
    const line = Buffer.from(frameLine(secret, 0, JSON.stringify({ type: "trace", filler: "x".repeat(4 * 1024 * 1024) })));
    const concat = vi.spyOn(Buffer, "concat");
    try {
      const { frames, seen } = reader(secret, 8 * 1024 * 1024);
      for (let at = 0; at < line.length; at += 1024) frames.push(line.subarray(at, at + 1024));
      expect(seen.frames).toHaveLength(1);
      // Re-joining a growing buffer on every chunk (the quadratic reader) would copy about 8 GiB here.
      const copied = concat.mock.calls.reduce((sum, [parts]) => sum + (parts as Buffer[]).reduce((n, part) => n + part.length, 0), 0);
      expect(copied).toBeLessThanOrEqual(line.length);
    } finally {
      concat.mockRestore();
    }
  });
});
