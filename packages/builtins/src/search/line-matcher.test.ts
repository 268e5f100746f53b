import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSearchPattern } from './compile-search-pattern.js';
import { countNewlines } from './count-newlines.js';
import { requiredLiterals } from './required-literals.js';
import { translateSearchPattern } from './translate-search-pattern.js';

/** The matching line numbers as the fast search finds them. */
function fastLines(pattern: string, text: string): number[] {
  const compiled = compileSearchPattern(pattern);
  if (!compiled.ok) throw new Error(compiled.message);
  const bytes = Buffer.from(text, 'utf8');
  const found: number[] = [];
  compiled.matcher.search(bytes, (start) => {
    found.push(countNewlines(bytes, 0, start) + 1);
    return true;
  });
  return found;
}

/** The same, one line at a time (the slow, obvious way). */
function slowLines(pattern: string, text: string): number[] {
  const compiled = compileSearchPattern(pattern);
  if (!compiled.ok) throw new Error(compiled.message);
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  if (text === '') return [];
  return lines.flatMap((line, index) => (compiled.matcher.matchesLine(Buffer.from(line, 'utf8')) ? [index + 1] : []));
}

const atom = fc.oneof(
  fc.constantFrom('a', 'b', 'ab', 'ba', 'é', 'x', ' ', '\\.', '.'),
  fc.constantFrom('[ab]', '[^a]', '\\w', '\\W', '\\s', '\\S', '\\d', '\\D', '\\b', '^', '$', '\\p{L}', '[[:alpha:]]'),
);
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('node'), tie('node')).map(([left, right]) => left + right),
    fc.tuple(tie('node'), tie('node')).map(([left, right]) => `(${left}|${right})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}')).map(([node, repeat]) => `(?:${node})${repeat}`),
    tie('node').map((node) => `(?i)${node}`),
    tie('node').map((node) => `(?s:${node})`),
  ),
})).node;
const text = fc.array(fc.constantFrom('a', 'b', 'A', 'B', 'é', 'x', ' ', '.', '\n', '\r', '1'), { maxLength: 60 }).map((parts) => parts.join(''));

describe('the line search (§7.6 speed: whole-buffer search, literal prefilter)', () => {
  it('finds exactly the lines that match one by one, for any pattern and text', () => {
    fc.assert(
      fc.property(pattern, text, (generated, body) => {
        expect(fastLines(generated, body)).toEqual(slowLines(generated, body));
      }),
      { numRuns: 1500 },
    );
  });

  it('uses no regex for literals and a prefilter where every match needs a literal', () => {
    const analysis = (source: string) => {
      const translated = translateSearchPattern(source);
      if (!translated.ok) throw new Error(translated.message);
      return requiredLiterals(translated.tree);
    };
    expect(analysis('function')).toEqual({ exact: ['function'], required: ['function'], caseless: undefined });
    expect(analysis('import|export')).toEqual({ exact: ['import', 'export'], required: ['import', 'export'], caseless: undefined });
    expect(analysis('foo\\.bar')).toEqual({ exact: ['foo.bar'], required: ['foo.bar'], caseless: undefined });
    // Case-insensitive: no exact literal, but one compared without ASCII case (search performance).
    expect(analysis('(?i)[a-z]+error')).toEqual({ exact: undefined, required: undefined, caseless: ['error'] });
    expect(analysis('(?i)(GET|put)Data')).toEqual({ exact: undefined, required: undefined, caseless: ['getdata', 'putdata'] });
    // A case-insensitive s also matches the long s (U+017F): `post` gives nothing, `data` remains.
    expect(analysis('(?i)(GET|post)Data').caseless).toEqual(['data']);
    expect(analysis('(?i)é').caseless).toBeUndefined();
    expect(analysis('\\w+Error\\b').required).toEqual(['Error']);
    expect(analysis('get(Item|Value)s?').required).toEqual(['getItem', 'getValue']);
    expect(analysis('a*').exact).toBeUndefined();
    expect(analysis('ab?c').exact).toEqual(['abc', 'ac']);
  });

  it('counts line ends four bytes at a time, at any alignment', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(8), fc.nat(300), fc.nat(300), (raw, shift, a, b) => {
        const bytes = new Uint8Array(raw.length + shift);
        bytes.set(raw.map((value) => (value % 3 === 0 ? 10 : value)), shift);
        const view = bytes.subarray(shift);
        const from = Math.min(a, b, view.length);
        const to = Math.min(Math.max(a, b), view.length);
        let expected = 0;
        for (let index = from; index < to; index += 1) if (view[index] === 10) expected += 1;
        expect(countNewlines(view, from, to)).toBe(expected);
      }),
    );
  });
});
