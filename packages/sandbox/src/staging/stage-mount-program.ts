import { helperProgramOf } from '../landlock/helper-program.js';
import type { HelperProgram } from '../landlock/install-landlock-scope-helper.js';
import { stageMountListing } from './stage-mount-listing.js';

/** The staged-writes mount helper as an x86-64 Linux executable (under a kilobyte). */
export function stageMountProgram(): HelperProgram {
  return helperProgramOf(stageMountListing);
}
