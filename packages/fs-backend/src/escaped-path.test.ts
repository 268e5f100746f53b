import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapePath, hasRawBytes, pathFromBytes, pathToBytes, unescapePath } from './index.js';

const bytes = (...values: (number | string)[]) => Buffer.concat(values.map((value) => (typeof value === 'string' ? Buffer.from(value) : Buffer.of(value))));
const joined = (names: readonly Buffer[]) => Buffer.concat(names.flatMap((name) => [Buffer.from('/'), name]));

describe('a file name that is not valid UTF-8 as a path string and as its \\xNN spelling', () => {
  it('keeps every byte: each byte that is not part of valid UTF-8 is U+DC00 + byte, valid sequences stay characters', () => {
    expect(pathFromBytes(bytes('caf', 0xe9, '.txt'))).toBe('caf\uDCE9.txt');
    expect(pathFromBytes(Buffer.from('café \uFFFD.txt'))).toBe('café \uFFFD.txt'); // a real U+FFFD is valid UTF-8
    // A truncated sequence, an overlong one, an encoded surrogate and a byte above F4: each byte on its own.
    expect(pathFromBytes(bytes(0xe2, 0x82, 'a', 0xc0, 0x80, 0xed, 0xb3, 0xa9, 0xf5))).toBe('\uDCE2\uDC82a\uDCC0\uDC80\uDCED\uDCB3\uDCA9\uDCF5');
    expect(pathToBytes('caf\uDCE9.txt')).toEqual(bytes('caf', 0xe9, '.txt'));
    // A surrogate pair whose low half is in U+DC80–U+DCFF is one character, not a raw byte.
    expect(hasRawBytes('\uD800\uDC80')).toBe(false);
    expect(pathToBytes('\uD800\uDC80')).toEqual(Buffer.from('\u{10080}'));
  });

  it('round-trips any bytes: bytes → path string → bytes, and path string → \\xNN spelling → path string', () => {
    const name = fc.uint8Array({ minLength: 1, maxLength: 24 }).map((array) => Buffer.from(array.map((byte) => (byte === 0x2f || byte === 0 ? 0x5c : byte))));
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), (names) => {
        const path = `/${names.map((one) => pathFromBytes(one)).join('/')}`;
        expect(pathToBytes(path).equals(joined(names))).toBe(true);
        const shown = escapePath(path);
        expect(/\p{Cs}/u.test(shown)).toBe(false);
        if (hasRawBytes(path)) expect(unescapePath(shown)).toBe(path);
        else expect(shown).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });

  it('shows raw bytes as two uppercase hex digits and, in such a name only, a backslash as \\\\', () => {
    expect(escapePath('/w/caf\uDCE9.txt')).toBe('/w/caf\\xE9.txt');
    expect(escapePath('dir\\x/caf\uDCE9\\x41')).toBe('dir\\x/caf\\xE9\\\\x41');
    expect(escapePath('a\\xE9.txt')).toBe('a\\xE9.txt'); // a name without raw bytes is never changed
    expect(unescapePath('dir\\x/caf\\xE9\\\\x41')).toBe('dir\\x/caf\uDCE9\\x41');
    expect(unescapePath('caf\\xe9.txt')).toBe('caf\uDCE9.txt'); // hex digits in either case
  });

  it('decodes only the exact spelling it shows: ASCII, "/", NUL, valid UTF-8 and lone backslashes stay literal', () => {
    for (const literal of ['\\x2E\\x2E/etc/passwd', 'a\\x2Fb', 'a\\x00b', 'caf\\xC3\\xA9', 'a\\b\\xE9', 'a\\\\b', 'a\\x4', 'a\\xZZ', 'plain.txt', '\\xE9\\x41', 'a\\xE9\\x2Fb', '\\xE9\\x2E\\x2E', '\\xE9\\x00', '\\xE9\\xC3\\xA9']) {
      expect(unescapePath(literal), literal).toBeUndefined();
    }
    // Only the names spelled exactly are decoded; a decoded name always holds a byte ≥ 0x80.
    expect(unescapePath('\\x2E\\x2E/caf\\xE9')).toBe('\\x2E\\x2E/caf\uDCE9');
    expect(unescapePath('\\xE9\\\\x41')).toBe('\uDCE9\\x41');
  });
});
