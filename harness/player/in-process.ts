import type { CapturedStream } from "./output.ts";
import { CLOSE_GRACE_MS, Session, SessionConnection } from "./client.ts";
import { IntrinsicsWatch } from "./integrity.ts";
import "./loaders/index.ts";
import { Player } from "./player.ts";
import { PLAYER_PROTOCOL_VERSION, type Command, type PlayerPlan } from "./protocol.ts";

/**
 * A player in this process (`--no-isolate`, for a debugger): the same protocol, messages and
 * validation, without the process boundary. A bound that strikes abandons the run; it cannot
 * interrupt an engine stuck in synchronous code.
 */
export class InProcessPlayer extends SessionConnection {
  protected readonly session: Session;
  protected readonly limits: PlayerPlan["limits"];

  constructor(plan: PlayerPlan) {
    super();
    this.limits = plan.limits;
    let handle: ((command: Command) => void) | null = null;
    this.session = new Session(
      (command) => handle?.(command),
      () => this.kill(),
      () => "",
    );
    const session = this.session;
    const player = new Player(async (body) => session.accept(body), new IntrinsicsWatch());
    let queue = Promise.resolve();
    handle = (command) => {
      queue = queue
        .then(async () => {
          if (session.dead === null) await player.handle(command);
        })
        .catch((error: unknown) => session.died(`failed: ${error instanceof Error ? error.message : String(error)}`));
    };
    handle({ type: "hello", protocol: PLAYER_PROTOCOL_VERSION, plan });
  }

  async close(): Promise<void> {
    if (this.session.dead !== null) return;
    await this.session.run<void>(() => ({ type: "bye" }), CLOSE_GRACE_MS, () => "did not close", (resolve) => ({
      accept: () => (resolve(), true),
      fail: () => resolve(),
    }));
  }

  kill(): void {
    this.session.died("was stopped");
  }

  output(): { stdout: CapturedStream; stderr: CapturedStream } {
    const none = { bytes: 0, lines: 0, head: "", tail: "" };
    return { stdout: none, stderr: none };
  }
}
