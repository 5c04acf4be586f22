import { accessSync, constants, statfsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";

/** Free space a RAM-backed directory must have to hold a run's sandboxes and session stores. */
export const RAM_SCRATCH_MIN_FREE_BYTES = 1024 ** 3;
const RAM_DIRECTORY = "/dev/shm";

/**
 * Where a run's throw-away files go (engine sandboxes, the host's session stores): a RAM-backed
 * directory when the system has one with room to spare (Linux's /dev/shm; a container's is often
 * only 64 MiB, and then it is not used), otherwise the OS temp directory.
 */
export function scratchRoot(options: { ramDirectory?: string; minFreeBytes?: number } = {}): string {
  const ram = options.ramDirectory ?? RAM_DIRECTORY;
  try {
    if (!statSync(ram).isDirectory()) return tmpdir();
    accessSync(ram, constants.W_OK);
    const { bavail, bsize } = statfsSync(ram);
    return bavail * bsize >= (options.minFreeBytes ?? RAM_SCRATCH_MIN_FREE_BYTES) ? ram : tmpdir();
  } catch {
    return tmpdir();
  }
}
