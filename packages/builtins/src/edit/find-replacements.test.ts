import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyReplacements } from './apply-replacements.js';
import { findReplacements } from './find-replacements.js';

// Small alphabets make repeats, overlaps and line breaks common.
const text = fc.string({ unit: fc.constantFrom('a', 'b', '\n', ' '), maxLength: 40 });
const needle = fc.string({ unit: fc.constantFrom('a', 'b', '\n'), minLength: 1, maxLength: 4 });

describe('the matching step of edit (§7.3)', () => {
  it('replaceAll replaces exactly what split/join replaces, in an LF file', () => {
    fc.assert(
      fc.property(text, needle, fc.string({ maxLength: 3 }), (content, oldString, newString) => {
        fc.pre(oldString !== newString);
        const match = findReplacements({ content, oldString, newString, replaceAll: true });
        const expected = content.split(oldString).join(newString);
        if (!content.includes(oldString)) {
          expect(match).toEqual({ ok: false, reason: 'not_found' });
          return;
        }
        expect(match.ok).toBe(true);
        if (match.ok) expect(applyReplacements(content, match.replacements).content).toBe(expected);
      }),
    );
  });

  it('a single edit needs exactly one occurrence, and reports the lines the new text occupies', () => {
    fc.assert(
      fc.property(text, needle, text, (content, oldString, newString) => {
        fc.pre(oldString !== newString);
        const count = content.split(oldString).length - 1;
        const match = findReplacements({ content, oldString, newString, replaceAll: false });
        if (count === 0) expect(match).toEqual({ ok: false, reason: 'not_found' });
        else if (count > 1) expect(match).toEqual({ ok: false, reason: 'ambiguous', occurrences: count });
        else {
          expect(match.ok).toBe(true);
          if (!match.ok) return;
          const applied = applyReplacements(content, match.replacements);
          const at = content.indexOf(oldString);
          expect(applied.content).toBe(content.slice(0, at) + newString + content.slice(at + oldString.length));
          const lines = applied.content.split('\n');
          const startLine = content.slice(0, at).split('\n').length;
          expect(applied.firstRange.start).toBe(startLine);
          const body = newString.endsWith('\n') ? newString.slice(0, -1) : newString;
          expect(applied.firstRange.end).toBe(startLine + (newString === '' ? 0 : body.split('\n').length - 1));
          expect(applied.firstRange.end).toBeLessThanOrEqual(lines.length);
        }
      }),
    );
  });

  it('in a CRLF file every line break of the edit becomes CRLF', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 5 }), { minLength: 2, maxLength: 6 }), text, (lines, newString) => {
        const content = lines.join('\r\n') + '\r\n';
        const oldString = `${lines[0]}\n${lines[1]}\n`;
        fc.pre(content.split(oldString.replace(/\n/g, '\r\n')).length === 2);
        fc.pre(oldString !== newString);
        const match = findReplacements({ content, oldString, newString, replaceAll: false });
        expect(match.ok).toBe(true);
        if (!match.ok) return;
        expect(match.strategy).toBe('line-endings');
        const result = applyReplacements(content, match.replacements).content;
        expect(/(?<!\r)\n/.test(result)).toBe(false);
      }),
    );
  });
});
