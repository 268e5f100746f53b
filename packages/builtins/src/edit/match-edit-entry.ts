import type { MatchStrategy, Replacement } from './edit-match.js';
import { lineNumbersAt } from './file-lines.js';
import { exactCandidates, findReplacements, occurrences } from './find-replacements.js';
import { findTolerantReplacements } from './find-tolerant-replacements.js';
import type { IndentationShift } from './indentation-shift.js';

/** One replacement the model asked for: the single form, or one entry of `edits` (edit beyond the spec). */
export interface EditEntry {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/** How many occurrences an ambiguity error lists by line number. */
export const MAX_LISTED_OCCURRENCES = 5;

/** The outcome of matching one entry against the file. */
export type EntryMatch =
  | {
      readonly ok: true;
      readonly strategy: MatchStrategy;
      readonly replacements: readonly Replacement[];
      /** The indentation shift newString was re-indented by (the first replacement's), if any. */
      readonly shift: IndentationShift | undefined;
    }
  | {
      readonly ok: false;
      readonly reason: 'ambiguous';
      readonly strategy: MatchStrategy;
      readonly occurrences: number;
      /** 1-based lines of the first `MAX_LISTED_OCCURRENCES` occurrences. */
      readonly lines: readonly number[];
    }
  | { readonly ok: false; readonly reason: 'not_found' };

/**
 * Matches one non-empty `oldString`: the exact step of §7.3 first, whose answer (found or
 * ambiguous) is final; only when it finds nothing, the tolerant levels (edit beyond the spec).
 */
export function matchEditEntry(content: string, entry: EditEntry): EntryMatch {
  const request = { content, ...entry };
  const exact = findReplacements(request);
  if (exact.ok) return { ok: true, strategy: exact.strategy, replacements: exact.replacements, shift: undefined };
  if (exact.reason === 'ambiguous') {
    const starts = exactOccurrenceStarts(request);
    return { ok: false, reason: 'ambiguous', strategy: 'exact', occurrences: exact.occurrences, lines: lineNumbersAt(content, starts) };
  }
  const tolerant = findTolerantReplacements(request);
  if (tolerant.ok) {
    return { ok: true, strategy: tolerant.level, replacements: tolerant.replacements, shift: tolerant.replacements[0]?.shift };
  }
  if (tolerant.reason === 'ambiguous') {
    return {
      ok: false,
      reason: 'ambiguous',
      strategy: tolerant.level,
      occurrences: tolerant.starts.length,
      lines: lineNumbersAt(content, tolerant.starts.slice(0, MAX_LISTED_OCCURRENCES)),
    };
  }
  return { ok: false, reason: 'not_found' };
}

/** Where the exact step saw the occurrences it counted (the first few). */
function exactOccurrenceStarts(request: Parameters<typeof findReplacements>[0]): number[] {
  for (const candidate of exactCandidates(request)) {
    const starts = occurrences(request.content, candidate.oldString, MAX_LISTED_OCCURRENCES);
    if (starts.length > 0) return starts;
  }
  return [];
}
