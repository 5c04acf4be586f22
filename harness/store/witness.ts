import type { Message } from "../contract/types.ts";
import { uidList } from "./identity-json.ts";
import { uidOrNull } from "./uid.ts";

/**
 * Records that `dropped` was folded into `survivor` (UID-5). By default the survivor's text leads:
 * it keeps its uid and the witness lists its own absorbed uids, the dropped uid, then the dropped
 * message's absorbed uids. With `droppedLeads` the dropped text comes first, so the survivor takes
 * the dropped uid and its old uid follows the dropped message's witness.
 */
export function recordAbsorbedMessage(
  survivor: Message,
  dropped: Message,
  options: { droppedLeads?: boolean } = {},
): void {
  const own = uidList(survivor._absorbed_message_uids);
  const theirs = uidList(dropped._absorbed_message_uids);
  const droppedUid = uidOrNull(dropped.message_uid);
  const survivorUid = uidOrNull(survivor.message_uid);
  let ordered: string[];
  if (options.droppedLeads === true && droppedUid !== null) {
    survivor.message_uid = droppedUid;
    ordered = [...theirs, ...(survivorUid === null ? [] : [survivorUid]), ...own];
  } else {
    ordered = [...own, ...(droppedUid === null ? [] : [droppedUid]), ...theirs];
  }
  const current = uidOrNull(survivor.message_uid);
  const witness = uidList(ordered).filter((uid) => uid !== current);
  if (witness.length > 0) survivor._absorbed_message_uids = witness;
}
