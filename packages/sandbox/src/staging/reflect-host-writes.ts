import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { isInsideScopedPath } from '../policy/is-inside-scoped-path.js';

/**
 * A process of the running command whose mount namespace holds this call's overlays: the one
 * process whose mounts name `token` (the call's own staging mount point), found in `/proc`.
 */
export function findStagedProcess(token: string, known: number | undefined): number | undefined {
  const holds = (pid: number): boolean => {
    try {
      return fs.readFileSync(`/proc/${pid}/mountinfo`, 'utf8').includes(token);
    } catch {
      return false;
    }
  };
  if (known !== undefined && holds(known)) return known;
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid !== process.pid && holds(pid)) return pid;
  }
  return undefined;
}

/**
 * Writes the host's current state of each path into the running command's view of it, through
 * `/proc/<pid>/root` (the command's own root, where the overlays are): the overlay copies the file
 * up and the command's watchers get their event. The host is never written here; what lands in
 * the upper layer equals the host, so applying it later changes nothing.
 */
export function reflectHostWrites(pid: number, targets: readonly string[], paths: readonly string[]): void {
  for (const path of paths) {
    if (!path.startsWith('/') || path.includes('\0')) continue;
    if (!targets.some((target) => isInsideScopedPath(path, { path: target, scope: 'subtree' }))) continue;
    const inside = `/proc/${pid}/root${path}`;
    const slash = inside.lastIndexOf('/');
    const temporary = `${inside.slice(0, slash)}/.${inside.slice(slash + 1, slash + 200)}.openwork-${randomBytes(6).toString('hex')}`;
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(path);
    } catch {
      stats = undefined;
    }
    try {
      if (stats === undefined) {
        fs.rmSync(inside, { force: true });
      } else if (stats.isFile()) {
        fs.mkdirSync(inside.slice(0, slash), { recursive: true });
        fs.copyFileSync(path, temporary);
        fs.chmodSync(temporary, stats.mode & 0o1777);
        fs.renameSync(temporary, inside);
      }
    } catch {
      fs.rmSync(temporary, { force: true });
      // The command ended meanwhile, or its view has no such folder: nothing to show it.
    }
  }
}
