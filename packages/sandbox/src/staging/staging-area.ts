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

/** A folder name that carries its owner's process ID: `<pid>-<random>`. */
const ownedName = /^(\d+)-[A-Za-z0-9]{6}$/;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a staging folder, including overlayfs' `work/work`, which the kernel leaves with mode 0. */
export function removeStagingFolder(folder: string): void {
  try {
    for (const root of fs.readdirSync(folder)) {
      try {
        fs.chmodSync([folder, root, 'work', 'work'].join('/'), 0o700);
      } catch {
        // not there: nothing to open up
      }
    }
  } catch {
    // the folder is gone already
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

/** Removes staging folders whose process has ended (a crash or `kill -9` mid-call, architecture §3.7). */
function reapStagingFolders(base: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = ownedName.exec(name);
    if (owner === null || Number(owner[1]) === process.pid || isAlive(Number(owner[1]))) continue;
    try {
      endSandboxesOf(`${base}/${name}`);
      removeStagingFolder(`${base}/${name}`);
    } catch {
      // another process reaps it right now
    }
  }
}

/**
 * Where a call's staging folders go: inside the OpenWork home when it lies outside every overlaid
 * root (overlayfs refuses an upper layer inside its own lower tree), else in the user's folder of
 * the shared-memory file system. The candidate on the same file system as the first root comes
 * first, so applying a change is a rename, not a copy.
 */
function stagingCandidates(openworkHome: string): string[] {
  return [`${openworkHome}/staging`, `/dev/shm/openwork-${currentUid()}/staging`];
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

/**
 * Makes the staging folder of one call, owned by this process (`<pid>-<random>`, mode 0700) and
 * with an upper and a work folder per root, after removing the folders of ended processes.
 */
export function createStagingArea(openworkHome: string, targets: readonly string[]): StagingArea {
  const bases = stagingBases(openworkHome, targets);
  // Folders of ended processes go from every place a call may have staged, not only this call's.
  for (const base of stagingCandidates(openworkHome)) reapStagingFolders(base);
  const failures: string[] = [];
  for (const base of bases) {
    try {
      // Another process's last call may remove the shared folder right after we made it: make it again.
      let folder: string | undefined;
      for (let attempt = 0; folder === undefined; attempt += 1) {
        fs.mkdirSync(base, { recursive: true, mode: 0o700 });
        try {
          folder = fs.mkdtempSync(`${base}/${process.pid}-`);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 10) throw error;
        }
      }
      const roots = targets.map((target, index) => {
        const name = `r${index}`;
        fs.mkdirSync(`${folder}/${name}`);
        fs.mkdirSync(`${folder}/${name}/upper`);
        fs.mkdirSync(`${folder}/${name}/work`);
        return { target, upper: `${folder}/${name}/upper`, work: `${folder}/${name}/work`, name };
      });
      // The shared `staging` folder stays, empty, between calls (one entry of OpenWork's own home):
      // removing it would change the OpenWork home itself at every call.
      const remove = (): void => removeStagingFolder(folder);
      return { folder, mountPoint: `/dev/.openwork-stage-${folder.slice(folder.lastIndexOf('/') + 1)}`, roots, remove };
    } catch (error) {
      failures.push(`${base}: ${(error as Error).message}`);
    }
  }
  throw new SandboxError(`could not make a staging folder for the command's writes (${failures.join('; ') || 'every candidate lies inside a writable root'})`);
}
