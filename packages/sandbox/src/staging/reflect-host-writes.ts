import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import { toNodePath } from '../policy/path-bytes.js';
import { copyRegularFile } from './copy-regular-file.js';
import { HostDirectory } from './host-directory.js';

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
 * the upper layer equals the host, so applying it later changes nothing. Below the command's root
 * nothing is followed: every folder is opened without following a link (the command may have put
 * links in its own view, and an absolute one would lead back to the host), the file is written
 * beside its name and renamed over it; a path whose folders are not plain folders in the command's
 * view is left alone.
 */
export function reflectHostWrites(pid: number, targets: readonly string[], paths: readonly string[]): Map<string, string> {
  const shown = new Map<string, string>();
  for (const path of paths) {
    if (!path.startsWith('/') || path.includes('\0')) continue;
    if (!targets.some((target) => isInsideScopedPath(path, { path: target, scope: 'subtree' }))) continue;
    let stats: fs.BigIntStats | undefined;
    try {
      stats = fs.lstatSync(toNodePath(path), { bigint: true });
    } catch {
      stats = undefined;
    }
    if (stats !== undefined && !stats.isFile()) continue;
    const components = path.split('/').filter((part) => part !== '' && part !== '.' && part !== '..');
    const name = components.pop();
    if (name === undefined) continue;
    const opened: HostDirectory[] = [];
    try {
      const anchor = HostDirectory.openAnchor(`/proc/${pid}/root`);
      if (anchor === undefined) return shown; // the command has ended
      opened.push(anchor);
      let folder: HostDirectory = anchor;
      for (const component of components) {
        let child: HostDirectory | undefined = folder.openChild(component);
        if (child === undefined && folder.lstat(component) === undefined) {
          fs.mkdirSync(folder.entry(component));
          child = folder.openChild(component);
        }
        if (child === undefined) throw new Error('not a plain folder in the command\'s view');
        opened.push(child);
        folder = child;
      }
      if (stats === undefined) {
        if (folder.lstat(name) !== undefined) fs.rmSync(folder.entry(name), { force: true, recursive: false });
        continue;
      }
      const temporary = `.${name.slice(0, 200)}.openwork-${randomBytes(6).toString('hex')}`;
      try {
        copyRegularFile(toNodePath(path), folder.entry(temporary));
        fs.chmodSync(folder.entry(temporary), Number(stats.mode) & 0o1777);
        fs.renameSync(folder.entry(temporary), folder.entry(name));
        shown.set(path, `${stats.ino}:${stats.ctimeNs}`);
      } catch (error) {
        fs.rmSync(folder.entry(temporary), { force: true });
        throw error;
      }
    } catch {
      // The command ended meanwhile, or its view has no plain folder there: nothing to show it.
    } finally {
      for (const folder of opened.reverse()) folder.close();
    }
  }
  return shown;
}
