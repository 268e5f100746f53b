import { diffArrays } from 'diff';
import { NO_NEWLINE_AT_END_OF_FILE, type FileChangeHunk } from './file-change-hunk.js';
import { splitLines } from './split-lines.js';

/** Lines of context around each change in a hunk (§8.4). */
export const DIFF_CONTEXT_LINES = 3;

/**
 * §8.4: above this many trace cells Myers gives way to the common-prefix-and-suffix diff. After D
 * edit steps Myers' trace holds one furthest-reaching point per diagonal per step, (D + 1)² in
 * all, so the limit is an edit distance of 1,999 lines.
 */
export const MYERS_TRACE_LIMIT = 4_000_000;

const maxEditLength = Math.floor(Math.sqrt(MYERS_TRACE_LIMIT)) - 1;

/** Which algorithm produced a {@link FileContentDiff}. */
export type DiffAlgorithm = 'myers' | 'prefix-suffix';

/** A line diff of two texts: the hunks and exact counts of the lines they add and remove. */
export interface FileContentDiff {
  readonly hunks: FileChangeHunk[];
  /** Lines marked `+` in the hunks. */
  readonly additions: number;
  /** Lines marked `-` in the hunks. */
  readonly deletions: number;
  /**
   * `myers`: a shortest edit script. `prefix-suffix` (the §8.4 fallback, when Myers would need
   * more than {@link MYERS_TRACE_LIMIT} trace cells): everything between the common first and
   * last lines is removed and added, so the counts are exact for these hunks but not minimal.
   */
  readonly algorithm: DiffAlgorithm;
}

/** A run of the edit script, in file order; `removed` runs come before `added` runs at one place. */
interface EditRun {
  readonly operation: 'equal' | 'removed' | 'added';
  readonly count: number;
}

/**
 * A cheap lower bound of the edit distance: every line that one side has more often than the
 * other must be removed or added. When it already exceeds the Myers budget, the fallback is taken
 * at once instead of after 2,000 Myers steps (a 1 MiB rewrite of every line).
 */
function editDistanceLowerBound(oldLines: readonly string[], newLines: readonly string[]): number {
  const balance = new Map<string, number>();
  for (const line of oldLines) balance.set(line, (balance.get(line) ?? 0) + 1);
  for (const line of newLines) balance.set(line, (balance.get(line) ?? 0) - 1);
  let bound = 0;
  for (const count of balance.values()) bound += Math.abs(count);
  return bound;
}

/** The middle part's edit script: Myers within the trace limit, else remove-all-then-add-all. */
function diffMiddle(oldLines: string[], newLines: string[]): { runs: EditRun[]; algorithm: DiffAlgorithm } {
  const fallback: EditRun[] = [
    { operation: 'removed', count: oldLines.length },
    { operation: 'added', count: newLines.length },
  ];
  // Nothing to align when one side is empty: the simple script is the shortest one.
  if (oldLines.length === 0 || newLines.length === 0) return { runs: fallback, algorithm: 'myers' };
  if (editDistanceLowerBound(oldLines, newLines) > maxEditLength) return { runs: fallback, algorithm: 'prefix-suffix' };
  const changes = diffArrays(oldLines, newLines, { maxEditLength });
  if (changes === undefined) return { runs: fallback, algorithm: 'prefix-suffix' };
  const runs = changes.map((change): EditRun => ({
    operation: change.added ? 'added' : change.removed ? 'removed' : 'equal',
    count: change.count,
  }));
  return { runs, algorithm: 'myers' };
}

/** One changed place: a block of removed old lines and the added new lines that replace it (0-based). */
interface ChangedBlock {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

function changedBlocks(runs: readonly EditRun[]): ChangedBlock[] {
  const blocks: ChangedBlock[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  let open: { oldStart: number; newStart: number } | undefined;
  const close = () => {
    if (open !== undefined) blocks.push({ oldStart: open.oldStart, oldEnd: oldIndex, newStart: open.newStart, newEnd: newIndex });
    open = undefined;
  };
  for (const run of runs) {
    if (run.count === 0) continue;
    if (run.operation === 'equal') {
      close();
      oldIndex += run.count;
      newIndex += run.count;
      continue;
    }
    open ??= { oldStart: oldIndex, newStart: newIndex };
    if (run.operation === 'removed') oldIndex += run.count;
    else newIndex += run.count;
  }
  close();
  return blocks;
}

/** Push `line` with its prefix and without its `\n`; a last line without one gets the marker. */
function pushLine(lines: string[], prefix: ' ' | '-' | '+', line: string): void {
  if (line.endsWith('\n')) {
    lines.push(prefix + line.slice(0, -1));
  } else {
    lines.push(prefix + line, NO_NEWLINE_AT_END_OF_FILE);
  }
}

/** Blocks closer than twice the context share a hunk, as in `diff -u`. */
function groupBlocks(blocks: readonly ChangedBlock[]): ChangedBlock[][] {
  const groups: ChangedBlock[][] = [];
  for (const block of blocks) {
    const group = groups.at(-1);
    const previous = group?.at(-1);
    if (group !== undefined && previous !== undefined && block.oldStart - previous.oldEnd <= 2 * DIFF_CONTEXT_LINES) {
      group.push(block);
    } else {
      groups.push([block]);
    }
  }
  return groups;
}

function buildHunk(group: readonly ChangedBlock[], oldLines: readonly string[], newLines: readonly string[]): FileChangeHunk {
  const first = group[0]!;
  const last = group.at(-1)!;
  // Before the first and after the last block the two sides are equal line for line.
  const leading = Math.min(DIFF_CONTEXT_LINES, first.oldStart);
  const trailing = Math.min(DIFF_CONTEXT_LINES, oldLines.length - last.oldEnd);
  const lines: string[] = [];
  let oldIndex = first.oldStart - leading;
  for (const block of group) {
    for (; oldIndex < block.oldStart; oldIndex++) pushLine(lines, ' ', oldLines[oldIndex]!);
    for (let index = block.oldStart; index < block.oldEnd; index++) pushLine(lines, '-', oldLines[index]!);
    for (let index = block.newStart; index < block.newEnd; index++) pushLine(lines, '+', newLines[index]!);
    oldIndex = block.oldEnd;
  }
  for (const end = last.oldEnd + trailing; oldIndex < end; oldIndex++) pushLine(lines, ' ', oldLines[oldIndex]!);
  const oldStart = first.oldStart - leading;
  const newStart = first.newStart - leading;
  return Object.freeze({
    oldStart: oldStart + 1,
    oldLines: last.oldEnd + trailing - oldStart,
    newStart: newStart + 1,
    newLines: last.newEnd + trailing - newStart,
    lines: Object.freeze(lines),
  });
}

/**
 * §8.4: the line diff of `before` and `after` with three lines of context. Myers (the `diff`
 * package) on the lines between the common first and last lines; when that would need more than
 * {@link MYERS_TRACE_LIMIT} trace cells, the common-prefix-and-suffix diff, so a 1 MiB rewrite of
 * every line costs linear time. Lines are compared exactly (a `\r` or a missing final newline
 * counts).
 */
export function diffFileContents(before: string, after: string): FileContentDiff {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const shorter = Math.min(oldLines.length, newLines.length);
  let prefix = 0;
  while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) suffix++;
  if (prefix + suffix === oldLines.length && prefix + suffix === newLines.length) {
    return { hunks: [], additions: 0, deletions: 0, algorithm: 'myers' };
  }
  const middle = diffMiddle(oldLines.slice(prefix, oldLines.length - suffix), newLines.slice(prefix, newLines.length - suffix));
  const runs: EditRun[] = [{ operation: 'equal', count: prefix }, ...middle.runs, { operation: 'equal', count: suffix }];
  let additions = 0;
  let deletions = 0;
  for (const run of runs) {
    if (run.operation === 'added') additions += run.count;
    if (run.operation === 'removed') deletions += run.count;
  }
  const hunks = groupBlocks(changedBlocks(runs)).map((group) => buildHunk(group, oldLines, newLines));
  return { hunks, additions, deletions, algorithm: middle.algorithm };
}
