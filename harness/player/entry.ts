// The player process (docs/player-protocol.md). Started by the parent as
// `node --import tsx <this file>` with fd 0 = commands, fd 3 = frames, fd 1/2 = the engine's output.
import { Socket } from "node:net";
import { IntrinsicsWatch } from "./integrity.ts";
import { frameLine } from "./frames.ts";
import { Player } from "./player.ts";
import { asCommand } from "./protocol.ts";
import "./loaders/index.ts";
import { BENCH_ROLE_FLAG } from "./locate.ts";

// The bench suites are the harness's code too: a bench player loads them before any engine code
// (a playing player never needs them, and saves loading them).
if (process.argv.includes(BENCH_ROLE_FLAG)) await import("./bench.ts");

// Before any engine code: the intrinsics as they are now, and the frame channel's own functions.
const watch = new IntrinsicsWatch();
const channel = new Socket({ fd: 3, readable: false, writable: true });
const write = channel.write.bind(channel);
const exit = process.exit.bind(process);

let secret: string | null = null;
let sent = 0;

function send(body: string): Promise<void> {
  const line = frameLine(secret!, sent++, body);
  return new Promise((resolve, reject) => {
    write(line, (error?: Error | null) => (error ? reject(error) : resolve()));
  });
}

const player = new Player(send, watch);
const lines: string[] = [];
let pending: string[] = [];
let wake: (() => void) | null = null;
let ended = false;

process.stdin.setEncoding("utf8");
// A command line (a play command carries its scenario, megabytes) arrives in many chunks: the
// partial line is kept as a list and joined once, when its newline arrives.
process.stdin.on("data", (chunk: string) => {
  let start = 0;
  for (let newline = chunk.indexOf("\n"); newline >= 0; newline = chunk.indexOf("\n", start)) {
    pending.push(chunk.slice(start, newline));
    lines.push(pending.join(""));
    pending = [];
    start = newline + 1;
  }
  if (start < chunk.length) pending.push(chunk.slice(start));
  wake?.();
});
process.stdin.on("end", () => {
  ended = true;
  wake?.();
});

async function nextLine(): Promise<string | null> {
  while (lines.length === 0) {
    if (ended) return null;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  return lines.shift()!;
}

async function main(): Promise<void> {
  const first = await nextLine();
  if (first === null || !/^[0-9a-f]{64}$/.test(first)) {
    process.stderr.write("ctxbench player: expected the channel secret on the first line of fd 0\n");
    return exit(2);
  }
  secret = first;
  for (;;) {
    const line = await nextLine();
    if (line === null) return exit(0);
    if (line.trim() === "") continue;
    let command;
    try {
      command = asCommand(JSON.parse(line));
    } catch (error) {
      process.stderr.write(`ctxbench player: bad command: ${error instanceof Error ? error.message : String(error)}\n`);
      return exit(2);
    }
    if (!(await player.handle(command))) break;
  }
  channel.end(() => exit(0));
}

main().catch((error: unknown) => {
  process.stderr.write(`ctxbench player: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exit(3);
});
