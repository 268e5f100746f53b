import type { Replacement } from './edit-match.js';

/** The new content, and where the first replacement's text sits in it (for the summary's line range). */
export interface AppliedEdit {
  readonly content: string;
  /** 1-based lines of the new content covered by the first replacement (`end === start` for one line or a deletion). */
  readonly firstRange: { readonly start: number; readonly end: number };
}

/** Applies non-overlapping replacements, given left to right, to `content`. */
export function applyReplacements(content: string, replacements: readonly Replacement[]): AppliedEdit {
  const first = replacements[0];
  if (first === undefined) return { content, firstRange: { start: 1, end: 1 } };
  let next = '';
  let cursor = 0;
  for (const replacement of replacements) {
    next += content.slice(cursor, replacement.start) + replacement.text;
    cursor = replacement.end;
  }
  next += content.slice(cursor);
  // The first replacement starts at the same offset in the new content as in the old one.
  const start = 1 + countNewlines(content, 0, first.start);
  // The line of the replacement's last character; a trailing newline belongs to the line it ends.
  const end = first.text.length === 0 ? start : start + countNewlines(first.text, 0, first.text.length - 1);
  return { content: next, firstRange: { start, end } };
}

/** Newlines in `text[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index >= 0 && index < to; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}
