import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

/**
 * The floor under every protocol round trip: a Python child that answers each newline-delimited
 * JSON request at once, from its main thread, with nothing else to do. What a no-op hook costs
 * above this is the bridge's and the host's own work; the floor itself is the pipes, the two
 * wake-ups and JSON at both ends — on a virtual machine whose idle cores halt, mostly the wake-ups.
 */
const ECHO = [
  "import json, sys",
  "out = sys.stdout.buffer",
  "for line in sys.stdin.buffer:",
  "    request = json.loads(line)",
  '    out.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": None}).encode() + b"\\n")',
  "    out.flush()",
].join("\n");

export class PipeEcho {
  readonly #child: ChildProcessWithoutNullStreams;
  #buffered = "";
  #waiting: (() => void) | null = null;
  #next = 0;

  constructor(python: string) {
    this.#child = spawn(python, ["-I", "-c", ECHO], { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => {
      this.#buffered += chunk;
      let end: number;
      while ((end = this.#buffered.indexOf("\n")) >= 0) {
        this.#buffered = this.#buffered.slice(end + 1);
        const waiting = this.#waiting;
        this.#waiting = null;
        waiting?.();
      }
    });
  }

  /** One request and its answer. */
  call(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#child.exitCode !== null) return reject(new Error(`the echo child exited (code ${this.#child.exitCode})`));
      this.#waiting = resolve;
      this.#child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: this.#next++, method: "should_compress", params: { prompt_tokens: 1 } })}\n`);
    });
  }

  close(): void {
    this.#child.stdin.end();
    this.#child.kill();
  }
}
