import { createHash } from 'node:crypto';
import { assembleListing } from './assemble-listing.js';
import type { ListingLine } from './assemble-listing.js';
import { elfExecutable } from './elf-executable.js';
import type { HelperProgram } from './install-landlock-scope-helper.js';

const built = new WeakMap<readonly ListingLine[], HelperProgram>();

/**
 * A hand-assembled helper as an x86-64 Linux executable, built from its listing once per process
 * (a few hundred bytes, a few microseconds); each caller gets its own copy of the bytes.
 */
export function helperProgramOf(listing: readonly ListingLine[]): HelperProgram {
  let program = built.get(listing);
  if (program === undefined) {
    const bytes = elfExecutable(assembleListing(listing));
    program = Object.freeze({ bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
    built.set(listing, program);
  }
  return { bytes: Buffer.from(program.bytes), sha256: program.sha256 };
}
