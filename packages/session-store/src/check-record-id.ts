import { InvalidRecordError } from './invalid-record-error.js';

/** Longest id the stores accept (session, message, tool call and change ids). */
export const MAX_RECORD_ID_LENGTH = 200;

// Control characters cannot be shown or typed back, and PostgreSQL text cannot hold NUL.
const CONTROL = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Checks an id given by the caller: a string of 1–200 characters without control characters or
 * broken UTF-16, so that every store keeps it byte for byte. Returns it unchanged.
 */
export function checkRecordId(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new InvalidRecordError(`${what} must be a string, got ${describeValue(value)}`);
  if (value.length === 0) throw new InvalidRecordError(`${what} must not be empty`);
  if (value.length > MAX_RECORD_ID_LENGTH) {
    throw new InvalidRecordError(`${what} is ${value.length} characters long; the limit is ${MAX_RECORD_ID_LENGTH}`);
  }
  if (CONTROL.test(value) || LONE_SURROGATE.test(value)) {
    throw new InvalidRecordError(`${what} ${JSON.stringify(value)} contains a control character or broken UTF-16; use printable text`);
  }
  return value;
}

/** Checks a free text field that a store keeps in its own column (a path): a string without NUL or broken UTF-16. */
export function checkColumnText(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new InvalidRecordError(`${what} must be a string, got ${describeValue(value)}`);
  if (value.includes('\u0000') || LONE_SURROGATE.test(value)) {
    throw new InvalidRecordError(`${what} ${JSON.stringify(value)} contains a NUL character or broken UTF-16`);
  }
  return value;
}

/** A short description of a value's type for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
