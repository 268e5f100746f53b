import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { revealHiddenCharacters } from './index.js';

describe('revealHiddenCharacters (architecture §3.9)', () => {
  it('shows terminal controls as escapes, so they cannot move the cursor or erase a line', () => {
    expect(revealHiddenCharacters('ok\x1b[2A\x1b[2K\r  read access to README.md')).toBe('ok\\x1b[2A\\x1b[2K\\r  read access to README.md');
    expect(revealHiddenCharacters('a\nb\tc\bd\x00e\x7ff\x9bg\x85h')).toBe('a\\nb\\tc\\x08d\\x00e\\x7ff\\x9bg\\x85h');
  });

  it('shows bidirectional, zero-width and tag characters, so the text reads in the order it runs', () => {
    expect(revealHiddenCharacters('rm -rf \u202e/ ~\u202c')).toBe('rm -rf \\u202e/ ~\\u202c');
    expect(revealHiddenCharacters('\u2066x\u2067y\u2068z\u2069 \u200e\u200f\u061c')).toBe('\\u2066x\\u2067y\\u2068z\\u2069 \\u200e\\u200f\\u061c');
    expect(revealHiddenCharacters('r\u200bm \u200c\u200d\u2060\ufeff\u00ad')).toBe('r\\u200bm \\u200c\\u200d\\u2060\\ufeff\\u00ad');
    expect(revealHiddenCharacters('safe\u{e0072}\u{e006d}')).toBe('safe\\u{e0072}\\u{e006d}');
    expect(revealHiddenCharacters('x\ufe0f\u{e0100}\u3164')).toBe('x\\ufe0f\\u{e0100}\\u3164');
  });

  it('shows spaces that are not U+0020, line separators and lone surrogates', () => {
    expect(revealHiddenCharacters('rm -rf\u00a0/ a\u2028b\u2029c\u3000d')).toBe('rm -rf\\u00a0/ a\\u2028b\\u2029c\\u3000d');
    expect(revealHiddenCharacters('\ud800x\udfff')).toBe('\\ud800x\\udfff');
  });

  it('keeps ordinary text of any script, backslashes and emoji as written', () => {
    const ordinary = 'grep -rn "a\\\\nb" src/ && echo "naïve 日本語 עברית 😀" > /tmp/x';
    expect(revealHiddenCharacters(ordinary)).toBe(ordinary);
  });

  it('always gives one line whose characters are all visible', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const shown = revealHiddenCharacters(text);
        expect(shown).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u);
        expect(shown).not.toMatch(/[^\S ]/u);
      }),
    );
  });
});
