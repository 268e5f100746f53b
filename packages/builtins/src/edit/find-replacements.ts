import type { EditMatch, EditMatchRequest, MatchStrategy, Replacement } from './edit-match.js';

/**
 * The exact step of edit's matching (§7.3), the spec's contract and always tried first (tolerant
 * levels, `find-tolerant-replacements.ts`, run only when it finds nothing). Exact string
 * matching; `oldString` absent → not found; more than one occurrence without `replaceAll` →
 * ambiguous; with `replaceAll` every non-overlapping occurrence, left to right.
 *
 * Line endings (docs/decisions/0026-line-endings-and-byte-order-marks-in-edits.md): in a file whose line breaks
 * are all `\r\n`, the `\n` of `oldString` and `newString` mean `\r\n` — the model saw the file
 * through read, which does not show `\r`. In a file with mixed endings, an exact match wins and
 * the CRLF reading is tried only when the exact text is absent.
 */
export function findReplacements(request: EditMatchRequest): EditMatch {
  for (const candidate of exactCandidates(request)) {
    const starts = occurrences(request.content, candidate.oldString, request.replaceAll ? Infinity : 2);
    if (starts.length === 0) continue;
    if (starts.length > 1 && !request.replaceAll) {
      return { ok: false, reason: 'ambiguous', occurrences: countOccurrences(request.content, candidate.oldString) };
    }
    const replacements: Replacement[] = starts.map((start) => ({ start, end: start + candidate.oldString.length, text: candidate.newString }));
    return { ok: true, strategy: candidate.strategy, replacements };
  }
  return { ok: false, reason: 'not_found' };
}

/** One reading of the request the exact step searches for, in the order it tries them. */
export interface ExactCandidate {
  readonly strategy: MatchStrategy;
  readonly oldString: string;
  readonly newString: string;
}

/** The readings `findReplacements` tries: the text as given, and the CRLF reading where it applies. */
export function exactCandidates(request: EditMatchRequest): ExactCandidate[] {
  const crlfFile = usesOnlyCrlf(request.content);
  const candidates: ExactCandidate[] = [];
  if (crlfFile) {
    const oldString = toCrlf(request.oldString);
    candidates.push({
      strategy: oldString === request.oldString ? 'exact' : 'line-endings',
      oldString,
      newString: toCrlf(request.newString),
    });
  } else {
    candidates.push({ strategy: 'exact', oldString: request.oldString, newString: request.newString });
    if (request.content.includes('\r\n') && /(?<!\r)\n/.test(request.oldString)) {
      candidates.push({ strategy: 'line-endings', oldString: toCrlf(request.oldString), newString: toCrlf(request.newString) });
    }
  }
  return candidates;
}

/** Starts of non-overlapping occurrences, left to right, at most `max`. */
export function occurrences(content: string, needle: string, max: number): number[] {
  const starts: number[] = [];
  let from = 0;
  while (starts.length < max) {
    const index = content.indexOf(needle, from);
    if (index < 0) break;
    starts.push(index);
    from = index + needle.length;
  }
  return starts;
}

function countOccurrences(content: string, needle: string): number {
  return occurrences(content, needle, Infinity).length;
}

/** Every line break is `\r\n` (and there is at least one). */
function usesOnlyCrlf(content: string): boolean {
  return content.includes('\r\n') && !/(?<!\r)\n/.test(content);
}

/** Bare `\n` → `\r\n`; existing `\r\n` stay. */
function toCrlf(text: string): string {
  return text.replace(/(?<!\r)\n/g, '\r\n');
}
