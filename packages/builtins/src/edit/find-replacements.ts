import type { EditMatch, EditMatchRequest, MatchStrategy, Replacement } from './edit-match.js';

/**
 * The matching step of edit (§7.3), kept on its own so other strategies (several edits, tolerant
 * matching) can be added here without touching the tool. The spec's contract: exact string
 * matching; `oldString` absent → not found; more than one occurrence without `replaceAll` →
 * ambiguous; with `replaceAll` every non-overlapping occurrence, left to right.
 *
 * Line endings (issue 11 "an edit of a CRLF file keeps CRLF endings"): in a file whose line breaks
 * are all `\r\n`, the `\n` of `oldString` and `newString` mean `\r\n` — the model saw the file
 * through read, which does not show `\r`. In a file with mixed endings, an exact match wins and
 * the CRLF reading is tried only when the exact text is absent.
 */
export function findReplacements(request: EditMatchRequest): EditMatch {
  const crlfFile = usesOnlyCrlf(request.content);
  const candidates: Array<{ strategy: MatchStrategy; oldString: string; newString: string }> = [];
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
  for (const candidate of candidates) {
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

/** Starts of non-overlapping occurrences, left to right, at most `max`. */
function occurrences(content: string, needle: string, max: number): number[] {
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
