/**
 * A consistent indentation shift of a whole block (§7.3 tolerant matching, third level): every
 * non-blank line of `oldString` starts with `from` where the file's line starts with `to`, and
 * the rest of each line's indentation is the same on both sides.
 */
export interface IndentationShift {
  readonly from: string;
  readonly to: string;
}

/** The run of spaces and tabs a line starts with. */
export function leadingWhitespace(line: string): string {
  let end = 0;
  while (end < line.length && (line[end] === ' ' || line[end] === '\t')) end += 1;
  return line.slice(0, end);
}

/**
 * The shift that turns every `pairs[i].model` indentation into `pairs[i].file`, or `undefined`
 * when there is none: `from` and `to` are the longest common prefixes of each side, and what
 * follows them must be identical line by line (so relative indentation never changes).
 */
export function consistentShift(pairs: readonly { readonly model: string; readonly file: string }[]): IndentationShift | undefined {
  const first = pairs[0];
  if (first === undefined) return { from: '', to: '' };
  let from = first.model;
  let to = first.file;
  for (const pair of pairs) {
    from = commonPrefix(from, pair.model);
    to = commonPrefix(to, pair.file);
  }
  for (const pair of pairs) {
    if (pair.model.slice(from.length) !== pair.file.slice(to.length)) return undefined;
  }
  return { from, to };
}

/** Whether the shift changes anything. */
export function isShift(shift: IndentationShift | undefined): shift is IndentationShift {
  return shift !== undefined && shift.from !== shift.to;
}

/**
 * One line of `newString` moved by `shift`: `from` at its start becomes `to`. A line indented
 * less than `from` moves by the same number of columns when both sides are runs of one character
 * (spaces or tabs); otherwise, and for blank lines, the line is left as it is.
 */
export function shiftLine(line: string, shift: IndentationShift): string {
  const indentation = leadingWhitespace(line);
  if (indentation.length === line.length) return line;
  if (line.startsWith(shift.from)) return shift.to + line.slice(shift.from.length);
  const unit = uniformUnit(shift.from + shift.to + indentation);
  if (unit === undefined) return line;
  const columns = Math.max(0, indentation.length + shift.to.length - shift.from.length);
  return unit.repeat(columns) + line.slice(indentation.length);
}

/** "4 spaces", "1 tab", "no indentation", "2 tabs and 1 space". */
export function describeIndentation(indentation: string): string {
  if (indentation === '') return 'no indentation';
  const tabs = [...indentation].filter((character) => character === '\t').length;
  const spaces = indentation.length - tabs;
  const parts: string[] = [];
  if (tabs > 0) parts.push(`${tabs} tab${tabs === 1 ? '' : 's'}`);
  if (spaces > 0) parts.push(`${spaces} space${spaces === 1 ? '' : 's'}`);
  return parts.join(' and ');
}

function commonPrefix(a: string, b: string): string {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length += 1;
  return a.slice(0, length);
}

/** The one character `text` is made of, if it is a run of a single character (`' '` for empty text). */
function uniformUnit(text: string): string | undefined {
  const unit = text[0] ?? ' ';
  for (const character of text) if (character !== unit) return undefined;
  return unit;
}
