import * as fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';
import { assembleWithGnuAs, hasBinutils } from '../landlock/test-support/assemble-with-gnu-as.js';
import { assembleListing } from '../landlock/assemble-listing.js';
import { ELF_CODE_OFFSET } from '../landlock/elf-executable.js';
import { stageMountListing } from './stage-mount-listing.js';
import { stageMountProgram } from './stage-mount-program.js';

let scratch: string;

beforeAll(async () => {
  scratch = await makeTempDirectory('ow-stage-program-');
});

afterAll(async () => {
  if (scratch !== undefined) await fs.rm(scratch, { recursive: true, force: true });
});

describe('the staged-writes mount helper program', () => {
  // The audit a reviewer would do by hand: every line's bytes are what its assembly means.
  it.skipIf(!hasBinutils)('GNU as assembles the listing’s assembly column to exactly its bytes column (needs binutils: as, objcopy)', async () => {
    expect(await assembleWithGnuAs(stageMountListing, scratch)).toBe(assembleListing(stageMountListing).toString('hex'));
  });

  it('is a static x86-64 ELF executable: entry at the code, one read+execute segment, no writable one, no interpreter', () => {
    const { bytes, sha256 } = stageMountProgram();
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(bytes.readUInt16LE(16)).toBe(2); // ET_EXEC
    expect(bytes.readUInt16LE(18)).toBe(0x3e); // EM_X86_64
    expect(bytes.readBigUInt64LE(24)).toBe(0x40_0000n + BigInt(ELF_CODE_OFFSET));
    const segments = Array.from({ length: bytes.readUInt16LE(56) }, (_, index) => {
      const at = 64 + 56 * index;
      return { type: bytes.readUInt32LE(at), flags: bytes.readUInt32LE(at + 4) };
    });
    expect(segments).toEqual([
      { type: 1, flags: 5 }, // PT_LOAD R+X
      { type: 0x6474_e551, flags: 6 }, // PT_GNU_STACK RW: no executable stack
    ]);
    expect(bytes.subarray(ELF_CODE_OFFSET).equals(assembleListing(stageMountListing))).toBe(true);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
