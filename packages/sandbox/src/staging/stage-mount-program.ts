import { createHash } from 'node:crypto';
import { assembleListing } from '../landlock/assemble-listing.js';
import { elfExecutable } from '../landlock/elf-executable.js';
import type { HelperProgram } from '../landlock/install-landlock-scope-helper.js';
import { stageMountListing } from './stage-mount-listing.js';

let program: HelperProgram | undefined;

/**
 * The staged-writes mount helper as an x86-64 Linux executable, built from `stageMountListing`
 * once per process (under a kilobyte).
 */
export function stageMountProgram(): HelperProgram {
  if (program === undefined) {
    const bytes = elfExecutable(assembleListing(stageMountListing));
    program = Object.freeze({ bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return { bytes: Buffer.from(program.bytes), sha256: program.sha256 };
}
