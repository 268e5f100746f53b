import { splitFileLines } from './file-lines.js';
import { describeIndentation, leadingWhitespace } from './indentation-shift.js';
import { plainTypography } from './plain-typography.js';

/** At most this many numbered lines of the file are shown (edit beyond the spec). */
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
 * The region of `content` most similar to `oldString`, or `undefined` when nothing reaches the
 * threshold. Lines are compared without indentation, with runs of whitespace collapsed and
 * typographic characters made plain, by the Dice coefficient of character pairs. Bounded work:
 * candidate places come from lines equal to a line of oldString and from the best places for its
 * most distinctive line; the best few are then aligned line by line, allowing a few lines missing
 * or added on either side, and the alignment says what differs.
 */
export function findClosestRegion(content: string, oldString: string): ClosestRegion | undefined {
  const fileLines = splitFileLines(content).map((line) => line.text);
  if (content.endsWith('\n')) fileLines.pop();
  if (fileLines.length === 0) return undefined;
  const fileKeys = fileLines.map(comparisonKey);
  const fileKeySet = new Set(fileKeys);
  const inFile = (lines: readonly string[]) => lines.filter((line) => line.trim() !== '' && fileKeySet.has(comparisonKey(line))).length;
  const numbered = modelLines(oldString);
  const hints: string[] = [];
  let model = numbered;
  // read's prefixes: every line has one, and without them more lines are found in the file (a
  // file whose own lines start with a number and a tab, like TSV, is not misread).
  if (numbered.some((line) => line.trim() !== '') && numbered.every((line) => line.trim() === '' || LINE_NUMBER_PREFIX.test(line))) {
    const stripped = numbered.map((line) => line.replace(LINE_NUMBER_PREFIX, ''));
    if (inFile(stripped) > inFile(numbered)) {
      hints.push('oldString starts its lines with line numbers as read shows them ("12\\t"); leave those out');
      model = stripped;
    }
  }
  // An elided oldString spans text it does not spell out: locate it by the lines before the gap.
  // A line the file really has (a Python `...` body) is not an elision.
  const elided = model.findIndex((line) => ELISION.test(line) && !fileKeySet.has(comparisonKey(line)));
  if (elided >= 0) {
    hints.push(`line ${elided + 1} of oldString (${quote(model[elided]?.trim() ?? '')}) stands for omitted text; oldString must spell out every line it replaces`);
    model = elided > 0 ? model.slice(0, elided) : model.slice(elided + 1);
  }
  const compared = model.slice(0, MAX_COMPARED_LINES);
  if (compared.length === 0 || compared.every((line) => line.trim() === '')) return undefined;

  const modelKeys = compared.map(comparisonKey);
  const scorer = new Similarity();
  const ranked: { start: number; score: number }[] = [];
  for (const start of seeds(fileKeys, modelKeys, scorer)) {
    let total = 0;
    for (let offset = 0; offset < modelKeys.length; offset += 1) {
      const fileKey = fileKeys[start + offset];
      if (fileKey !== undefined) total += scorer.lines(modelKeys[offset] ?? '', fileKey);
    }
    ranked.push({ start, score: total / modelKeys.length });
  }
  ranked.sort((a, b) => b.score - a.score || a.start - b.start);
  let best: Alignment | undefined;
  for (const { start } of ranked.slice(0, ALIGNED_CANDIDATES)) {
    const alignment = align(modelKeys, fileKeys, start, scorer);
    if (alignment !== undefined && (best === undefined || alignment.score > best.score || (alignment.score === best.score && alignment.first < best.first))) best = alignment;
  }
  if (best === undefined || best.score / modelKeys.length < SIMILARITY_THRESHOLD) return undefined;

  const comparison = describeAlignment(best, compared, fileLines);
  const differences = elided >= 0 ? hints : [...hints, ...comparison.differences];
  const { first, last } = best;
  const firstDifference = comparison.firstDifferentLine ?? first;
  const firstShown = last - first + 1 <= CLOSEST_REGION_MAX_LINES ? first : Math.max(first, Math.min(firstDifference - 1, last + 1 - CLOSEST_REGION_MAX_LINES));
  const shownLines = fileLines.slice(firstShown, Math.min(last + 1, firstShown + CLOSEST_REGION_MAX_LINES)).map(cutLine);
  return {
    region: { start: first + 1, end: last + 1 },
    firstShownLine: firstShown + 1,
    shownLines,
    differences: differences.slice(0, MAX_DIFFERENCES),
  };
}

/** One step of an alignment: a model line with a file line, or either one alone. */
type AlignmentStep = { readonly model: number; readonly file: number } | { readonly model: number; readonly file?: undefined } | { readonly model?: undefined; readonly file: number };

/** oldString's lines aligned with file lines `first..last` (0-based); `score` as `align` computes it. */
interface Alignment {
  readonly score: number;
  readonly first: number;
  readonly last: number;
  readonly steps: readonly AlignmentStep[];
}

/** Lines the alignment may reach before and after a candidate place. */
const ALIGNMENT_SLACK = 3;
/** Candidate places aligned in full. */
const ALIGNED_CANDIDATES = 3;
/** What a line of oldString with no counterpart, or a file line oldString leaves out, costs. */
const GAP_COST = 0.1;
/** Lines less alike than this are a line missing on each side rather than one changed line. */
const MIN_PAIRED_SIMILARITY = 0.4;

/**
 * Every line of oldString aligned with file lines near `start` (semi-global: file lines before and
 * after the aligned span are free), maximising the sum of line similarities minus gap costs.
 */
function align(modelKeys: readonly string[], fileKeys: readonly string[], start: number, scorer: Similarity): Alignment | undefined {
  const from = Math.max(0, start - ALIGNMENT_SLACK);
  const to = Math.min(fileKeys.length, start + modelKeys.length + ALIGNMENT_SLACK);
  const rows = modelKeys.length + 1;
  const columns = to - from + 1;
  const score = new Float64Array(rows * columns);
  const move = new Uint8Array(rows * columns); // 1 pair, 2 model line alone, 3 file line skipped
  for (let row = 1; row < rows; row += 1) {
    score[row * columns] = score[(row - 1) * columns]! - GAP_COST;
    move[row * columns] = 2;
    for (let column = 1; column < columns; column += 1) {
      const similarity = scorer.lines(modelKeys[row - 1] ?? '', fileKeys[from + column - 1] ?? '');
      let best = score[(row - 1) * columns + column]! - GAP_COST;
      let step = 2;
      if (similarity >= MIN_PAIRED_SIMILARITY && score[(row - 1) * columns + column - 1]! + similarity > best) {
        best = score[(row - 1) * columns + column - 1]! + similarity;
        step = 1;
      }
      if (score[row * columns + column - 1]! - GAP_COST > best) {
        best = score[row * columns + column - 1]! - GAP_COST;
        step = 3;
      }
      score[row * columns + column] = best;
      move[row * columns + column] = step;
    }
  }
  let column = 0;
  for (let candidate = 1; candidate < columns; candidate += 1) {
    if (score[(rows - 1) * columns + candidate]! > score[(rows - 1) * columns + column]!) column = candidate;
  }
  const total = score[(rows - 1) * columns + column]!;
  const steps: AlignmentStep[] = [];
  for (let row = rows - 1; row > 0; ) {
    const step = move[row * columns + column];
    if (step === 1) {
      steps.push({ model: row - 1, file: from + column - 1 });
      row -= 1;
      column -= 1;
    } else if (step === 3) {
      steps.push({ file: from + column - 1 });
      column -= 1;
    } else {
      steps.push({ model: row - 1 });
      row -= 1;
    }
  }
  steps.reverse();
  const paired = steps.filter((step) => step.model !== undefined && step.file !== undefined);
  const first = paired[0]?.file;
  const last = paired[paired.length - 1]?.file;
  if (first === undefined || last === undefined) return undefined;
  return { score: total, first, last, steps };
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

/** The alignment in words: the first file line that differs, and what differs. */
function describeAlignment(alignment: Alignment, model: readonly string[], fileLines: readonly string[]): { firstDifferentLine: number | undefined; differences: string[] } {
  const differences: string[] = [];
  const indentations: { line: number; file: string; model: string }[] = [];
  let firstDifferentLine: number | undefined;
  let previousFile: number | undefined;
  for (const step of alignment.steps) {
    if (differences.length >= MAX_DIFFERENCES) break;
    if (step.file === undefined) {
      const wanted = model[step.model] ?? '';
      firstDifferentLine ??= previousFile ?? alignment.first;
      differences.push(
        previousFile === undefined
          ? `oldString starts with a line the file does not have there: ${quote(wanted.trim())}`
          : `oldString has a line the file does not have after line ${previousFile + 1}: ${quote(wanted.trim())}`,
      );
      continue;
    }
    previousFile = step.file;
    const actual = fileLines[step.file] ?? '';
    const lineNumber = step.file + 1;
    if (step.model === undefined) {
      firstDifferentLine ??= step.file;
      differences.push(`oldString leaves out line ${lineNumber} of the file: ${quote(actual.trim())}`);
      continue;
    }
    const wanted = model[step.model] ?? '';
    if (wanted === actual || wanted.trimEnd() === actual.trimEnd()) continue;
    firstDifferentLine ??= step.file;
    if (wanted.trim() === actual.trim()) {
      const indentation = { line: lineNumber, file: leadingWhitespace(actual), model: leadingWhitespace(wanted) };
      if (indentations.length === 0) differences.push(INDENTATION_PLACEHOLDER);
      indentations.push(indentation);
    } else if (plainTypography(wanted).trim() === plainTypography(actual).trim()) {
      differences.push(`line ${lineNumber} has different quote, dash or space characters: the file has ${quote(actual.trim())}, oldString ${quote(wanted.trim())}`);
    } else if (comparisonKey(wanted) === comparisonKey(actual)) {
      differences.push(`line ${lineNumber} spaces its text differently: the file has ${quote(actual.trim())}, oldString ${quote(wanted.trim())}`);
    } else {
      differences.push(`line ${lineNumber} differs: the file has ${excerptAtDifference(actual, wanted)}, oldString ${excerptAtDifference(wanted, actual)}`);
    }
  }
  const at = differences.indexOf(INDENTATION_PLACEHOLDER);
  if (at >= 0) differences.splice(at, 1, ...describeIndentations(indentations));
  return { firstDifferentLine, differences: differences.slice(0, MAX_DIFFERENCES) };
}

const INDENTATION_PLACEHOLDER = '\u0000indentation';

/**
 * Lines whose only difference is indentation: one sentence when the file uses tabs where
 * oldString has spaces (or the other way round) on every such line — the classic cause — else
 * one sentence per line.
 */
function describeIndentations(indentations: readonly { line: number; file: string; model: string }[]): string[] {
  const only = (text: string, character: string) => text !== '' && [...text].every((unit) => unit === character);
  const tabsInFile = indentations.every((entry) => only(entry.file, '\t') && only(entry.model, ' '));
  const spacesInFile = indentations.every((entry) => only(entry.file, ' ') && only(entry.model, '\t'));
  if (indentations.length > 1 && (tabsInFile || spacesInFile)) {
    const lines = indentations.map((entry) => entry.line);
    const listed = lines.length > 5 ? `${lines.slice(0, 5).join(', ')} and ${lines.length - 5} more` : `${lines.slice(0, -1).join(', ')} and ${lines[lines.length - 1]}`;
    return [`lines ${listed} are indented with ${tabsInFile ? 'tabs' : 'spaces'} in the file, ${tabsInFile ? 'spaces' : 'tabs'} in oldString`];
  }
  return indentations.map(
    (entry) => `line ${entry.line} is indented with ${describeIndentation(entry.file)} in the file, ${describeIndentation(entry.model)} in oldString`,
  );
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
