import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8Validator, wholeCharacterEnd } from './utf8-validator.js';

describe('Utf8Validator', () => {
  it('agrees with isUtf8 on the whole input however it is split', () => {
    const byte = fc.oneof(fc.constantFrom(0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0xc0, 0xff), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 6 }), (bytes, cuts) => {
        const input = Buffer.from(bytes);
        const points = [...new Set(cuts.map((cut) => Math.min(cut, input.length)))].sort((a, b) => a - b);
        const validator = new Utf8Validator();
        let start = 0;
        for (const point of [...points, input.length]) {
          validator.push(input.subarray(start, point));
          start = point;
        }
        expect(validator.isValid).toBe(isUtf8(input));
      }),
      { numRuns: 2000 },
    );
  });

  it('a character split between pieces is valid once complete and invalid if the input ends inside it', () => {
    const euro = Buffer.from('€');
    const validator = new Utf8Validator();
    validator.push(euro.subarray(0, 1));
    expect(validator.isValid).toBe(false);
    validator.push(euro.subarray(1, 2));
    validator.push(euro.subarray(2));
    expect(validator.isValid).toBe(true);
    validator.reset();
    validator.push(Buffer.from([0xf0, 0x9f]));
    validator.push(Buffer.from('a'));
    expect(validator.isValid).toBe(false);
  });
});

describe('wholeCharacterEnd', () => {
  it('drops only an unfinished character at the end', () => {
    expect(wholeCharacterEnd(Buffer.from('abc'))).toBe(3);
    expect(wholeCharacterEnd(Buffer.from('a€').subarray(0, 3))).toBe(1);
    expect(wholeCharacterEnd(Buffer.from('a€'))).toBe(4);
    expect(wholeCharacterEnd(Buffer.from('😀').subarray(0, 3))).toBe(0);
    expect(wholeCharacterEnd(Buffer.alloc(0))).toBe(0);
  });
});
