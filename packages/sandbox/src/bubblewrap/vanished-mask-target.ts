import * as fs from 'node:fs';
import { detectRunnerFailure } from '../command/detect-runner-failure.js';

/** bwrap's own words when a mount destination is missing and cannot be created (bwrap 0.4–0.11). */
const cannotCreate = /^bwrap: Can't create file at (.+): [^:]+$/;

/**
 * Architecture §3.7: `wrap` masks every host socket (and credential file) it sees with
 * `--ro-bind /dev/null <path>`. A daemon that ends between the rendering and bwrap's start takes
 * its socket file with it, and where the command may not write (a read-only folder, `/run/user`)
 * bwrap then fails before the command starts: `bwrap: Can't create file at <path>: Read-only file
 * system`. Returns that path when this is what happened — bwrap said only that, about a mask of this
 * very argv, and the path is gone from the host now — so that the caller wraps again from the host
 * as it is (nothing of the command ran); undefined for anything else.
 */
export function vanishedMaskTarget(argv: readonly string[], outcome: { readonly exitCode: number | null; readonly output: string }): string | undefined {
  const line = detectRunnerFailure({ exitCode: outcome.exitCode ?? 1, output: outcome.output })?.line;
  const target = line === undefined ? undefined : cannotCreate.exec(line)?.[1];
  if (target === undefined) return undefined;
  // Only bwrap's own options count, never the command after `--`.
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  let masked = false;
  for (let index = 0; index + 2 < options.length; index += 1) {
    if (options[index] === '--ro-bind' && options[index + 1] === '/dev/null' && options[index + 2] === target) masked = true;
  }
  if (!masked) return undefined;
  try {
    return fs.lstatSync(target, { throwIfNoEntry: false }) === undefined ? target : undefined;
  } catch {
    return undefined; // ENOTDIR, EACCES: not the vanished-socket case
  }
}
