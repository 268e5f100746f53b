import * as fs from 'node:fs';
import { HostLookups, inspectHostPath } from './host-path-state.js';
import type { HostPathState } from './host-path-state.js';
import { listeningUnixSockets } from './listening-unix-sockets.js';

/** One entry of a host folder, by its own type (a symbolic link is not followed). */
export interface HostFolderEntry {
  readonly name: string;
  readonly kind: 'directory' | 'file' | 'symlink' | 'other';
}

/**
 * What the renderer reads from the host file system while it plans mounts (bwrap mounts host
 * paths, so the plan depends on what is there now). Injected in unit tests.
 */
export interface BubblewrapHost {
  /** Where `path` leads, following links like a mount destination (see `HostPathState`). */
  inspect(path: string): HostPathState;
  /** True when the entry at `path` itself is a symbolic link (dangling ones included). */
  isSymbolicLink(path: string): boolean;
  /** The entries of a folder, or `undefined` when it cannot be listed. */
  listFolder(path: string): readonly HostFolderEntry[] | undefined;
  /** Paths of the UNIX sockets host processes listen on (§3.7); absent in unit-test hosts: none. */
  listeningSockets?(): readonly string[];
}

function kindOf(entry: fs.Dirent): HostFolderEntry['kind'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  return entry.isFile() ? 'file' : 'other';
}

/** The real host. */
export const realBubblewrapHost: BubblewrapHost = {
  inspect: inspectHostPath,
  isSymbolicLink(path) {
    try {
      return fs.lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    } catch {
      return false; // ENOTDIR (a file on the way), ELOOP, EACCES: no link entry to protect there
    }
  },
  listeningSockets: listeningUnixSockets,
  listFolder(path) {
    try {
      return fs.readdirSync(path, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    } catch {
      return undefined;
    }
  },
};

/**
 * The real host as one rendering sees it: every entry read once however many layout paths share
 * it (`HostLookups`). Made anew for each rendering, so nothing read for one call is reused by the
 * next (a change made by the user between two calls always counts).
 */
export function snapshotBubblewrapHost(): BubblewrapHost {
  const lookups = new HostLookups();
  return {
    inspect: (path) => inspectHostPath(path, lookups),
    isSymbolicLink(path) {
      try {
        return lookups.lstat(path)?.isSymbolicLink() === true;
      } catch {
        return false; // as realBubblewrapHost
      }
    },
    listeningSockets: listeningUnixSockets,
    listFolder: (path) => realBubblewrapHost.listFolder(path),
  };
}
