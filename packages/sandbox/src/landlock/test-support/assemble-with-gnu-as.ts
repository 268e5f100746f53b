import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { ListingLine } from '../assemble-listing.js';

function has(tool: string): boolean {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether GNU binutils (`as`, `objcopy`) are here to check a listing against. */
export const hasBinutils = has('as') && has('objcopy');

/**
 * The audit a reviewer would do by hand: the machine code GNU `as` makes of a listing's assembly
 * column (Intel syntax, labels kept), as hex, to compare with the listing's own bytes column.
 */
export async function assembleWithGnuAs(listing: readonly ListingLine[], scratch: string): Promise<string> {
  const source = ['.intel_syntax noprefix', '.text', ...listing.map((line) => `${line.label === undefined ? '' : `${line.label}: `}${line.assembly}`), ''].join('\n');
  await fs.writeFile(path.join(scratch, 'helper.s'), source);
  execFileSync('as', ['--64', '-o', 'helper.o', 'helper.s'], { cwd: scratch });
  execFileSync('objcopy', ['-O', 'binary', '-j', '.text', 'helper.o', 'helper.bin'], { cwd: scratch });
  return (await fs.readFile(path.join(scratch, 'helper.bin'))).toString('hex');
}
