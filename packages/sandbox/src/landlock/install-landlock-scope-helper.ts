import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';

/** A hand-assembled helper executable: its bytes and their SHA-256 (in hex). */
export interface HelperProgram {
  readonly bytes: Buffer;
  readonly sha256: string;
}

/** The helper's file mode: executable and readable by all (bwrap runs it as the user), writable by nobody. */
const helperMode = 0o555;

/** Where the helper of `program` lives: in the OpenWork home (tier 1: no tool or sandboxed command writes there). */
export function landlockScopeHelperPath(openworkHome: string, program: HelperProgram): string {
  return helperPath(openworkHome, 'landlock-scope', program);
}

/** Where a helper lives: `<openworkHome>/helpers/<name>-<first 16 digits of its SHA-256>`. */
export function helperPath(openworkHome: string, name: string, program: HelperProgram): string {
  return path.posix.join(openworkHome, 'helpers', `${name}-${program.sha256.slice(0, 16)}`);
}

function errorCode(error: unknown): string {
  return (error as { code?: string }).code ?? String(error);
}

/** Why the file at `file` is not the helper, or undefined when it is: one open, one fstat, one read. */
function mismatch(file: string, program: HelperProgram): string | undefined {
  let descriptor: number;
  try {
    // O_NOFOLLOW: a link planted at the name is refused, not followed; O_NONBLOCK: a FIFO cannot hang us.
    descriptor = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    return `cannot be opened (${errorCode(error)})`;
  }
  try {
    const stat = fs.fstatSync(descriptor);
    if (!stat.isFile()) return 'is not a regular file';
    if (stat.uid !== (process.getuid?.() ?? stat.uid)) return `belongs to uid ${stat.uid}`;
    if (stat.nlink !== 1) return `has ${stat.nlink} names (hard links)`;
    if ((stat.mode & 0o7777) !== helperMode) return `has mode ${(stat.mode & 0o7777).toString(8)}, not 555`;
    if (stat.size !== program.bytes.length) return `holds ${stat.size} bytes, not ${program.bytes.length}`;
    const content = Buffer.alloc(program.bytes.length);
    const read = fs.readSync(descriptor, content, 0, content.length, 0);
    return read === content.length && content.equals(program.bytes) ? undefined : 'holds other bytes than the helper';
  } finally {
    fs.closeSync(descriptor);
  }
}

/** Why the helpers folder cannot be trusted (someone else could swap the file in it), or undefined: one lstat. */
function folderProblem(folder: string): string | undefined {
  const stat = fs.lstatSync(folder, { throwIfNoEntry: false });
  if (stat === undefined) return undefined; // created below, mode 0700
  if (!stat.isDirectory()) return `${folder} is not a folder`;
  const uid = process.getuid?.() ?? stat.uid;
  if (stat.uid !== uid || (stat.mode & 0o022) !== 0) return `${folder} is writable by another user`;
  return undefined;
}

function prepareFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const problem = folderProblem(folder);
  if (problem !== undefined) throw new Error(problem);
}

/** A fresh copy beside `file`, moved over it in one rename (another process sees the old file or the new one). */
function writeHelper(file: string, program: HelperProgram): void {
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const descriptor = fs.openSync(temporary, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    try {
      fs.writeSync(descriptor, program.bytes);
      fs.fchmodSync(descriptor, helperMode); // whatever the umask
    } finally {
      fs.closeSync(descriptor);
    }
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * Make sure `file` holds exactly the helper `program` before a sandbox runs it (architecture
 * §3.7): a regular file of ours, mode 0555, one name, byte for byte the program, in a folder only
 * we can write. Checked before every use — anything else there (missing, replaced, corrupted, a
 * link, a hard link to another file) is replaced by a fresh copy and checked again. `what` names
 * the helper in messages ("the Landlock helper"). Throws `SandboxUnavailableError` (fail closed: no
 * command runs unconfined) when the file cannot be made right, saying what was wrong and what to do.
 */
export function installHelper(file: string, program: HelperProgram, what: string): void {
  const folder = path.posix.dirname(file);
  // A file or a link of ours where the folder belongs (a forged entry: it cannot have been the
  // helpers folder) is removed — itself, never a link's target — and said, not refused for ever.
  const found = fs.lstatSync(folder, { throwIfNoEntry: false });
  if (found !== undefined && !found.isDirectory() && found.uid === (process.getuid?.() ?? found.uid)) {
    process.emitWarning(`openwork sandbox: removed ${folder}, which was not a folder (helpers are installed there)`);
    fs.rmSync(folder, { force: true });
  }
  const untrusted = folderProblem(folder);
  if (untrusted !== undefined) {
    throw new SandboxUnavailableError(`${what}'s folder cannot be trusted: ${untrusted}. Make it a folder of yours that only you can write (chmod 700 ${folder}), or remove it, then try again.`);
  }
  const problem = mismatch(file, program);
  if (problem === undefined) return;
  try {
    prepareFolder(folder);
    writeHelper(file, program);
  } catch (error) {
    throw new SandboxUnavailableError(
      `${what} at ${file} ${problem}, and a fresh copy could not be written there (${error instanceof Error ? error.message : String(error)}). Remove ${file}, then try again.`,
    );
  }
  const after = mismatch(file, program);
  if (after !== undefined) {
    throw new SandboxUnavailableError(`${what} at ${file} ${after} right after it was written: another process is changing it. Find and stop that process, then try again.`);
  }
}

/** `installHelper` for the Landlock scope helper. */
export function installLandlockScopeHelper(file: string, program: HelperProgram): void {
  installHelper(file, program, 'the Landlock helper');
}
