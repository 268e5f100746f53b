import { splitFileLines } from './file-lines.js';
import { describeIndentation, leadingWhitespace } from './indentation-shift.js';
import { plainTypography } from './plain-typography.js';

/** At most this many numbered lines of the file are shown (issue 17). */
export const CLOSEST_REGION_MAX_LINES = 10;

/**
 * The text of the file most like an `oldString` that was not found: where it is, the lines to
 * show (numbered like read), and what differs, in words a model can act on.
 */
export interface ClosestRegion {
  /** 1-based lines of the whole region that scored best. */
  readonly region: { readonly start: number; readonly end: number };
  /** 1-based number of the first shown line. */
  readonly firstShownLine: number;
  /** At most `CLOSEST_REGION_MAX_LINES` lines, as they are in the file (cut when very long). */
  readonly shownLines: readonly string[];
  /** Short sentences, the most useful first; may be empty. */
  readonly differences: readonly string[];
}

/** Below this mean line similarity (0–1), nothing in the file is shown as "closest". */
const SIMILARITY_THRESHOLD = 0.6;
/** Lines of oldString compared (an oldString longer than this is judged by its start). */
const MAX_COMPARED_LINES = 100;
/** Places scored in full at most (seeded by identical lines, then by the most distinctive line). */
const MAX_SEEDS = 200;
const MAX_SHOWN_LINE_CHARS = 200;
const MAX_QUOTED_CHARS = 60;
const MAX_DIFFERENCES = 3;

/** read's `{line number}\t` prefix, copied into oldString by mistake. */
const LINE_NUMBER_PREFIX = /^ *\d+\t/;
/** A line that stands for omitted code (`...`, `// ...`, `# … rest unchanged …`). */
const ELISION = /^\s*(?:\/\/|#|\/\*|<!--|--)?\s*(?:\.\.\.|…)(?:.*(?:\.\.\.|…))?\s*(?:\*\/|-->)?\s*$|\.\.\.\s*(?:existing|rest of|unchanged)/i;

/**
 * The region of `content` most similar to `oldString`, line by line (each line compared without
 * indentation, with runs of whitespace collapsed and typographic characters made plain, by the
 * Dice coefficient of character pairs), or `undefined` when nothing reaches the threshold.
 * Bounded work: candidate places come from lines equal to a line of oldString, plus the best
 * places for its most distinctive line.
 */
export function findClosestRegion(content: string, oldString: string): ClosestRegion | undefined {
  const fileLines = splitFileLines(content).map((line) => line.text);
  if (content.endsWith('\n')) fileLines.pop();
  if (fileLines.length === 0) return undefined;
  const numbered = modelLines(oldString);
  const hints: string[] = [];
  let model = numbered;
  if (numbered.some((line) => line.trim() !== '') && numbered.every((line) => line.trim() === '' || LINE_NUMBER_PREFIX.test(line))) {
    hints.push('oldString starts its lines with line numbers as read shows them ("12\\t"); leave those out');
    model = numbered.map((line) => line.replace(LINE_NUMBER_PREFIX, ''));
  }
  const elided = model.findIndex((line) => ELISION.test(line));
  if (elided >= 0) hints.push(`line ${elided + 1} of oldString (${quote(model[elided] ?? '')}) stands for omitted text; oldString must spell out every line it replaces`);
  const compared = model.slice(0, MAX_COMPARED_LINES);
  if (compared.length === 0) return undefined;

  const fileKeys = fileLines.map(comparisonKey);
  const modelKeys = compared.map(comparisonKey);
  const scorer = new Similarity();
  let best: { start: number; score: number } | undefined;
  for (const start of seeds(fileKeys, modelKeys, scorer)) {
    let total = 0;
    for (let offset = 0; offset < modelKeys.length; offset += 1) {
      const fileKey = fileKeys[start + offset];
      if (fileKey !== undefined) total += scorer.lines(modelKeys[offset] ?? '', fileKey);
    }
    const score = total / modelKeys.length;
    if (best === undefined || score > best.score || (score === best.score && start < best.start)) best = { start, score };
  }
  if (best === undefined || best.score < SIMILARITY_THRESHOLD) return undefined;

  const start = best.start;
  const end = Math.min(fileLines.length, start + compared.length) - 1;
  const comparison = compareLines(compared, fileLines, start);
  const firstDifference = comparison.firstDifferentLine ?? start;
  const firstShown = end - start + 1 <= CLOSEST_REGION_MAX_LINES ? start : Math.max(start, Math.min(firstDifference - 1, end + 1 - CLOSEST_REGION_MAX_LINES));
  const shownLines = fileLines.slice(firstShown, Math.min(end + 1, firstShown + CLOSEST_REGION_MAX_LINES)).map(cutLine);
  return {
    region: { start: start + 1, end: end + 1 },
    firstShownLine: firstShown + 1,
    shownLines,
    differences: [...hints, ...comparison.differences].slice(0, MAX_DIFFERENCES),
  };
}

/** oldString's lines, without the empty ones a leading or trailing line break makes. */
function modelLines(oldString: string): string[] {
  const lines = oldString.split(/\r?\n/);
  if (lines.length > 1 && lines[0] === '') lines.shift();
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** What similarity compares: no indentation, single spaces, plain quotes and dashes. */
function comparisonKey(line: string): string {
  return plainTypography(line).trim().replace(/\s+/g, ' ');
}

/** 0-based start lines worth scoring. */
function seeds(fileKeys: readonly string[], modelKeys: readonly string[], scorer: Similarity): Set<number> {
  const last = fileKeys.length - 1;
  const clamp = (start: number) => Math.min(Math.max(start, 0), last);
  const found = new Set<number>();
  // Places where some line of oldString occurs as it is (short lines like `}` say too little).
  const wanted = new Map<string, number[]>();
  modelKeys.forEach((key, offset) => {
    if (key.length >= 4) wanted.set(key, [...(wanted.get(key) ?? []), offset]);
  });
  for (let index = 0; index < fileKeys.length && found.size < MAX_SEEDS; index += 1) {
    for (const offset of wanted.get(fileKeys[index] ?? '') ?? []) found.add(clamp(index - offset));
  }
  // The most distinctive line of oldString against every line of the file: the best few places.
  let distinctive = 0;
  modelKeys.forEach((key, offset) => {
    if (key.length > (modelKeys[distinctive] ?? '').length) distinctive = offset;
  });
  const key = modelKeys[distinctive] ?? '';
  const top: { index: number; score: number }[] = [];
  fileKeys.forEach((fileKey, index) => {
    const floor = top.length < 8 ? 0.3 : (top[top.length - 1]?.score ?? 0);
    if (Similarity.upperBound(key, fileKey) <= floor) return;
    const score = scorer.lines(key, fileKey);
    if (score <= floor) return;
    top.push({ index, score });
    top.sort((a, b) => b.score - a.score);
    if (top.length > 8) top.pop();
  });
  for (const { index } of top) found.add(clamp(index - distinctive));
  return found;
}

/** Dice coefficient of character pairs, with the pairs of the last left string kept. */
class Similarity {
  #left = '';
  #pairs = new Map<string, number>();

  /** 1 for equal keys, 0 when only one is blank, else the Dice coefficient. */
  lines(left: string, right: string): number {
    if (left === right) return 1;
    if (left === '' || right === '') return 0;
    const a = left.slice(0, 300);
    const b = right.slice(0, 300);
    if (a.length < 2 || b.length < 2) return 0;
    if (a !== this.#left) {
      this.#left = a;
      this.#pairs = new Map();
      for (let index = 0; index + 1 < a.length; index += 1) {
        const pair = a.slice(index, index + 2);
        this.#pairs.set(pair, (this.#pairs.get(pair) ?? 0) + 1);
      }
    }
    const remaining = new Map(this.#pairs);
    let shared = 0;
    for (let index = 0; index + 1 < b.length; index += 1) {
      const pair = b.slice(index, index + 2);
      const count = remaining.get(pair) ?? 0;
      if (count > 0) {
        shared += 1;
        remaining.set(pair, count - 1);
      }
    }
    return (2 * shared) / (a.length - 1 + b.length - 1);
  }

  /** No two strings of these lengths score higher. */
  static upperBound(left: string, right: string): number {
    if (left === right) return 1;
    const a = Math.min(left.length, 300) - 1;
    const b = Math.min(right.length, 300) - 1;
    return a <= 0 || b <= 0 ? 0 : (2 * Math.min(a, b)) / (a + b);
  }
}

/** Line by line from `start`: the first line that differs and what differs, in words. */
function compareLines(model: readonly string[], fileLines: readonly string[], start: number): { firstDifferentLine: number | undefined; differences: string[] } {
  const differences: string[] = [];
  let firstDifferentLine: number | undefined;
  for (let offset = 0; offset < model.length && differences.length < MAX_DIFFERENCES; offset += 1) {
    const index = start + offset;
    const wanted = model[offset] ?? '';
    const actual = fileLines[index];
    if (actual === undefined) {
      firstDifferentLine ??= index;
      differences.push(`oldString goes on past the end of the file (its line ${offset + 1}, ${quote(wanted)}, has no counterpart)`);
      break;
    }
    if (wanted === actual || wanted.trimEnd() === actual.trimEnd()) continue;
    firstDifferentLine ??= index;
    const lineNumber = index + 1;
    if (wanted.trim() === actual.trim()) {
      differences.push(
        `line ${lineNumber} is indented with ${describeIndentation(leadingWhitespace(actual))} in the file, ${describeIndentation(leadingWhitespace(wanted))} in oldString`,
      );
      continue;
    }
    if (plainTypography(wanted).trim() === plainTypography(actual).trim()) {
      differences.push(`line ${lineNumber} has different quote, dash or space characters: the file has ${quote(actual.trim())}, oldString ${quote(wanted.trim())}`);
      continue;
    }
    if (comparisonKey(wanted) === comparisonKey(actual)) {
      differences.push(`line ${lineNumber} spaces its text differently: the file has ${quote(actual.trim())}, oldString ${quote(wanted.trim())}`);
      continue;
    }
    const nextWanted = model[offset + 1];
    if (nextWanted !== undefined && comparisonKey(nextWanted) === comparisonKey(actual) && comparisonKey(actual) !== '') {
      differences.push(`oldString has a line the file does not have before line ${lineNumber}: ${quote(wanted.trim())}`);
      break;
    }
    const nextActual = fileLines[index + 1];
    if (nextActual !== undefined && comparisonKey(nextActual) === comparisonKey(wanted) && comparisonKey(wanted) !== '') {
      differences.push(`oldString leaves out line ${lineNumber} of the file: ${quote(actual.trim())}`);
      break;
    }
    differences.push(`line ${lineNumber} differs: the file has ${excerptAtDifference(actual, wanted)}, oldString ${excerptAtDifference(wanted, actual)}`);
  }
  return { firstDifferentLine, differences };
}

/** `text` around the first character where it differs from `other`, quoted. */
function excerptAtDifference(text: string, other: string): string {
  const trimmed = text.trim();
  const otherTrimmed = other.trim();
  let at = 0;
  while (at < trimmed.length && trimmed[at] === otherTrimmed[at]) at += 1;
  if (trimmed.length <= MAX_QUOTED_CHARS) return quote(trimmed);
  const from = Math.max(0, at - 20);
  const excerpt = trimmed.slice(from, from + MAX_QUOTED_CHARS);
  return JSON.stringify(`${from > 0 ? '…' : ''}${excerpt}${from + MAX_QUOTED_CHARS < trimmed.length ? '…' : ''}`);
}

function quote(text: string): string {
  return JSON.stringify(text.length <= MAX_QUOTED_CHARS ? text : `${text.slice(0, MAX_QUOTED_CHARS)}…`);
}

function cutLine(line: string): string {
  return line.length <= MAX_SHOWN_LINE_CHARS ? line : `${line.slice(0, MAX_SHOWN_LINE_CHARS)}… (line cut)`;
}
