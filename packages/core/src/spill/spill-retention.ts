/**
 * §8.2, §9 `SPILL_RETENTION`: when a runtime starts, spill directories untouched for this long
 * (7 days) are deleted.
 */
export const SPILL_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
