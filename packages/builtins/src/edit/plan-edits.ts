import type { MatchStrategy, Replacement } from './edit-match.js';
import { lineNumbersAt } from './file-lines.js';
import type { IndentationShift } from './indentation-shift.js';
import { matchEditEntry, type EditEntry } from './match-edit-entry.js';

/** How one entry was applied. */
export interface EntryOutcome {
  readonly strategy: MatchStrategy;
  readonly replacements: number;
  readonly shift: IndentationShift | undefined;
}

/** Why an entry (or a pair of entries) cannot be applied. Indexes are positions in `edits`. */
export type EditPlanFailure =
  | { readonly kind: 'not_found'; readonly index: number }
  | {
      readonly kind: 'ambiguous';
      readonly index: number;
      readonly strategy: MatchStrategy;
      readonly occurrences: number;
      readonly lines: readonly number[];
    }
  | { readonly kind: 'overlap'; readonly index: number; readonly other: number; readonly line: number };

/** All replacements of all entries, sorted and without overlaps, or every reason they cannot be made. */
export type EditPlan =
  | { readonly ok: true; readonly replacements: readonly Replacement[]; readonly outcomes: readonly EntryOutcome[] }
  | { readonly ok: false; readonly failures: readonly EditPlanFailure[] };

/**
 * `edits` (docs/decisions/0020-edit-several-replacements-all-or-nothing.md): every entry is matched against the same content (the file as the call found
 * it, never as an earlier entry left it), so the result does not depend on their order. Any entry
 * that is not found or is ambiguous fails the plan; so does any two entries whose replacements
 * overlap (touching is fine). Nothing is applied here — the caller writes once or not at all.
 */
export function planEdits(content: string, entries: readonly EditEntry[]): EditPlan {
  const failures: EditPlanFailure[] = [];
  const outcomes: EntryOutcome[] = [];
  const tagged: { replacement: Replacement; index: number }[] = [];
  entries.forEach((entry, index) => {
    const match = matchEditEntry(content, entry);
    if (!match.ok) {
      failures.push(
        match.reason === 'not_found'
          ? { kind: 'not_found', index }
          : { kind: 'ambiguous', index, strategy: match.strategy, occurrences: match.occurrences, lines: match.lines },
      );
      return;
    }
    outcomes.push({ strategy: match.strategy, replacements: match.replacements.length, shift: match.shift });
    for (const replacement of match.replacements) tagged.push({ replacement, index });
  });
  if (failures.length > 0) return { ok: false, failures };

  tagged.sort((a, b) => a.replacement.start - b.replacement.start || a.replacement.end - b.replacement.end);
  const overlaps = new Map<string, EditPlanFailure>();
  let reach: { end: number; index: number } | undefined;
  for (const { replacement, index } of tagged) {
    if (reach !== undefined && replacement.start < reach.end) {
      const [first, second] = reach.index < index ? [reach.index, index] : [index, reach.index];
      const key = `${first}:${second}`;
      if (!overlaps.has(key)) {
        const [line] = lineNumbersAt(content, [replacement.start]);
        overlaps.set(key, { kind: 'overlap', index: first, other: second, line: line ?? 1 });
      }
    }
    if (reach === undefined || replacement.end > reach.end) reach = { end: replacement.end, index };
  }
  if (overlaps.size > 0) return { ok: false, failures: [...overlaps.values()] };
  return { ok: true, replacements: tagged.map(({ replacement }) => replacement), outcomes };
}
