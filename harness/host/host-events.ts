import type { HostEvent } from "../../scenarios/format.ts";
import { isThenable } from "../trace/recorder.ts";
import { cloneMessages, traceCopies } from "./clone.ts";
import { runCompactionPass } from "./compaction.ts";
import { endSession, notifyHook, restoredSession, startSession, systemMessage } from "./lifecycle.ts";
import type { HostRuntime, SessionRuntime } from "./runtime.ts";

/** Play one scripted host event: a store operation and the engine hooks it implies. */
export async function applyHostEvent(runtime: HostRuntime, session: SessionRuntime, event: HostEvent): Promise<void> {
  const { store } = runtime;
  let changed: SessionRuntime | null = session;
  switch (event.type) {
    case "compress": {
      const probe = runtime.recorder.callHook(runtime.engine, "has_content_to_compress", [cloneMessages(session.history)], {
        session: session.id,
        digestArgs: [session.history],
      });
      const answer = isThenable(probe) ? await probe : probe;
      if (answer.ok && answer.value === false) {
        runtime.recorder.record({ type: "warning", session: session.id, message: "Nothing to compress yet", rule: null });
        break;
      }
      await runCompactionPass(runtime, session, { trigger: "manual", force: true, focusTopic: event.focus_topic ?? null });
      break;
    }
    case "rotate":
      changed = await rotateInto(runtime, session, event.newSession);
      break;
    case "restart":
      await endSession(runtime, session);
      store.reopen();
      // A restart restores as a resumed session does: alternation repaired, merges witnessed (UID-5).
      session.history = store.restore(session.storeId, { repairAlternation: true });
      await startSession(runtime, session);
      break;
    case "branch":
      store.branch(session.storeId, event.newSession);
      changed = await adopt(runtime, session, event.newSession, "branch");
      break;
    case "export-import":
      store.exportImport(session.storeId, event.newSession);
      changed = await adopt(runtime, session, event.newSession, "import");
      break;
    case "rewind":
      store.rewind(session.storeId, event.keepMessages);
      session.history = store.restore(session.storeId);
      break;
    case "legacy-write":
      store.legacyWrite(session.storeId, event.messages);
      session.history = store.restore(session.storeId);
      break;
    case "content-rewrite":
      store.rewriteContent(session.storeId, event.messageIndex, event.content);
      session.history = store.restore(session.storeId);
      break;
    case "duplicate-row":
      store.duplicateRow(session.storeId, event.messageIndex, event.content);
      session.history = store.restore(session.storeId);
      break;
    case "timeout-next-compaction":
      session.timeoutNextCompaction = true;
      changed = null;
      break;
    case "reset":
      await resetSession(runtime, session);
      break;
    case "end":
      await endSession(runtime, session);
      break;
  }
  runtime.recorder.record(
    changed === null
      ? { type: "host-event", session: session.id, event }
      : { type: "host-event", session: session.id, event, history: traceCopies(changed.history) },
  );
}

/** A conversation a branch or import created: its own runtime and lane, then on_session_start. */
async function adopt(runtime: HostRuntime, parent: SessionRuntime, id: string, reason: string): Promise<SessionRuntime> {
  const child = restoredSession(runtime, id, parent.platform, scriptOf(runtime, id));
  runtime.sessions.set(id, child);
  await startSession(runtime, child, { old_session_id: parent.storeId, boundary_reason: reason });
  return child;
}

/**
 * A manual pass committed by rotation into `childId`: the child becomes a conversation of its own
 * (the pass already called on_session_start with the compression boundary), the parent keeps its
 * archived rows and ends with the run.
 */
async function rotateInto(runtime: HostRuntime, session: SessionRuntime, childId: string): Promise<SessionRuntime> {
  const parentStoreId = session.storeId;
  const result = await runCompactionPass(runtime, session, { trigger: "manual", force: true, rotateTo: childId });
  if (result.outcome !== "committed") return session;
  const child = restoredSession(runtime, childId, session.platform, scriptOf(runtime, childId));
  child.open = true;
  runtime.sessions.set(childId, child);
  session.storeId = parentStoreId;
  session.history = runtime.store.restore(parentStoreId);
  return child;
}

function scriptOf(runtime: HostRuntime, id: string) {
  return runtime.scenario.sessions.find((candidate) => candidate.id === id) ?? null;
}

/** `/new` or `/reset`: on_session_end for the old session, on_session_reset, a fresh session, on_session_start. */
async function resetSession(runtime: HostRuntime, session: SessionRuntime): Promise<void> {
  await endSession(runtime, session);
  await notifyHook(runtime, session, "on_session_reset", []);
  const oldStoreId = session.storeId;
  session.generation++;
  session.storeId = `${session.id}~n${session.generation}`;
  const system = systemMessage(session.script?.systemPrompt ?? firstSystemText(session));
  runtime.store.append(session.storeId, [system]);
  session.history = runtime.store.restore(session.storeId);
  await startSession(runtime, session, { old_session_id: oldStoreId });
}

function firstSystemText(session: SessionRuntime): string {
  const first = session.history[0];
  return first?.role === "system" && typeof first.content === "string" ? first.content : "";
}
