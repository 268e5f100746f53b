import type { EditMatchRequest, MatchStrategy, Replacement } from './edit-match.js';
import { splitFileLines, type FileLine } from './file-lines.js';
import { consistentShift, isShift, leadingWhitespace, shiftLine, type IndentationShift } from './indentation-shift.js';
import { plainTypography } from './plain-typography.js';

/** The tolerant levels (docs/decisions/0021-edit-tolerant-matching-in-a-safe-order.md), in the order they are tried after the exact step finds nothing. */
export type TolerantLevel = Exclude<MatchStrategy, 'exact'>;

export const TOLERANT_LEVELS: readonly TolerantLevel[] = ['line-endings', 'trailing-whitespace', 'indentation', 'typography'];

/** What each level allows; every level allows what the ones before it allow. */
interface LevelRules {
  /** Spaces and tabs at the end of a line are ignored. */
  readonly trimEnd: boolean;
  /** The whole block may be indented consistently more or less (`IndentationShift`). */
  readonly shift: boolean;
  /** Typographic quotes, dashes and spaces compare equal to their plain forms. */
  readonly plain: boolean;
}

const RULES: Readonly<Record<TolerantLevel, LevelRules>> = {
  'line-endings': { trimEnd: false, shift: false, plain: false },
  'trailing-whitespace': { trimEnd: true, shift: false, plain: false },
  indentation: { trimEnd: true, shift: true, plain: false },
  typography: { trimEnd: true, shift: true, plain: true },
};

/** A replacement found by a tolerant level, with the indentation shift applied to its text. */
export interface TolerantReplacement extends Replacement {
  readonly shift: IndentationShift | undefined;
}

/** The outcome of the tolerant levels for one `oldString`. */
export type TolerantMatch =
  | { readonly ok: true; readonly level: TolerantLevel; readonly replacements: readonly TolerantReplacement[] }
  | { readonly ok: false; readonly reason: 'ambiguous'; readonly level: TolerantLevel; readonly starts: readonly number[] }
  | { readonly ok: false; readonly reason: 'not_found' };

/** One place a level found, before its replacement text is built. */
interface Candidate {
  readonly start: number;
  readonly end: number;
  readonly shift: IndentationShift | undefined;
  /** The match starts inside a line, so the first line of `newString` keeps the file's indentation. */
  readonly startsMidLine: boolean;
}

/** Non-blank lines an indentation shift must be seen on. */
const MIN_SHIFTED_LINES = 2;

const NOT_FOUND: TolerantMatch = Object.freeze({ ok: false, reason: 'not_found' });

/**
 * Tolerant matching (docs/decisions/0021-edit-tolerant-matching-in-a-safe-order.md), for an `oldString` the exact step did not find. Levels are tried in
 * order (`TOLERANT_LEVELS`); the first level that finds anything decides: exactly one place (or
 * every place, left to right and without overlaps, with `replaceAll`), else `ambiguous`.
 *
 * Every line of `oldString` must match a line of the file under the level's rules — there is no
 * matching by first and last lines only. The first line of a multi-line `oldString` may be the end
 * of a file line and its last line the start of one, exactly as in an exact match. An `oldString`
 * of whitespace only is never matched tolerantly.
 *
 * The indentation level needs a block: two or more non-blank lines whose indentation all moves by
 * the same shift.
 *
 * The replacement covers the file's own text (so the artifact diff is exact); `newString` gets the
 * line breaks of the text it replaces and, at the indentation level, the same shift.
 */
export function findTolerantReplacements(request: EditMatchRequest): TolerantMatch {
  if (!/\S/.test(request.oldString)) return NOT_FOUND;
  const file = new FileView(request.content);
  const segments = request.oldString.split(/\r?\n/);
  for (const level of TOLERANT_LEVELS) {
    const rules = RULES[level];
    const found = segments.length === 1 ? lineCandidates(file, segments[0] ?? '', rules) : blockCandidates(file, segments, rules);
    if (found.length === 0) continue;
    const candidates = distinct(found);
    if (candidates.length > 1 && !request.replaceAll) {
      return { ok: false, reason: 'ambiguous', level, starts: candidates.map((candidate) => candidate.start) };
    }
    const chosen = request.replaceAll ? withoutOverlaps(candidates) : candidates;
    const replacements = chosen.map(
      (candidate): TolerantReplacement => ({
        start: candidate.start,
        end: candidate.end,
        text: replacementText(request.newString, candidate, file),
        shift: isShift(candidate.shift) ? candidate.shift : undefined,
      }),
    );
    return { ok: true, level, replacements };
  }
  return NOT_FOUND;
}

/** The content's lines, and their plain-typography forms computed when first needed. */
class FileView {
  readonly content: string;
  readonly lines: readonly FileLine[];
  readonly #plain: (string | undefined)[] = [];
  #lineBreak: string | undefined;

  constructor(content: string) {
    this.content = content;
    this.lines = splitFileLines(content);
  }

  /** Line `index` as the level compares it. */
  text(index: number, rules: LevelRules): string {
    const line = this.lines[index];
    if (line === undefined) return '';
    if (!rules.plain) return line.text;
    return (this.#plain[index] ??= plainTypography(line.text));
  }

  /** The line break most of the file uses (`\n` on a tie or without any). */
  get lineBreak(): string {
    if (this.#lineBreak === undefined) {
      const breaks = countBreaks(this.content);
      this.#lineBreak = breaks.crlf > breaks.lf ? '\r\n' : '\n';
    }
    return this.#lineBreak;
  }
}

/**
 * A one-line `oldString`: a part of one line. Its indentation is never shifted: one line is no
 * evidence of a moved block (in Python the same statement one level deeper is another line). An
 * interpretation that overlaps a place already found in the same line is the same occurrence read
 * another way, and is dropped rather than counted twice.
 */
function lineCandidates(file: FileView, segment: string, rules: LevelRules): Candidate[] {
  const model = rules.plain ? plainTypography(segment) : segment;
  const trailing = rules.trimEnd && /[ \t]$/.test(model) ? trimEnd(model) : undefined;
  const candidates: Candidate[] = [];
  file.lines.forEach((line, index) => {
    const text = file.text(index, rules);
    const inLine: Candidate[] = [];
    const add = (candidate: Candidate) => {
      if (!inLine.some((other) => candidate.start < other.end && other.start < candidate.end)) inLine.push(candidate);
    };
    // Typographic characters: the same text anywhere in the line.
    if (rules.plain) {
      for (let at = text.indexOf(model); at >= 0; at = text.indexOf(model, at + 1)) {
        add({ start: line.start + at, end: line.start + at + model.length, shift: undefined, startsMidLine: true });
      }
    }
    // Trailing whitespace in oldString: the text before it must end the line.
    if (trailing !== undefined && trailing !== '') {
      const lineText = trimEnd(text);
      if (lineText.endsWith(trailing)) {
        add({ start: line.start + lineText.length - trailing.length, end: line.start + text.length, shift: undefined, startsMidLine: true });
      }
    }
    candidates.push(...inLine);
  });
  return candidates;
}

/** Where the first line of a multi-line `oldString` may start in a file line. */
interface FirstLineOption {
  readonly start: number;
  readonly startsMidLine: boolean;
  readonly indentation?: { readonly model: string; readonly file: string };
}

/** Where the last line of a multi-line `oldString` may end in a file line. */
type LastLineOption =
  | { readonly end: number; readonly indentation?: { readonly model: string; readonly file: string } }
  /** Indentation only (oldString ends inside the next line's indentation): placed once the shift is known. */
  | { readonly whitespace: string };

/** A multi-line `oldString`: the end of a line, whole lines, the start of a line. */
function blockCandidates(file: FileView, segments: readonly string[], rules: LevelRules): Candidate[] {
  const models = segments.map((segment) => (rules.plain ? plainTypography(segment) : segment));
  const last = models.length - 1;
  const candidates: Candidate[] = [];
  for (let index = 0; index + last < file.lines.length; index += 1) {
    const pairs: { model: string; file: string }[] = [];
    let inner = true;
    for (let offset = 1; offset < last && inner; offset += 1) {
      inner = wholeLineMatches(models[offset] ?? '', file.text(index + offset, rules), rules, pairs);
    }
    if (!inner) continue;
    const candidate = placeBlock(file, index, models, rules, pairs);
    if (candidate !== undefined) candidates.push(candidate);
  }
  return candidates;
}

/** The first consistent way to place the first and last lines around matching inner lines. */
function placeBlock(
  file: FileView,
  index: number,
  models: readonly string[],
  rules: LevelRules,
  innerPairs: readonly { model: string; file: string }[],
): Candidate | undefined {
  const last = models.length - 1;
  const firstLine = file.lines[index];
  const lastLine = file.lines[index + last];
  if (firstLine === undefined || lastLine === undefined) return undefined;
  const firstOptions = firstLineOptions(models[0] ?? '', firstLine, file.text(index, rules), rules);
  const lastOptions = lastLineOptions(models[last] ?? '', lastLine, file.text(index + last, rules), rules);
  for (const first of firstOptions) {
    for (const end of lastOptions) {
      const pairs = [...innerPairs];
      if (first.indentation !== undefined) pairs.push(first.indentation);
      if ('end' in end && end.indentation !== undefined) pairs.push(end.indentation);
      const shift = rules.shift ? consistentShift(pairs) : undefined;
      if (rules.shift && shift === undefined) continue;
      // A shift needs two non-blank lines to show it is the block that moved.
      if (isShift(shift) && pairs.length < MIN_SHIFTED_LINES) continue;
      let endOffset: number;
      if ('end' in end) {
        endOffset = end.end;
      } else {
        const placed = shift === undefined ? end.whitespace : shiftedIndentation(end.whitespace, shift);
        if (placed === undefined || !file.text(index + last, rules).startsWith(placed)) continue;
        endOffset = lastLine.start + placed.length;
      }
      return { start: first.start, end: endOffset, shift, startsMidLine: first.startsMidLine };
    }
  }
  return undefined;
}

function firstLineOptions(model: string, line: FileLine, text: string, rules: LevelRules): FirstLineOption[] {
  // oldString starts with a line break: at the end of this line's text.
  if (model === '') return [{ start: line.start + line.text.length, startsMidLine: true }];
  const options: FirstLineOption[] = [];
  if (rules.shift) {
    const pairs: { model: string; file: string }[] = [];
    if (wholeLineMatches(model, text, rules, pairs)) options.push({ start: line.start, startsMidLine: false, ...(pairs[0] === undefined ? {} : { indentation: pairs[0] }) });
  }
  const lineText = rules.trimEnd ? trimEnd(text) : text;
  const modelText = rules.trimEnd ? trimEnd(model) : model;
  if (lineText.endsWith(modelText)) options.push({ start: line.start + lineText.length - modelText.length, startsMidLine: true });
  return options;
}

function lastLineOptions(model: string, line: FileLine, text: string, rules: LevelRules): LastLineOption[] {
  // oldString ends with a line break: at the start of this line.
  if (model === '') return [{ end: line.start }];
  const options: LastLineOption[] = [];
  if (rules.shift) {
    const indentation = leadingWhitespace(model);
    const body = model.slice(indentation.length);
    if (trimEnd(body) === '') return [{ whitespace: model }];
    const lineIndentation = leadingWhitespace(text);
    const lineBody = text.slice(lineIndentation.length);
    const pair = { model: indentation, file: lineIndentation };
    if (trimEnd(body) === trimEnd(lineBody)) options.push({ end: line.start + text.length, indentation: pair });
    else if (lineBody.startsWith(body)) options.push({ end: line.start + lineIndentation.length + body.length, indentation: pair });
    return options;
  }
  if (rules.trimEnd && trimEnd(model) !== '' && trimEnd(model) === trimEnd(text)) options.push({ end: line.start + text.length });
  else if (text.startsWith(model)) options.push({ end: line.start + model.length });
  return options;
}

/**
 * A whole line of `oldString` against a whole file line. With `shift`, the indentations of
 * non-blank lines are collected in `pairs` for the block's consistency check.
 */
function wholeLineMatches(model: string, text: string, rules: LevelRules, pairs: { model: string; file: string }[]): boolean {
  if (!rules.shift) return rules.trimEnd ? trimEnd(model) === trimEnd(text) : model === text;
  const modelIndentation = leadingWhitespace(model);
  const lineIndentation = leadingWhitespace(text);
  const body = trimEnd(model.slice(modelIndentation.length));
  if (body !== trimEnd(text.slice(lineIndentation.length))) return false;
  if (body !== '') pairs.push({ model: modelIndentation, file: lineIndentation });
  return true;
}

/** The indentation `whitespace` becomes under `shift`, if it starts with the shifted part. */
function shiftedIndentation(whitespace: string, shift: IndentationShift): string | undefined {
  return whitespace.startsWith(shift.from) ? shift.to + whitespace.slice(shift.from.length) : undefined;
}

/**
 * `newString` for one candidate: re-indented by the candidate's shift (its first line too, unless
 * the match starts inside a line), with the line breaks of the text it replaces (or, when that
 * text has none or mixes both, the ones most of the file uses).
 */
function replacementText(newString: string, candidate: Candidate, file: FileView): string {
  let lines = newString.split(/\r?\n/);
  const shift = candidate.shift;
  if (isShift(shift)) lines = lines.map((line, index) => (index === 0 && candidate.startsMidLine ? line : shiftLine(line, shift)));
  const replaced = countBreaks(file.content.slice(candidate.start, candidate.end));
  const lineBreak = replaced.crlf > 0 && replaced.lf === 0 ? '\r\n' : replaced.lf > 0 && replaced.crlf === 0 ? '\n' : file.lineBreak;
  return lines.join(lineBreak);
}

/** `\r\n` and bare `\n` line breaks in `text`. */
function countBreaks(text: string): { crlf: number; lf: number } {
  let crlf = 0;
  let lf = 0;
  for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', newline + 1)) {
    if (newline > 0 && text.charCodeAt(newline - 1) === 13) crlf += 1;
    else lf += 1;
  }
  return { crlf, lf };
}

/** Sorted by start (then end), one candidate per range. */
function distinct(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return [...candidates]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .filter((candidate) => {
      const key = `${candidate.start}:${candidate.end}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** Left to right, each candidate that starts at or after the end of the last one taken. */
function withoutOverlaps(sorted: readonly Candidate[]): Candidate[] {
  const taken: Candidate[] = [];
  let end = 0;
  for (const candidate of sorted) {
    if (candidate.start < end) continue;
    taken.push(candidate);
    end = candidate.end;
  }
  return taken;
}

function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end -= 1;
  return text.slice(0, end);
}
