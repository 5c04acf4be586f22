import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The conversation's ambient async context, as the thread a conversation runs on upstream. The
 * THR-1 probe plays a session inside it and then calls the engine from outside it, as a pooled
 * worker would; an engine must not depend on it. An engine behind the engine protocol gets the
 * same distinction as threads: calls made in one scope run on one engine-side thread.
 */
export const conversationScope = new AsyncLocalStorage<string>();
