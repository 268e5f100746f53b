import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import { SandboxError } from '../policy/sandbox-error.js';
import type { StagedRoot } from './staged-writes.js';

/** One overlaid root of a call, with its folders in the staging area. */
export interface StagingRoot extends StagedRoot {
  /** overlayfs' work folder (same file system as `upper`, emptied by the kernel). */
  readonly work: string;
  /** `upper` and `work` relative to the staging area (as the sandbox sees them below its mount). */
  readonly name: string;
}

/** The per-call staging folder: one upper and one work folder per overlaid root. */
export interface StagingArea {
  readonly folder: string;
  /**
   * Where the sandbox sees the folder: in bwrap's own `/dev` (nothing is made on the host), under a
   * name of this call only, so that the call's processes can be told by their mounts.
   */
  readonly mountPoint: string;
  readonly roots: readonly StagingRoot[];
  /** Removes the folder and everything still in it (after the changes were applied). */
  remove(): void;
}

/** This process's uid, without a passwd lookup (a uid without an entry has no `os.userInfo()`). */
export function currentUid(): number {
  return process.getuid?.() ?? 0;
}

/** A folder name of a call: `<owner>-<random>`, the owner being the process's lock token `<pid>.<hex>`. */
const callFolderName = /^(\d+\.[0-9a-f]{8})-[A-Za-z0-9]{6}$/;
/** A process's lock file in a staging base: held (`flock`) for as long as that process lives. */
const lockFileName = /^(\d+\.[0-9a-f]{8})\.lock$/;
/** A call folder of an older version (`<pid>-<random>`, no lock): ended when its pid is gone. */
const legacyFolderName = /^(\d+)-[A-Za-z0-9]{6}$/;

const O_PATH = 0o10000000; // Linux (x86-64, arm64): a descriptor that names a file without opening it

/** Why `stats` is not a private folder of ours (a folder, owned by this uid, mode 0700 or narrower). */
function notPrivate(stats: fs.Stats | undefined): string | undefined {
  if (stats === undefined) return 'is missing';
  if (stats.isSymbolicLink()) return 'is a symbolic link';
  if (!stats.isDirectory()) return 'is not a folder';
  if (stats.uid !== currentUid()) return `belongs to uid ${stats.uid}, not to this user (${currentUid()})`;
  if ((stats.mode & 0o077) !== 0) return `has mode ${(stats.mode & 0o777).toString(8)}: other users may enter it`;
  return undefined;
}

/** Why a folder that holds a staging base could let another user swap it: writable by others and not sticky. */
function unsafeParent(folder: string): string | undefined {
  const stats = fs.lstatSync(folder, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isDirectory()) return `${folder} is not a folder`;
  const ours = stats.uid === currentUid() || stats.uid === 0;
  if ((stats.mode & 0o1000) !== 0) return undefined; // sticky (/dev/shm, /tmp): only its owner removes or renames an entry
  if (!ours) return `${folder} belongs to uid ${stats.uid}`;
  if ((stats.mode & 0o022) !== 0) return `${folder} is writable by other users`;
  return undefined;
}

/**
 * Makes `folder` (or finds it made), then checks with `lstat` that it is a private folder of ours
 * (owned by this uid, mode 0700): a folder another user made first, a link or a file at the name
 * is refused, never used.
 */
function ensurePrivateFolder(folder: string): void {
  try {
    fs.mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const problem = notPrivate(fs.lstatSync(folder, { throwIfNoEntry: false }));
  if (problem !== undefined) throw new SandboxError(`${folder} ${problem}`);
}

/**
 * This process's lock in one staging base: a file `<token>.lock` opened once and locked with
 * `flock` by the stage helper on the shared open file (the lock lives as long as this process keeps
 * the file open — until it ends, whatever ends it). Another OpenWork process, in any PID namespace
 * that shares the base, takes the lock only once this one has ended.
 */
interface ProcessLock {
  readonly token: string;
  readonly descriptor: number;
}

const processLocks = new Map<string, ProcessLock>();
let exitHookInstalled = false;

/** Runs the helper's `!` on `descriptor`: true when the lock is now held through it. */
function takeLock(helper: string, descriptor: number): boolean {
  const run = spawnSync(helper, ['!'], { stdio: ['ignore', 'ignore', 'ignore', descriptor], timeout: 10_000 });
  return run.status === 0;
}

function processLock(base: string, helper: string): ProcessLock {
  const known = processLocks.get(base);
  if (known !== undefined) return known;
  for (let attempt = 0; ; attempt += 1) {
    const token = `${process.pid}.${randomBytes(4).toString('hex')}`;
    const file = `${base}/${token}.lock`;
    const descriptor = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    if (takeLock(helper, descriptor)) {
      const lock = { token, descriptor };
      processLocks.set(base, lock);
      if (!exitHookInstalled) {
        exitHookInstalled = true;
        // A process that ends normally leaves no lock file; a killed one leaves an unlocked one (reaped).
        process.once('exit', () => {
          for (const [folder, held] of processLocks) fs.rmSync(`${folder}/${held.token}.lock`, { force: true });
        });
      }
      return lock;
    }
    // A reaper took it between our create and our lock (it saw a lock file and no folder): another name.
    fs.closeSync(descriptor);
    if (attempt >= 5) throw new SandboxError(`could not lock ${file} (the stage helper's flock failed)`);
  }
}

/**
 * Removes a staging folder without following links: overlayfs leaves `work/work` with mode 0, so
 * each is opened first (`O_PATH | O_NOFOLLOW | O_DIRECTORY`: a link or a file at the name fails) and
 * opened up through its descriptor, then the tree goes (`rm -r` removes links, never follows them).
 */
export function removeStagingFolder(folder: string): void {
  let roots: string[] = [];
  try {
    roots = fs.readdirSync(folder);
  } catch {
    // the folder is gone already
  }
  for (const root of roots) {
    let descriptor: number | undefined;
    try {
      descriptor = fs.openSync([folder, root, 'work', 'work'].join('/'), O_PATH | fs.constants.O_NOFOLLOW | fs.constants.O_DIRECTORY);
      fs.chmodSync(`/proc/self/fd/${descriptor}`, 0o700);
    } catch {
      // not there (or not a folder): nothing to open up
    } finally {
      if (descriptor !== undefined) fs.closeSync(descriptor);
    }
  }
  fs.rmSync(folder, { recursive: true, force: true });
}

/**
 * Ends every process that still has `folder` in its arguments: a sandbox whose host was killed in
 * the moment before bwrap armed `--die-with-parent` outlives it (bwrap is told the staging folder
 * by name, so its own arguments say whose it is).
 */
function endSandboxesOf(folder: string): void {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return;
  }
  const needle = Buffer.from(`\0${folder}\0`);
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = Buffer.concat([Buffer.from([0]), fs.readFileSync(`/proc/${name}/cmdline`)]);
      if (cmdline.includes(needle)) process.kill(Number(name), 'SIGKILL'); // bwrap: its PID namespace goes with it
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}

/** Whether a process of an older version (no lock file) still lives: the pid test it relied on. */
function legacyOwnerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the call folders of processes that have ended (a crash or `kill -9` mid-call,
 * architecture §3.7): a process has ended when the stage helper can take its lock — right across
 * PID namespaces that share the base (a pid says nothing there). A lock file is removed while
 * held, after the folders of its process.
 */
function reapStagingFolders(base: string, helper: string, own: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(base);
  } catch {
    return;
  }
  const owners = new Map<string, string[]>();
  for (const name of names) {
    const token = callFolderName.exec(name)?.[1] ?? lockFileName.exec(name)?.[1];
    if (token !== undefined && token !== own) {
      const list = owners.get(token) ?? [];
      if (callFolderName.test(name)) list.push(name);
      owners.set(token, list);
      continue;
    }
    const legacy = legacyFolderName.exec(name);
    if (legacy !== null && !legacyOwnerAlive(Number(legacy[1]))) reap(`${base}/${name}`);
  }
  for (const [token, folders] of owners) {
    let descriptor: number | undefined;
    try {
      descriptor = fs.openSync(`${base}/${token}.lock`, fs.constants.O_RDWR | fs.constants.O_NOFOLLOW);
    } catch (error) {
      // No lock file with folders: its owner's lock was reaped already (another reaper is at it).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') continue;
    }
    try {
      if (descriptor !== undefined && !takeLock(helper, descriptor)) continue; // alive
      for (const name of folders) reap(`${base}/${name}`);
      if (descriptor !== undefined) fs.rmSync(`${base}/${token}.lock`, { force: true });
    } finally {
      if (descriptor !== undefined) fs.closeSync(descriptor);
    }
  }
}

function reap(folder: string): void {
  try {
    endSandboxesOf(folder);
    removeStagingFolder(folder);
  } catch {
    // another process reaps it right now
  }
}

/**
 * This user's private staging folders on a disk outside the OpenWork home (`/var/tmp/openwork-<uid>`
 * and a fallback beside it): the ones a sandbox could see through its read-only `/`, so it hides them
 * (other calls' staged writes are not the command's to read). `/dev/shm` is bwrap's own `/dev` there.
 */
export function visibleStagingFolders(): string[] {
  const prefix = `openwork-${currentUid()}`;
  let names: string[];
  try {
    names = fs.readdirSync('/var/tmp');
  } catch {
    return [];
  }
  return names
    .filter((name) => name === prefix || (name.startsWith(`${prefix}.`) && /^[A-Za-z0-9]{6}$/.test(name.slice(prefix.length + 1))))
    .map((name) => `/var/tmp/${name}`)
    .filter((folder) => notPrivate(fs.lstatSync(folder, { throwIfNoEntry: false })) === undefined);
}

/**
 * The private folders of this user in a sticky shared folder (`/dev/shm`, `/var/tmp`):
 * `<parent>/openwork-<uid>` when it is ours; when another user made that name first (or a file is
 * there), a folder of ours `openwork-<uid>.<random>` that nobody else can have made (mkdtemp),
 * found again by the next call. Never a folder another user made.
 */
function privateFolderIn(parent: string): string {
  const parentProblem = unsafeParent(parent);
  if (parentProblem !== undefined) throw new SandboxError(parentProblem);
  const fixed = `${parent}/openwork-${currentUid()}`;
  try {
    ensurePrivateFolder(fixed);
    return fixed;
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    warnOnce(`openwork sandbox: ${error.message}; staging in a private folder beside it instead`);
  }
  const prefix = `openwork-${currentUid()}.`;
  for (const name of fs.readdirSync(parent)) {
    if (!name.startsWith(prefix) || !/^[A-Za-z0-9]{6}$/.test(name.slice(prefix.length))) continue;
    if (notPrivate(fs.lstatSync(`${parent}/${name}`, { throwIfNoEntry: false })) === undefined) return `${parent}/${name}`;
  }
  return fs.mkdtempSync(`${parent}/${prefix}`); // mode 0700, ours, a name nobody had
}

const warned = new Set<string>();
function warnOnce(text: string): void {
  if (warned.has(text)) return;
  warned.add(text);
  process.emitWarning(text);
}

/**
 * Makes (or finds) the staging base `candidate` private: each folder from its private root down is
 * ours and mode 0700, checked with `lstat` after it was made.
 */
function preparedBase(candidate: string, openworkHome: string): string {
  if (candidate === `${openworkHome}/staging`) {
    fs.mkdirSync(openworkHome, { recursive: true, mode: 0o700 });
    const home = fs.lstatSync(openworkHome);
    if (!home.isDirectory() || home.uid !== currentUid() || (home.mode & 0o022) !== 0) {
      throw new SandboxError(`the OpenWork home ${openworkHome} is not a folder of this user that only it can write`);
    }
    ensurePrivateFolder(candidate);
    return candidate;
  }
  const parent = candidate.slice(0, candidate.indexOf('/openwork-'));
  const folder = `${privateFolderIn(parent)}/staging`;
  ensurePrivateFolder(folder);
  return folder;
}

/**
 * Where a call's staging folders may go, most wanted first: inside the OpenWork home (a disk, the
 * user's own place), in the user's private folder of `/var/tmp` (a disk too: with HOME as the
 * workspace or in full access, where the OpenWork home lies inside an overlaid root — overlayfs
 * refuses an upper layer inside its own lower tree), else of the shared-memory file system (RAM).
 * `stagingBases` drops those inside an overlaid root and puts those on the first root's file
 * system first (applying a change is then a rename, not a copy).
 */
function stagingCandidates(openworkHome: string): string[] {
  return [`${openworkHome}/staging`, `/var/tmp/openwork-${currentUid()}/staging`, `/dev/shm/openwork-${currentUid()}/staging`];
}

export function stagingBases(openworkHome: string, targets: readonly string[]): string[] {
  const candidates = stagingCandidates(openworkHome);
  const clear = candidates.filter(
    (base) => !targets.some((target) => isInsideScopedPath(base, { path: target, scope: 'subtree' }) || isInsideScopedPath(target, { path: base, scope: 'subtree' })),
  );
  const device = (() => {
    try {
      return targets[0] === undefined ? undefined : fs.statSync(targets[0]).dev;
    } catch {
      return undefined;
    }
  })();
  const sameDevice = (base: string): boolean => {
    for (let folder = base; folder !== '/' && folder !== ''; folder = folder.slice(0, folder.lastIndexOf('/')) || '/') {
      try {
        return fs.statSync(folder).dev === device;
      } catch {
        // not made yet: its parent tells
      }
    }
    return false;
  };
  return [...clear.filter(sameDevice), ...clear.filter((base) => !sameDevice(base))];
}

/** Where the staged writes of a call with these overlaid roots would go (`openwork doctor`), and what it is. */
export function describeStagingPlace(openworkHome: string, targets: readonly string[]): string {
  const base = stagingBases(openworkHome, targets)[0];
  if (base === undefined) return 'nowhere: every candidate lies inside a writable root';
  let type: number | undefined;
  for (let folder = base; type === undefined && folder !== ''; folder = folder.slice(0, folder.lastIndexOf('/'))) {
    try {
      type = fs.statfsSync(folder || '/').type;
    } catch {
      // not made yet: its parent tells
    }
  }
  const ram = type === 0x0102_1994 || type === 0x8584_58f6; // tmpfs, ramfs
  return `${base} (${ram ? 'RAM: every write of a call is held in memory until it ends' : 'disk'})`;
}

/** How often a process looks for folders of ended processes (a crash's folder goes within this time of the next call). */
const REAP_INTERVAL_MS = 10_000;
const lastReaped = new Map<string, number>();

function reapDue(openworkHome: string): boolean {
  const now = performance.now();
  const last = lastReaped.get(openworkHome);
  if (last !== undefined && now - last < REAP_INTERVAL_MS) return false;
  lastReaped.set(openworkHome, now);
  return true;
}

/** The staging bases that exist and are private to this user (never made here): where the reaper looks. */
function existingPrivateBases(openworkHome: string): string[] {
  const found: string[] = [];
  const consider = (folder: string): void => {
    if (notPrivate(fs.lstatSync(folder, { throwIfNoEntry: false })) === undefined) found.push(folder);
  };
  consider(`${openworkHome}/staging`);
  for (const parent of ['/var/tmp', '/dev/shm']) {
    const prefix = `openwork-${currentUid()}`;
    let names: string[] = [];
    try {
      names = fs.readdirSync(parent).filter((name) => name === prefix || (name.startsWith(`${prefix}.`) && /^[A-Za-z0-9]{6}$/.test(name.slice(prefix.length + 1))));
    } catch {
      // no such place here
    }
    for (const name of names) {
      if (notPrivate(fs.lstatSync(`${parent}/${name}`, { throwIfNoEntry: false })) === undefined) consider(`${parent}/${name}/staging`);
    }
  }
  return found;
}

/**
 * Makes the staging folder of one call, private to this user (every folder from the base down
 * ours, mode 0700, checked after it was made), named after this process's lock token, after
 * removing the folders of processes that have ended. `helper` is the installed stage helper (it
 * takes the locks).
 */
export function createStagingArea(openworkHome: string, targets: readonly string[], helper: string): StagingArea {
  const bases = stagingBases(openworkHome, targets);
  const failures: string[] = [];
  for (const candidate of bases) {
    try {
      const base = preparedBase(candidate, openworkHome);
      const lock = processLock(base, helper);
      // Folders of ended processes go from every place a call may have staged, not only this call's
      // (at the first call of a process, then at most every REAP_INTERVAL_MS: each lock asked about
      // is a run of the helper).
      if (reapDue(openworkHome)) {
        reapStagingFolders(base, helper, lock.token);
        for (const other of existingPrivateBases(openworkHome)) if (other !== base) reapStagingFolders(other, helper, processLocks.get(other)?.token ?? '');
      }
      const folder = fs.mkdtempSync(`${base}/${lock.token}-`);
      const problem = notPrivate(fs.lstatSync(folder));
      if (problem !== undefined) throw new SandboxError(`${folder} ${problem}`);
      const roots = targets.map((target, index) => {
        const name = `r${index}`;
        fs.mkdirSync(`${folder}/${name}`);
        fs.mkdirSync(`${folder}/${name}/upper`);
        fs.mkdirSync(`${folder}/${name}/work`);
        return { target, upper: `${folder}/${name}/upper`, work: `${folder}/${name}/work`, name };
      });
      // The shared `staging` folder stays between calls (one entry of OpenWork's own home).
      const remove = (): void => removeStagingFolder(folder);
      return { folder, mountPoint: `/dev/.openwork-stage-${folder.slice(folder.lastIndexOf('/') + 1)}`, roots, remove };
    } catch (error) {
      failures.push(`${candidate}: ${(error as Error).message}`);
    }
  }
  throw new SandboxError(`could not make a private staging folder for the command's writes (${failures.join('; ') || 'every candidate lies inside a writable root'})`);
}
