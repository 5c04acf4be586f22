import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | null = null;

/**
 * A full garbage collection, so a timed section starts with a settled heap and does not pay for
 * garbage its untimed setup left. Node's gc() is exposed for this process if it was not already
 * (--expose-gc): the flag set at run time shows gc in each new context.
 */
export function collectGarbage(): void {
  if (gc === null) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === "function") gc = exposed;
    else {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    }
  }
  gc();
}
