import { helperProgramOf } from './helper-program.js';
import { landlockScopeListing } from './landlock-scope-listing.js';

export interface LandlockScopeProgram {
  /** The whole executable file. */
  readonly bytes: Buffer;
  /** Its SHA-256, in hex: the file's name carries the first 16 digits. */
  readonly sha256: string;
}

/**
 * The Landlock scope helper as an x86-64 Linux executable, built from `landlockScopeListing` once
 * per process (a few hundred bytes, a few microseconds).
 */
export function landlockScopeProgram(): LandlockScopeProgram {
  return helperProgramOf(landlockScopeListing);
}
