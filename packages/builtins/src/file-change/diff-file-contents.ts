// The array diff alone (start-up): the package index loads all 19 of its modules, we use one.
import { diffArrays } from 'diff/lib/diff/array.js';
import { NO_NEWLINE_AT_END_OF_FILE, type FileChangeHunk } from './file-change-hunk.js';
import { splitLines } from './split-lines.js';

/** Lines of context around each change in a hunk (§8.4). */
export const DIFF_CONTEXT_LINES = 3;

/**
 * §8.4: when Myers' trace would exceed this many cells, the common-prefix-and-suffix diff is used
 * instead. The trace is what the textbook algorithm keeps to recover the script: one copy of the
 * furthest-reaching array `V[-MAX..MAX]` (MAX = N + M lines) per edit step, so D steps take
 * (D + 1) × (2 × (N + M) + 1) cells, and the work of a step grows the same way. The limit thus
 * bounds the time of every diff, whatever the input.
 */
export const MYERS_TRACE_LIMIT = 4_000_000;

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
   * `myers`: a shortest edit script. `prefix-suffix` (the §8.4 fallback, when Myers' trace would
   * exceed {@link MYERS_TRACE_LIMIT} cells): everything between the common first and last lines
   * is removed and added, so the counts are exact for these hunks but not minimal.
   */
  readonly algorithm: DiffAlgorithm;
}

/** One changed place: old lines `[oldStart, oldEnd)` replaced by new lines `[newStart, newEnd)` (0-based). */
interface ChangedBlock {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

/** The changed places in file order, and how they were found. */
interface EditScript {
  readonly blocks: ChangedBlock[];
  readonly algorithm: DiffAlgorithm;
}

/** The largest edit distance whose trace over sequences of these lengths stays within the limit. */
function maxEditLengthFor(oldLength: number, newLength: number): number {
  return Math.floor(MYERS_TRACE_LIMIT / (2 * (oldLength + newLength) + 1)) - 1;
}

/** Each line as a small integer, equal numbers for equal lines, so the loops below compare numbers. */
function internLines(oldLines: readonly string[], newLines: readonly string[]): { oldIds: Int32Array; newIds: Int32Array; distinct: number } {
  const ids = new Map<string, number>();
  const intern = (lines: readonly string[]): Int32Array => {
    const result = new Int32Array(lines.length);
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      result[index] = id;
    }
    return result;
  };
  const oldIds = intern(oldLines);
  const newIds = intern(newLines);
  return { oldIds, newIds, distinct: ids.size };
}

/** Which line numbers occur in `ids[start, end)`. */
function presence(ids: Int32Array, start: number, end: number, distinct: number): Uint8Array {
  const present = new Uint8Array(distinct);
  for (let index = start; index < end; index++) present[ids[index]!] = 1;
  return present;
}

/** Indices in `[start, end)` of `ids` whose line also occurs on the other side: only those can be common. */
function matchableIndices(ids: Int32Array, start: number, end: number, otherPresent: Uint8Array): number[] {
  const indices: number[] = [];
  for (let index = start; index < end; index++) if (otherPresent[ids[index]!] === 1) indices.push(index);
  return indices;
}

/**
 * The changed blocks of the middles by Myers (`diffArrays` of the `diff` package), or
 * `undefined` when its trace would exceed the limit. Lines that occur on one side only can never
 * be common, so Myers runs without them (as GNU diff does): the longest common subsequence, and
 * so the shortest script, stays the same, and a rewrite of every line costs linear time.
 */
function myersBlocks(
  oldIds: Int32Array,
  newIds: Int32Array,
  distinct: number,
  [oldStart, oldEnd]: readonly [number, number],
  [newStart, newEnd]: readonly [number, number],
): ChangedBlock[] | undefined {
  const oldKept = matchableIndices(oldIds, oldStart, oldEnd, presence(newIds, newStart, newEnd, distinct));
  const newKept = matchableIndices(newIds, newStart, newEnd, presence(oldIds, oldStart, oldEnd, distinct));
  const blocks: ChangedBlock[] = [];
  let oldCursor = oldStart;
  let newCursor = newStart;
  const common = (oldIndex: number, newIndex: number): void => {
    if (oldIndex > oldCursor || newIndex > newCursor) blocks.push({ oldStart: oldCursor, oldEnd: oldIndex, newStart: newCursor, newEnd: newIndex });
    oldCursor = oldIndex + 1;
    newCursor = newIndex + 1;
  };
  if (oldKept.length > 0 && newKept.length > 0) {
    const maxEditLength = maxEditLengthFor(oldKept.length, newKept.length);
    if (maxEditLength < Math.abs(oldKept.length - newKept.length)) return undefined;
    const changes = diffArrays(
      oldKept.map((index) => oldIds[index]!),
      newKept.map((index) => newIds[index]!),
      { maxEditLength },
    );
    if (changes === undefined) return undefined;
    let oldKeptIndex = 0;
    let newKeptIndex = 0;
    for (const change of changes) {
      if (change.added) {
        newKeptIndex += change.count;
      } else if (change.removed) {
        oldKeptIndex += change.count;
      } else {
        for (let offset = 0; offset < change.count; offset++) common(oldKept[oldKeptIndex + offset]!, newKept[newKeptIndex + offset]!);
        oldKeptIndex += change.count;
        newKeptIndex += change.count;
      }
    }
  }
  common(oldEnd, newEnd);
  return blocks;
}

/** Common first and last lines, then Myers on the middle, or the §8.4 fallback beyond the limit. */
function editScript(oldLines: readonly string[], newLines: readonly string[]): EditScript {
  const { oldIds, newIds, distinct } = internLines(oldLines, newLines);
  const shorter = Math.min(oldIds.length, newIds.length);
  let prefix = 0;
  while (prefix < shorter && oldIds[prefix] === newIds[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && oldIds[oldIds.length - 1 - suffix] === newIds[newIds.length - 1 - suffix]) suffix++;
  const oldRange = [prefix, oldIds.length - suffix] as const;
  const newRange = [prefix, newIds.length - suffix] as const;
  if (oldRange[0] === oldRange[1] && newRange[0] === newRange[1]) return { blocks: [], algorithm: 'myers' };
  const blocks = myersBlocks(oldIds, newIds, distinct, oldRange, newRange);
  if (blocks !== undefined) return { blocks, algorithm: 'myers' };
  return {
    blocks: [{ oldStart: oldRange[0], oldEnd: oldRange[1], newStart: newRange[0], newEnd: newRange[1] }],
    algorithm: 'prefix-suffix',
  };
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

/**
 * §8.4: the line diff of `before` and `after` with three lines of context. Myers (the `diff`
 * package) on the lines between the common first and last lines; when its trace would exceed
 * {@link MYERS_TRACE_LIMIT} cells, the common-prefix-and-suffix diff, so a 1 MiB rewrite costs
 * milliseconds, not seconds. Lines are compared exactly (a `\r` or a missing final newline counts).
 */
export function diffFileContents(before: string, after: string): FileContentDiff {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const { blocks, algorithm } = editScript(oldLines, newLines);
  let additions = 0;
  let deletions = 0;
  for (const block of blocks) {
    additions += block.newEnd - block.newStart;
    deletions += block.oldEnd - block.oldStart;
  }
  const hunks = groupBlocks(blocks).map((group) => buildHunk(group, oldLines, newLines));
  return { hunks, additions, deletions, algorithm };
}
