import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyReplacements } from './apply-replacements.js';
import { findReplacements } from './find-replacements.js';
import type { TolerantLevel } from './find-tolerant-replacements.js';
import { matchEditEntry } from './match-edit-entry.js';

// Lines with the characters the tolerant levels care about: indentation, trailing whitespace,
// quotes and dashes (plain and typographic), in LF, CRLF and mixed files.
const indentation = fc.constantFrom('', ' ', '  ', '    ', '\t', '\t\t');
const body = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '"', '\u201C', '-', '\u2014', "'", '\u00A0'), maxLength: 8 });
const trailing = fc.constantFrom('', ' ', '  ', '\t');
const line = fc.tuple(indentation, body, trailing).map(([indent, text, end]) => indent + text + end);
const lineBreak = fc.constantFrom('\n', '\r\n');
const file = fc
  .array(fc.tuple(line, lineBreak), { minLength: 1, maxLength: 12 })
  .map((lines) => lines.map(([text, eol]) => text + eol).join(''));

describe('the tolerant path never changes the result of an exact match', () => {
  it('for random files and random exact oldStrings, matchEditEntry answers as the exact step does', () => {
    fc.assert(
      fc.property(file, fc.nat(), fc.nat(), fc.string({ maxLength: 6 }), fc.boolean(), (content, a, b, newString, replaceAll) => {
        const from = a % content.length;
        const to = from + 1 + (b % (content.length - from));
        const oldString = content.slice(from, to);
        fc.pre(oldString !== newString);
        const exact = findReplacements({ content, oldString, newString, replaceAll });
        const full = matchEditEntry(content, { oldString, newString, replaceAll });
        // A substring of the file is always found by the exact step (as given or in its CRLF reading).
        expect(exact.ok || exact.reason === 'ambiguous').toBe(true);
        if (exact.ok) {
          expect(full).toEqual({ ok: true, strategy: exact.strategy, replacements: exact.replacements, shift: undefined });
        } else if (exact.reason === 'ambiguous') {
          expect(full.ok).toBe(false);
          if (!full.ok && full.reason === 'ambiguous') {
            expect([full.strategy, full.occurrences]).toEqual(['exact', exact.occurrences]);
          } else {
            expect.unreachable('an ambiguous exact match stays ambiguous');
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

// Files whose lines are all different (a unique token per line), so a drifted block can only
// match where it came from; each line has a plain quote or dash the typography level can drift.
const distinctLines = fc
  .array(fc.tuple(indentation, fc.constantFrom('"', "'", '-'), fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 5 }), trailing), {
    minLength: 3,
    maxLength: 10,
  })
  .map((parts) => parts.map(([indent, mark, text, end], index) => `${indent}t${index}${mark}${text}${end}`));

/** oldString drifted from the file's text the way a model's copy drifts, at one level. */
function drift(level: TolerantLevel, block: readonly string[], endsWithBreak: boolean): string {
  const eol = level === 'line-endings' ? '\r\n' : '\n';
  const lines = block.map((text) => {
    switch (level) {
      case 'line-endings':
        return text;
      case 'trailing-whitespace':
        return `${text} \t`;
      case 'indentation':
        return `  ${text}`;
      case 'typography':
        return text.replace(/"/g, '\u201D').replace(/'/g, '\u2019').replace(/-/g, '\u2013');
    }
  });
  return lines.join(eol) + (endsWithBreak ? eol : '');
}

describe('a drifted copy of a block matches exactly that block, at the level of its drift', () => {
  it('finds the block, reports the level and replaces only the block', () => {
    fc.assert(
      fc.property(
        distinctLines,
        fc.constantFrom<TolerantLevel>('line-endings', 'trailing-whitespace', 'indentation', 'typography'),
        fc.constantFrom('\n', '\r\n'),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (lines, level, chosenBreak, a, b, endsWithBreak) => {
          // CRLF oldString in a CRLF file is exact; the line-endings drift is tried against LF files.
          const eol = level === 'line-endings' ? '\n' : chosenBreak;
          const content = lines.join(eol) + eol;
          const first = a % (lines.length - 1);
          const last = first + 1 + (b % (lines.length - first - 1));
          const block = lines.slice(first, last + 1);
          const oldString = drift(level, block, endsWithBreak);
          fc.pre(level !== 'typography' || /["'-]/.test(block.join('')));
          const match = matchEditEntry(content, { oldString, newString: 'NEW\n', replaceAll: false });
          const start = lines.slice(0, first).reduce((offset, text) => offset + text.length + eol.length, 0);
          const end = start + block.join(eol).length + (endsWithBreak ? eol.length : 0);
          expect(match.ok && match.strategy).toBe(level);
          if (!match.ok) return;
          expect(match.replacements.map(({ start: from, end: to }) => [from, to])).toEqual([[start, end]]);
          const applied = applyReplacements(content, match.replacements).content;
          expect(applied.slice(0, start)).toBe(content.slice(0, start));
          expect(applied.slice(applied.length - (content.length - end))).toBe(content.slice(end));
          // The replacement text has the file's line breaks.
          expect(applied.slice(start, applied.length - (content.length - end)).replace(/\r?\n/g, '')).not.toContain('\n');
          if (eol === '\r\n') expect(/(?<!\r)\n/.test(applied)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses when a second copy of the block drifted the other way matches at the same level', () => {
    fc.assert(
      fc.property(distinctLines, fc.constantFrom<TolerantLevel>('trailing-whitespace', 'indentation'), fc.nat(), (lines, level, a) => {
        const first = a % (lines.length - 1);
        const block = lines.slice(first, first + 2);
        // The file holds the block and, further down, a copy that differs from it at this level only.
        const copy = level === 'indentation' ? block.map((text) => `    ${text}`) : block.map((text) => `${text}\t\t`);
        const content = [...lines, 'gap', ...copy].join('\n') + '\n';
        const oldString = drift(level, block, false);
        const match = matchEditEntry(content, { oldString, newString: 'x', replaceAll: false });
        expect(match.ok).toBe(false);
        if (!match.ok) expect(match).toMatchObject({ reason: 'ambiguous', strategy: level, occurrences: 2 });
      }),
      { numRuns: 200 },
    );
  });
});
