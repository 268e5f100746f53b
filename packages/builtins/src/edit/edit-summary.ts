import type { LineRange } from './apply-replacements.js';
import type { MatchStrategy } from './edit-match.js';
import type { EditForm } from './edit-input.js';
import { describeIndentation, isShift, type IndentationShift } from './indentation-shift.js';
import type { EditEntry } from './match-edit-entry.js';
import type { EntryOutcome } from './plan-edits.js';

/** Line ranges a multi-edit summary lists before it says how many more there are. */
const MAX_LISTED_RANGES = 10;

/** What the one-line summary of a successful edit is made from. */
export interface EditSummaryInput {
  readonly displayPath: string;
  readonly form: EditForm;
  readonly entries: readonly EditEntry[];
  readonly outcomes: readonly EntryOutcome[];
  /** Where each replacement's text sits in the new content, in file order. */
  readonly ranges: readonly LineRange[];
  readonly additions: number;
  readonly deletions: number;
}

/**
 * §7.3's one summary line (`Edited src/lib.rs:5 (+1 -1)`, `Replaced 4 occurrences in … (+4 -4)`),
 * and for several entries `Edited src/lib.rs: 3 replacements at lines 2, 5-7, 11 (+4 -3)` (issue
 * 17). When an entry matched only tolerantly, the same line says how, e.g.
 * `; oldString matched after ignoring trailing whitespace`.
 */
export function editSummary(input: EditSummaryInput): string {
  const counts = `(+${input.additions} -${input.deletions})`;
  const total = input.ranges.length;
  let summary: string;
  if (input.entries.length === 1) {
    const first = input.ranges[0] ?? { start: 1, end: 1 };
    summary = total > 1 ? `Replaced ${total} occurrences in ${input.displayPath} ${counts}` : `Edited ${input.displayPath}:${formatRange(first)} ${counts}`;
  } else {
    const from = total === input.entries.length ? '' : ` from ${input.entries.length} edits`;
    summary = `Edited ${input.displayPath}: ${total} replacements${from} at lines ${listRanges(input.ranges)} ${counts}`;
  }
  const notes = input.outcomes.flatMap((outcome, index) => {
    const entry = input.entries[index];
    const note = entry === undefined ? undefined : matchNote(outcome.strategy, outcome.shift, entry.oldString);
    if (note === undefined) return [];
    return [`${input.form === 'single' ? 'oldString' : `edits[${index}]`} matched ${note}`];
  });
  return notes.length === 0 ? summary : `${summary}; ${notes.join('; ')}`;
}

/**
 * How a tolerant match is described to the model, or `undefined` for an exact match. `\n` standing
 * for the file's `\r\n` is named too (edit summaries): read never shows `\r` (§7.1), so the model wrote
 * what it saw, and this note is how it learns the file's line endings.
 */
export function matchNote(strategy: MatchStrategy, shift: IndentationShift | undefined, oldString: string): string | undefined {
  const shifted = isShift(shift)
    ? `shifting its indentation from ${describeIndentation(shift.from)} to ${describeIndentation(shift.to)} (newString was re-indented the same way)`
    : undefined;
  switch (strategy) {
    case 'exact':
      return undefined;
    case 'line-endings':
      return oldString.includes('\r')
        ? 'after ignoring line endings (CRLF vs LF)'
        : "with its \\n read as the file's CRLF line endings (newString was written with CRLF too)";
    case 'trailing-whitespace':
      return 'after ignoring trailing whitespace';
    case 'indentation':
      return `after ${shifted ?? 'ignoring trailing whitespace'}`;
    case 'typography':
      return `after treating typographic quotes, dashes and spaces as plain ones${shifted === undefined ? '' : ` and ${shifted}`} (newString was used as given)`;
  }
}

function formatRange(range: LineRange): string {
  return range.start === range.end ? `${range.start}` : `${range.start}-${range.end}`;
}

function listRanges(ranges: readonly LineRange[]): string {
  const shown = ranges.slice(0, MAX_LISTED_RANGES).map(formatRange);
  const more = ranges.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
