import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteKernel } from './byte-kernel.js';
import { compileSearchPattern } from './compile-search-pattern.js';
import { countNewlines } from './count-newlines.js';
import { FileScan, type ListOutput } from './file-scan.js';
import { shownLineText } from './shown-line-text.js';

const kernel = ByteKernel.get();

/** `bytes` copied into the kernel's memory (where a search worker reads files). */
function inKernel(bytes: Uint8Array): Buffer {
  const held = kernel!.data(bytes.length).subarray(0, bytes.length);
  held.set(bytes);
  return held;
}

/** Bytes from a small alphabet, so literals and line ends occur often. */
const text = fc.array(fc.constantFrom(...[0x61, 0x62, 0x0a, 0x63, 0xc3, 0xa9, 0x0d, 0x41, 0x42, 0x40, 0x60]), { maxLength: 300 }).map((values) => Buffer.from(values));

describe('the byte kernel (grep on WebAssembly SIMD)', () => {
  it('is available on the Node releases the package supports', () => {
    expect(kernel).toBeDefined();
  });

  it('finds literals, line ends and line starts, and counts line ends, as Buffer does', () => {
    const needle = fc.array(fc.constantFrom(0x61, 0x62, 0x0a, 0x63, 0x41, 0x40, 0x60), { minLength: 1, maxLength: 20 }).map((values) => Buffer.from(values));
    fc.assert(
      fc.property(text, needle, fc.nat(), fc.nat(), (bytes, literal, a, b) => {
        const held = inKernel(bytes);
        const from = a % (bytes.length + 1);
        const to = from + (b % (bytes.length - from + 1));
        const [address] = kernel!.needles({}, [literal])!;
        expect(kernel!.find(held, from, address!, literal.length)).toBe(bytes.indexOf(literal, from));
        const lower = Buffer.from(literal.toString('latin1').toLowerCase(), 'latin1');
        const [lowerAddress] = kernel!.needles({}, [lower])!;
        expect(kernel!.findCaseless(held, from, lowerAddress!, lower.length)).toBe(Buffer.from(bytes.toString('latin1').toLowerCase(), 'latin1').indexOf(lower, from));
        expect(kernel!.countLines(held, from, to)).toBe(countNewlines(bytes, from, to));
        const end = bytes.indexOf(10, from);
        expect(kernel!.lineEnd(held, from)).toBe(end < 0 ? bytes.length : end);
        expect(kernel!.lineStart(held, from)).toBe(from === 0 ? 0 : bytes.lastIndexOf(10, from - 1) + 1);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts line ends past the 255 blocks its byte counters hold', () => {
    const bytes = Buffer.alloc(255 * 16 * 3 + 7, 10);
    expect(kernel!.countLines(inKernel(bytes), 0, bytes.length)).toBe(bytes.length);
    expect(kernel!.countLines(inKernel(bytes), 5, bytes.length - 3)).toBe(bytes.length - 8);
  });

  it('gives the matching lines the Buffer search gives, for literal, alternation and regex patterns', () => {
    const pattern = fc.constantFrom('ab', 'a', 'b\r', 'ca|ab', 'a+b', 'é', '(?i)AB', '(?i)[a-c]+ba', '(?i)é|BC', '(?i)a@', 'c$', '^b', 'a.c', 'ba|a|cc');
    fc.assert(
      fc.property(pattern, text, (source, bytes) => {
        const compiled = compileSearchPattern(source);
        if (!compiled.ok) throw new Error(compiled.message);
        const lines = (region: Buffer) => {
          const found: [number, number][] = [];
          compiled.matcher.search(region, (start, end) => found.push([start, end]) > 0);
          return found;
        };
        expect(lines(inKernel(bytes))).toEqual(lines(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('a case-insensitive pattern tests only the lines holding its literal in any ASCII case, but k and s also match the Kelvin sign and the long s', () => {
    const text = Buffer.from('an ERROR here\nfine\nTypeError: x\nerr or\n\u212Aelvin\nkelvin\n\u017Fome\n', 'utf8');
    const lines = (pattern: string) => {
      const compiled = compileSearchPattern(pattern);
      if (!compiled.ok) throw new Error(compiled.message);
      const found: string[] = [];
      compiled.matcher.search(inKernel(text), (start, end) => found.push(text.toString('utf8', start, end)) > 0);
      return { found, caseless: compiled.spec.caseless };
    };
    expect(lines('(?i)[a-z]*error')).toEqual({ found: ['an ERROR here', 'TypeError: x'], caseless: ['error'] });
    expect(lines('(?i)kelvin')).toEqual({ found: ['\u212Aelvin', 'kelvin'], caseless: ['elvin'] });
    expect(lines('(?i)some')).toEqual({ found: ['\u017Fome'], caseless: ['ome'] });
    expect(lines('(?i)k').caseless).toBeUndefined();
  });

  it('writes each full-list line as the shown text (CRLF, invalid UTF-8, a line cut at 2,000 bytes), from the file bytes', () => {
    const long = `${'x'.repeat(1999)}é tail`;
    const lines = ['plain match', 'crlf match\r', 'bad \xff\xfe match', long + ' match', 'no', 'last match'];
    const bytes = Buffer.concat(lines.map((line) => Buffer.from(`${line}\n`, line.includes('\xff') ? 'latin1' : 'utf8')));
    for (const region of [bytes, inKernel(bytes)]) {
      const compiled = compileSearchPattern('match');
      if (!compiled.ok) throw new Error(compiled.message);
      const out: ListOutput & { pieces: Buffer[] } = {
        buffer: Buffer.alloc(0),
        length: 0,
        pieces: [],
        ensure(size) {
          if (this.buffer.length - this.length >= size) return;
          if (this.length > 0) this.pieces.push(Buffer.from(this.buffer.subarray(0, this.length)));
          this.buffer = Buffer.alloc(Math.max(size, 64));
          this.length = 0;
        },
      };
      const scan = new FileScan({ mode: 'content', matcher: compiled.matcher, shouldStop: () => false, shownLimit: 50, listPrefix: 'dir/ü.txt:', list: out });
      scan.region(region, true);
      const result = scan.finish();
      out.pieces.push(Buffer.from(out.buffer.subarray(0, out.length)));
      const expected = result.shown.map((line) => `dir/ü.txt:${line.line}:${line.text}\n`).join('');
      expect(Buffer.concat(out.pieces).toString('utf8')).toBe(expected);
      expect(result.shown.map((line) => line.line)).toEqual([1, 2, 3, 4, 6]);
      expect(result.shown[2]!.text).toBe(shownLineText(bytes, 24, bytes.indexOf(10, 24)));
      expect(result.shown[2]!.text).toContain('\uFFFD');
      expect(result.shown[3]!.text).toMatch(/\.\.\. \(line truncated to 2000 bytes\)$/);
    }
  });
});
