import type { Message } from "../contract/types.ts";
import { cloneMessage } from "./clone.ts";
import { isPersistedMessage } from "./persisted-message.ts";

/**
 * The reference inputs of select_context (`conversation_messages`, `incoming_message`) without a
 * structural clone of the whole history for every request.
 *
 * Upstream clones each message for every call, so an engine that edits them cannot reach the
 * persisted history. That stays true here: every message handed out is still a private clone,
 * never the host's object. What changes is how often it is made: a persisted message never
 * changes (the host edits only messages it has not written yet), so its clone is made once and
 * handed out again for as long as the history holds that message at that position. The list
 * itself is new for every request, so pushing to it, splicing or sorting it stays in that request,
 * as it does upstream; an unpersisted message is cloned afresh every time.
 *
 * Editing a message in place is the engine's bug (SEL-6, caught by its check, which calls the hook
 * on copies it digests before and after). Here such an edit stays on the engine's private copy and
 * the engine sees it again in its later requests of the session; the host's history, the store
 * and every other engine surface never see it (SEL-4).
 */
/** Stands where a message may still change, so its copy is never reused. */
const UNSET: Message = { role: "unset" };

export class ReferenceViews {
  #sources: readonly Message[] = [];
  #views: Message[] = [];
  #incomingSource: Message | null = null;
  #incomingView: Message | null = null;

  /** A new list of private copies of `transcript`, reusing the copies of persisted messages at unchanged positions. */
  conversation(transcript: readonly Message[]): Message[] {
    const sources = this.#sources;
    const previous = this.#views;
    const next = transcript.slice();
    const views = new Array<Message>(transcript.length);
    for (let index = 0; index < transcript.length; index++) {
      const source = transcript[index]!;
      if (source === sources[index]) {
        views[index] = previous[index]!;
        continue;
      }
      views[index] = cloneMessage(source);
      if (!isPersistedMessage(source)) next[index] = UNSET;
    }
    this.#sources = next;
    // The engine gets its own list: what it does to the list (not to a message) stays in this request.
    this.#views = views.slice();
    return views;
  }

  /** A private copy of this turn's user message, kept apart from the conversation's copy (as upstream's second clone is). */
  incoming(message: Message): Message {
    if (message === this.#incomingSource) return this.#incomingView!;
    const view = cloneMessage(message);
    if (isPersistedMessage(message)) {
      this.#incomingSource = message;
      this.#incomingView = view;
    }
    return view;
  }
}

const byOwner = new WeakMap<object, ReferenceViews>();

/** The views of one conversation (the host keys them on its session object). */
export function referenceViewsOf(owner: object): ReferenceViews {
  let views = byOwner.get(owner);
  if (views === undefined) {
    views = new ReferenceViews();
    byOwner.set(owner, views);
  }
  return views;
}
