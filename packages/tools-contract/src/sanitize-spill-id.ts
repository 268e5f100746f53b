import { sha256Hex } from './sha256.js';

const LONGEST_NAME = 128;

/**
 * Turns a session or tool-call ID into a safe file-name component (§8.2): every character
 * outside `[A-Za-z0-9_-]` becomes `_`, so `.`/`..`/`/` can never traverse. An empty ID becomes
 * `_`. An ID longer than 128 characters keeps its first 111 characters plus `-` and 16 hex digits
 * of the ID's SHA-256, so that the name stays under file-system limits and distinct IDs stay
 * distinct.
 */
export function sanitizeSpillId(id: string): string {
  const sanitized = id.replace(/[^A-Za-z0-9_-]/gu, '_');
  if (sanitized.length === 0) return '_';
  if (sanitized.length <= LONGEST_NAME) return sanitized;
  return `${sanitized.slice(0, LONGEST_NAME - 17)}-${sha256Hex(id).slice(0, 16)}`;
}
