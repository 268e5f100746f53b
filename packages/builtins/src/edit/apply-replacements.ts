import type { Replacement } from './edit-match.js';

/** The new content, and where the first replacement's text sits in it (for the summary's line range). */
export interface AppliedEdit {
  readonly content: string;
  /** 1-based lines of the new content covered by the first replacement (`end === start` for one line or a deletion). */
  readonly firstRange: { readonly start: number; readonly end: number };
}

/** Applies non-overlapping replacements, given left to right, to `content`. */
export function applyReplacements(content: string, replacements: readonly Replacement[]): AppliedEdit {
  const parts: string[] = [];
  let cursor = 0;
  let firstStart = 0;
  let firstText = '';
  replacements.forEach((replacement, index) => {
    parts.push(content.slice(cursor, replacement.start));
    if (index === 0) {
      firstStart = parts.reduce((length, part) => length + part.length, 0);
      firstText = replacement.text;
    }
    parts.push(replacement.text);
    cursor = replacement.end;
  });
  parts.push(content.slice(cursor));
  const next = parts.join('');
  const start = lineOf(next, firstStart);
  // The line of the replacement's last character; a trailing newline belongs to the line it ends.
  const end = firstText.length === 0 ? start : lineOf(next, firstStart + firstText.length - 1);
  return { content: next, firstRange: { start, end } };
}

/** 1-based line of the character at `index`. */
function lineOf(text: string, index: number): number {
  let line = 1;
  let from = 0;
  for (;;) {
    const newline = text.indexOf('\n', from);
    if (newline < 0 || newline >= index) return line;
    line += 1;
    from = newline + 1;
  }
}
