/** Freezes `value` and every object reachable from it (cycles included); returns it. */
export function deepFreeze<T>(value: T, seen: WeakSet<object> = new WeakSet()): T {
  if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member, seen);
  }
  return value;
}
