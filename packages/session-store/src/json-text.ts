import { InvalidRecordError } from './invalid-record-error.js';

/**
 * Checks that `value` is JSON data and returns its JSON text. Stores keep records as JSON text, so
 * what is read back is exactly what was written, in every store. Object properties whose value is
 * `undefined` are dropped (as `JSON.stringify` does); anything else that JSON cannot hold — a
 * function, a symbol, a bigint, `NaN` or an infinity, a class instance such as `Date` or `Map`, a
 * cycle, `undefined` in an array — is an `InvalidRecordError` naming where it was (`where`).
 */
export function toJsonText(value: unknown, where: string): string {
  checkJsonValue(value, where, new Set());
  return JSON.stringify(value);
}

function checkJsonValue(value: unknown, where: string, ancestors: Set<object>): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidRecordError(`${where} is ${value}, which JSON cannot hold; use a finite number or a string`);
    return;
  }
  if (typeof value !== 'object') {
    throw new InvalidRecordError(`${where} is a ${typeof value}, which JSON cannot hold; store plain JSON data`);
  }
  if (ancestors.has(value)) throw new InvalidRecordError(`${where} refers back to itself (a cycle); store plain JSON data`);
  ancestors.add(value);
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (item === undefined) throw new InvalidRecordError(`${where}[${index}] is undefined, which JSON cannot hold; use null`);
      checkJsonValue(item, `${where}[${index}]`, ancestors);
    });
  } else {
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new InvalidRecordError(`${where} is a ${name}, not a plain object; convert it to plain JSON data first`);
    }
    for (const [key, member] of Object.entries(value)) {
      if (member !== undefined) checkJsonValue(member, `${where}.${key}`, ancestors);
    }
  }
  ancestors.delete(value);
}
