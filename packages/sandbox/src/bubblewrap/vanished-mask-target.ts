import * as fs from 'node:fs';
import { detectRunnerFailure } from '../command/detect-runner-failure.js';

/** bwrap's own words when a mount destination is missing and cannot be created (bwrap 0.4–0.11). */
const cannotCreate = /^bwrap: Can't (?:create file at|mkdir parents for|mkdir) (.+): ([^:]+)$/;
/** The stage helper's words when a mount's target is missing or out of reach (`stageFailureLine`, errno 2: ENOENT, 13: EACCES). */
const helperMountFailed = /^openwork sandbox: could not mount the staged writable roots \(mount failed at (.+), errno (2|13)\); the command did not run$/;

/** The targets of the stage helper's masks (`N`, and `B` of a /dev/null or a socket bound aside) in `helper <ops> <operands…> …`. */
function helperMasks(command: readonly string[]): Set<string> {
  const masks = new Set<string>();
  const ops = command[1] ?? '';
  const operandCount: Readonly<Record<string, number>> = { O: 2, T: 1, N: 1, B: 2, C: 1, W: 1 };
  let next = 2;
  for (const letter of ops) {
    const count = operandCount[letter];
    if (count === undefined) return masks;
    const target = command[next + count - 1];
    if ((letter === 'N' || letter === 'B') && target !== undefined) masks.add(target);
    next += count;
  }
  return masks;
}

/**
 * Architecture §3.7: `wrap` masks every host socket (and credential file) it sees with
 * `--ro-bind /dev/null <path>`. A daemon that ends between the rendering and bwrap's start takes
 * its socket file with it, and where the command may not write (a read-only folder, `/run/user`)
 * bwrap then fails before the command starts: `bwrap: Can't create file at <path>: Read-only file
 * system`. Returns that path when this is what happened — bwrap said only that, about a mask of this
 * very argv, and the path is gone from the host now — so that the caller wraps again from the host
 * as it is (nothing of the command ran); undefined for anything else. The same when the mask failed
 * with "Permission denied" and the path is out of this user's reach on the host now (a folder made
 * unreadable after it was listed): the next wrap skips what it cannot reach.
 */
export function vanishedMaskTarget(argv: readonly string[], outcome: { readonly exitCode: number | null; readonly output: string }): string | undefined {
  const line = detectRunnerFailure({ exitCode: outcome.exitCode ?? 1, output: outcome.output })?.line;
  if (line === undefined) return undefined;
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  const created = cannotCreate.exec(line);
  let target = created?.[1];
  // Why the mask could not be placed: gone (ENOENT), or out of reach (EACCES: its folder was made
  // unreadable meanwhile, or belongs to another user) — then the host must show the same now.
  let outOfReach = created?.[2] === 'Permission denied';
  let masked = false;
  if (target !== undefined) {
    // Only bwrap's own options count, never the command after `--`.
    // A mask at the target, or below it (bwrap names the first folder it could not make).
    const at = (destination: string | undefined): boolean => destination !== undefined && (destination === target || destination.startsWith(`${target}/`));
    for (let index = 0; index + 2 < options.length; index += 1) {
      if (options[index] === '--ro-bind' && options[index + 1] === '/dev/null' && at(options[index + 2])) masked = true;
      if (options[index] === '--tmpfs' && at(options[index + 1])) masked = true;
    }
  } else {
    // The stage helper masks sockets inside an overlay itself (`N <socket>`); ENOENT there is the same case.
    const helper = helperMountFailed.exec(line);
    target = helper?.[1];
    outOfReach = helper?.[2] === '13';
    if (target === undefined || end === -1) return undefined;
    masked = helperMasks(argv.slice(end + 1)).has(target);
  }
  if (!masked) return undefined;
  try {
    const present = fs.lstatSync(target, { throwIfNoEntry: false }) !== undefined;
    return !outOfReach && !present ? target : undefined;
  } catch (error) {
    // Out of reach for this user now: the next wrap skips it (it cannot be reached from the sandbox either).
    return outOfReach && (error as NodeJS.ErrnoException).code === 'EACCES' ? target : undefined;
  }
}
