import type { Replacement } from './edit-match.js';

/** 1-based lines of the new content covered by one replacement's text (`end === start` for one line or a deletion). */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/** The new content, and where each replacement's text sits in it (for the summary's line ranges). */
export interface AppliedEdit {
  readonly content: string;
  /** The first replacement's range (`ranges[0]`). */
  readonly firstRange: LineRange;
  /** One range per replacement, in order. */
  readonly ranges: readonly LineRange[];
}

/** Applies non-overlapping replacements, given left to right, to `content`. */
export function applyReplacements(content: string, replacements: readonly Replacement[]): AppliedEdit {
  if (replacements.length === 0) return { content, firstRange: { start: 1, end: 1 }, ranges: [] };
  let next = '';
  let cursor = 0;
  // The line of the new content the cursor is on.
  let line = 1;
  const ranges: LineRange[] = [];
  for (const replacement of replacements) {
    line += countNewlines(content, cursor, replacement.start);
    next += content.slice(cursor, replacement.start) + replacement.text;
    // The line of the replacement's last character; a trailing newline belongs to the line it ends.
    const text = replacement.text;
    const end = text.length === 0 ? line : line + countNewlines(text, 0, text.length - 1);
    ranges.push({ start: line, end });
    line += countNewlines(text, 0, text.length);
    cursor = replacement.end;
  }
  next += content.slice(cursor);
  return { content: next, firstRange: ranges[0] ?? { start: 1, end: 1 }, ranges };
}

/** Newlines in `text[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index >= 0 && index < to; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}
