/**
 * A writer process the reliability tests start and kill (`node --import tsx reliability-child.ts <mode> …`).
 * Modes:
 *   append-then-die <db> <batchSize> <dieAtRow>   append batches until the minter reaches row <dieAtRow>, then SIGKILL itself
 *   backfill-then-die <db> <chunk> <dieAfterSlices> open a legacy store and SIGKILL itself after that many slices
 *   append <db> <session> <batches> <batchSize>   append batches to one session and exit
 *   compact-then-die <db> <rows>                   append rows, commit an in-place compaction, SIGKILL itself before closing
 */
import type { Message } from "../contract/types.ts";
import { SessionStore } from "./session-store.ts";
import { createRandomMinter } from "./uid.ts";

const [mode, path, ...rest] = process.argv.slice(2);
const num = (value: string | undefined): number => Number.parseInt(value ?? "", 10);
const die = (): never => {
  process.kill(process.pid, "SIGKILL");
  for (;;) {
    // the signal is delivered before the loop turns twice
  }
};
const batch = (size: number, label: string): Message[] =>
  Array.from({ length: size }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `${label} message ${i}` }));

if (path === undefined) throw new Error("usage: reliability-child <mode> <db> …");

if (mode === "append-then-die") {
  const [batchSize, dieAtRow] = [num(rest[0]), num(rest[1])];
  const random = createRandomMinter();
  let minted = 0;
  const store = SessionStore.open(path, {
    mintUid: () => {
      minted += 1;
      if (minted === dieAtRow) die();
      return random();
    },
  });
  for (let n = 0; ; n++) {
    store.appendMessages("victim", batch(batchSize, `batch ${n}`));
    process.stdout.write(`committed ${n + 1}\n`);
  }
} else if (mode === "backfill-then-die") {
  const [chunk, dieAfter] = [num(rest[0]), num(rest[1])];
  let slices = 0;
  SessionStore.open(path, {
    backfillChunk: chunk,
    backfillBudgetMs: 60_000,
    onBackfillSlice: () => {
      slices += 1;
      if (slices === dieAfter) die();
    },
  }).close();
} else if (mode === "append") {
  const [session, batches, batchSize] = [rest[0] ?? "s", num(rest[1]), num(rest[2])];
  const store = SessionStore.open(path, { busyTimeoutMs: 10_000 });
  for (let n = 0; n < batches; n++) store.appendMessages(session, batch(batchSize, `${session} ${n}`));
  store.close();
  process.stdout.write("done\n");
} else if (mode === "compact-then-die") {
  const store = SessionStore.open(path);
  store.appendMessages("victim", batch(num(rest[0]), "old"));
  const kept = store.getMessages("victim").slice(-1).map((message) => ({ ...message }));
  store.compactInPlace("victim", [{ role: "user", content: "[summary]" }, ...kept], store.watermark("victim"));
  process.stdout.write("compacted\n");
  die();
} else {
  throw new Error(`unknown mode ${String(mode)}`);
}
