const key = Symbol.for('openwork.fs-backend.in-flight-temp-files');

/**
 * Temp files this process is writing right now. Leftover cleanup must never delete them, even when
 * two writes to one target race without a lock. Kept on `globalThis` under a registered symbol so
 * two copies of this package in one process share it.
 */
export function inFlightTempFiles(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  let files = holder[key];
  if (files === undefined) {
    files = new Set<string>();
    holder[key] = files;
  }
  return files;
}
