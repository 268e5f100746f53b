import * as fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';
import { assembleWithGnuAs, hasBinutils } from './test-support/assemble-with-gnu-as.js';
import { assembleListing } from './assemble-listing.js';
import { ELF_CODE_OFFSET } from './elf-executable.js';
import { landlockScopeListing } from './landlock-scope-listing.js';
import { landlockScopeProgram } from './landlock-scope-program.js';

let scratch: string;

beforeAll(async () => {
  scratch = await makeTempDirectory('ow-landlock-program-');
});

afterAll(async () => {
  if (scratch !== undefined) await fs.rm(scratch, { recursive: true, force: true });
});

describe('the Landlock scope helper program (architecture §3.7)', () => {
  // The audit a reviewer would do by hand: every line's bytes are what its assembly means.
  it.skipIf(!hasBinutils)('GNU as assembles the listing’s assembly column to exactly its bytes column (needs binutils: as, objcopy)', async () => {
    expect(await assembleWithGnuAs(landlockScopeListing, scratch)).toBe(assembleListing(landlockScopeListing).toString('hex'));
  });

  it('is a static x86-64 ELF executable: entry at the code, one read+execute segment, no writable one, no interpreter', () => {
    const { bytes } = landlockScopeProgram();
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect([bytes[4], bytes[5]]).toEqual([2, 1]); // 64-bit, little-endian
    expect(bytes.readUInt16LE(16)).toBe(2); // ET_EXEC
    expect(bytes.readUInt16LE(18)).toBe(0x3e); // EM_X86_64
    expect(bytes.readBigUInt64LE(24)).toBe(0x40_0000n + BigInt(ELF_CODE_OFFSET));
    const count = bytes.readUInt16LE(56);
    const segments = Array.from({ length: count }, (_, index) => {
      const at = 64 + 56 * index;
      return { type: bytes.readUInt32LE(at), flags: bytes.readUInt32LE(at + 4), size: bytes.readBigUInt64LE(at + 32) };
    });
    expect(segments).toEqual([
      { type: 1, flags: 5, size: BigInt(bytes.length) }, // PT_LOAD R+X, the whole file
      { type: 0x6474_e551, flags: 6, size: 0n }, // PT_GNU_STACK RW: no executable stack
    ]);
    expect(bytes.subarray(ELF_CODE_OFFSET).equals(assembleListing(landlockScopeListing))).toBe(true);
  });

  it('the assembler refuses a listing it would encode wrongly', () => {
    expect(() => assembleListing([{ bytes: '75', relative: { target: 'nowhere', size: 1 }, assembly: 'jne nowhere' }])).toThrow(/unknown label nowhere/);
    const far = [{ bytes: '75', relative: { target: 'end', size: 1 as const }, assembly: 'jne end' }, { bytes: Array(200).fill('90').join(' '), assembly: 'nop × 200' }, { label: 'end', bytes: 'c3', assembly: 'ret' }];
    expect(() => assembleListing(far)).toThrow(/200 bytes away, beyond a rel8/);
    expect(() => assembleListing([{ bytes: '0x90', assembly: 'nop' }])).toThrow(/not a byte in hex/);
  });
});
