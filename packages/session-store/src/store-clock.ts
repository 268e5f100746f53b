/** Where a store gets the time for `createdAt` / `updatedAt`; tests pass a fixed clock. */
export type StoreClock = () => Date;

/** The system clock. */
export const systemClock: StoreClock = () => new Date();

/** The ISO 8601 UTC text a store keeps for `clock()`'s time. */
export function storeTimestamp(clock: StoreClock): string {
  const time = clock();
  if (!(time instanceof Date) || Number.isNaN(time.getTime())) {
    throw new TypeError('the session store clock returned something that is not a valid Date');
  }
  return time.toISOString();
}

/** The later of two store timestamps, so that `updatedAt` never moves backwards when clocks of several hosts disagree. */
export function laterTimestamp(current: string, candidate: string): string {
  return candidate > current ? candidate : current;
}
