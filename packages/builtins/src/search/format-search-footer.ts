import type { SpillOutcome } from '../spill/spill-writer.js';
import { formatCount } from '../text/format-bytes.js';

/** `1 file` / `2 files`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A limit in seconds as the footer says it: `30s`, `0.25s`. */
export function formatSeconds(milliseconds: number): string {
  return `${Number((milliseconds / 1000).toFixed(3))}s`;
}

/**
 * Where the full list is, for a footer (§8.2): `; full list saved to <path>`, the 64 MB cap said
 * when it was hit, nothing when the list could not be saved (no path that cannot be read).
 */
export function savedListClause(spill: SpillOutcome | undefined, maxBytes: number): string {
  if (spill === undefined || !spill.saved) return '';
  if (spill.truncated) return `; only the first ${megabytes(maxBytes)} of the full list saved to ${spill.location.displayPath}`;
  return `; full list saved to ${spill.location.displayPath}`;
}

function megabytes(bytes: number): string {
  const mebibyte = 1024 * 1024;
  return bytes % mebibyte === 0 ? `${bytes / mebibyte} MB` : `${formatCount(bytes)} bytes`;
}
