import { CLOSEST_REGION_MAX_LINES, findClosestRegion } from './closest-region.js';
import type { MatchStrategy } from './edit-match.js';
import type { EditForm } from './edit-input.js';
import type { EditEntry } from './match-edit-entry.js';
import type { EditPlanFailure } from './plan-edits.js';

/** Entries of a failed `edits` call that get a "closest region"; the others get one line each. */
const MAX_DETAILED_ENTRIES = 3;

const EXACT_RULE = 'It must match the file exactly, including whitespace, indentation and line breaks, without the line numbers read shows.';

/** What the failure texts need to know about the call and the file. */
export interface EditFailureContext {
  readonly displayPath: string;
  readonly content: string;
  readonly form: EditForm;
  readonly entries: readonly EditEntry[];
}

/**
 * The model's text for a plan that failed (docs/decisions/0022-edit-errors-that-teach.md). The single form keeps
 * §7.3's sentences; `edits` names each failing entry by index and says nothing was applied.
 */
export function editFailureText(context: EditFailureContext, failures: readonly EditPlanFailure[]): string {
  if (context.form === 'single') {
    const failure = failures[0];
    return failure === undefined ? `The edit of ${context.displayPath} failed.` : describeFailure(context, failure, true);
  }
  const failed = new Set(failures.flatMap((failure) => (failure.kind === 'overlap' ? [failure.index, failure.other] : [failure.index])));
  const header = `No edit was applied: ${failed.size} of ${context.entries.length} edits cannot be made as sent, so ${context.displayPath} is unchanged.`;
  let detailed = 0;
  const parts = failures.map((failure) => {
    const detail = failure.kind === 'not_found' && detailed < MAX_DETAILED_ENTRIES;
    if (detail) detailed += 1;
    return describeFailure(context, failure, detail);
  });
  const notFound = failures.some((failure) => failure.kind === 'not_found');
  return [header, ...parts, `${notFound ? `Each oldString must match the file exactly, including whitespace, indentation and line breaks, without the line numbers read shows. ` : ''}Fix the entries named above and send all the edits again.`].join('\n');
}

function describeFailure(context: EditFailureContext, failure: EditPlanFailure, detail: boolean): string {
  const single = context.form === 'single';
  switch (failure.kind) {
    case 'not_found': {
      const prefix = single ? '' : `edits[${failure.index}]: `;
      const head = `${prefix}oldString was not found in ${context.displayPath}.`;
      const region = detail ? findClosestRegion(context.content, context.entries[failure.index]?.oldString ?? '') : undefined;
      if (region === undefined) return single ? `${head} ${EXACT_RULE} Read the file again and copy the text to replace.` : head;
      const { start, end } = region.region;
      const shownEnd = region.firstShownLine + region.shownLines.length - 1;
      const where =
        start === end
          ? `at line ${start}`
          : region.shownLines.length < end - start + 1
            ? `at lines ${start}-${end}; here are lines ${region.firstShownLine}-${shownEnd}, around where it differs`
            : `at lines ${start}-${end}`;
      const numbered = region.shownLines.map((line, offset) => `${region.firstShownLine + offset}\t${line}`).join('\n');
      const differs = region.differences.length === 0 ? '' : `What differs: ${region.differences.join('; ')}.`;
      const intro = `${single ? `${head} ${EXACT_RULE}` : head} The closest text is ${where}:\n${numbered}`;
      const tail = single ? `${differs === '' ? '' : `${differs} `}Copy the text to replace from these lines and call edit again.` : differs;
      return tail === '' ? intro : `${intro}\n${tail}`;
    }
    case 'ambiguous': {
      const prefix = single ? '' : `edits[${failure.index}]: `;
      const lines = failure.strategy === 'exact' && lineCount(context.content) <= CLOSEST_REGION_MAX_LINES ? '' : ` (at ${listLines(failure.lines, failure.occurrences)})`;
      const replaceAll = single ? 'set replaceAll to true to replace every occurrence' : 'set replaceAll to true in this entry to replace every occurrence';
      if (failure.strategy === 'exact') {
        return `${prefix}oldString occurs ${failure.occurrences} times in ${context.displayPath}${lines}. Include more of the surrounding lines so that it occurs once, or ${replaceAll}.`;
      }
      return `${prefix}oldString is not in ${context.displayPath} as given; ${ambiguityPhrase(failure.strategy)} it matches ${failure.occurrences} places${lines}. Include more of the surrounding lines so that it matches one place, or ${replaceAll}.`;
    }
    case 'overlap':
      return `edits[${failure.index}] and edits[${failure.other}] overlap at line ${failure.line} of ${context.displayPath}: every entry is matched against the file as it was before this call, so two entries cannot change the same text. Merge them into one entry.`;
  }
}

/**
 * The sentence added when the model repeats a call that just failed the same way on the same
 * content (edit beyond the spec).
 */
export function repeatedFailureNotice(displayPath: string): string {
  return `This is the same edit as your last one on ${displayPath}, which failed the same way, and the file has not changed since: sending it again will not help. Read ${displayPath} again (the lines you want to change) and copy oldString from what read shows.`;
}

function ambiguityPhrase(strategy: Exclude<MatchStrategy, 'exact'>): string {
  switch (strategy) {
    case 'line-endings':
      return 'with line endings ignored';
    case 'trailing-whitespace':
      return 'with trailing whitespace ignored';
    case 'indentation':
      return 'with its indentation shifted';
    case 'typography':
      return 'with typographic quotes, dashes and spaces taken as plain ones';
  }
}

/** "lines 3, 9 and 12", "lines 3, 9, 12, 20, 31 and 4 more", "line 7". */
function listLines(lines: readonly number[], total: number): string {
  if (lines.length === 1 && total === 1) return `line ${lines[0]}`;
  const more = total - lines.length;
  if (more > 0) return `lines ${lines.join(', ')} and ${more} more`;
  return `lines ${lines.slice(0, -1).join(', ')} and ${lines[lines.length - 1]}`;
}

/** Lines of `content` as read counts them (a final line break ends the last line). */
function lineCount(content: string): number {
  let count = content.endsWith('\n') || content === '' ? 0 : 1;
  for (let index = content.indexOf('\n'); index >= 0; index = content.indexOf('\n', index + 1)) count += 1;
  return count;
}
