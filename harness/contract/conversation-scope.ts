import { AsyncLocalStorage } from "node:async_hooks";

const SHARED = Symbol.for("ctxbench.conversation-scope");

/**
 * The conversation's ambient async context, as the thread a conversation runs on upstream. The
 * THR-1 probe plays a session inside it and then calls the engine from outside it, as a pooled
 * worker would; an engine must not depend on it. An engine behind the engine protocol gets the
 * same distinction as threads: calls made in one scope run on one engine-side thread.
 *
 * One per process, whichever copy of this module is loaded (like the engine brand): an engine
 * importing its own installed ctxbench, or the sources beside a compiled host, sees the host's scope.
 */
export const conversationScope: AsyncLocalStorage<string> = ((globalThis as { [SHARED]?: AsyncLocalStorage<string> })[SHARED] ??= new AsyncLocalStorage<string>());
