import { createHash } from 'node:crypto';
import { assembleListing } from './assemble-listing.js';
import { elfExecutable } from './elf-executable.js';
import { landlockScopeListing } from './landlock-scope-listing.js';

export interface LandlockScopeProgram {
  /** The whole executable file. */
  readonly bytes: Buffer;
  /** Its SHA-256, in hex: the file's name carries the first 16 digits. */
  readonly sha256: string;
}

let program: LandlockScopeProgram | undefined;

/**
 * The Landlock scope helper as an x86-64 Linux executable, built from `landlockScopeListing` once
 * per process (a few hundred bytes, a few microseconds).
 */
export function landlockScopeProgram(): LandlockScopeProgram {
  if (program === undefined) {
    const bytes = elfExecutable(assembleListing(landlockScopeListing));
    program = Object.freeze({ bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return { bytes: Buffer.from(program.bytes), sha256: program.sha256 };
}
