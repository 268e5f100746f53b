import * as fs from 'node:fs';

/**
 * What a layout path is on the host right now, as bubblewrap will see it when it mounts there.
 *
 * - `directory` / `file`: exists (`file` is anything that is not a directory: regular files,
 *   devices, sockets).
 * - `missing`: does not exist, but could be created (every existing ancestor is a directory).
 * - `unreachable`: cannot exist (an ancestor is a file, e.g. `.git` as a worktree gitfile, or a
 *   symbolic-link loop): nobody can create it, so nothing needs protecting.
 */
export type HostPathKind = 'directory' | 'file' | 'missing' | 'unreachable';

export interface HostPathState {
  /**
   * The path with every symbolic link followed, dangling ones included: bwrap follows links in a
   * mount destination, so a mask lands on what the link points to (§3.4 "bind the canonical path").
   */
  readonly path: string;
  readonly kind: HostPathKind;
  /**
   * For `missing`: the components bwrap has to create to mount here, shallowest first (the first
   * missing ancestor … the path itself). Empty otherwise.
   */
  readonly missingChain: readonly string[];
}

/** Reads the host file system; injected in unit tests. */
export type InspectHostPath = (path: string) => HostPathState;

const maximumSymbolicLinks = 40; // Linux MAXSYMLINKS

function join(base: string, name: string): string {
  return base === '/' ? `/${name}` : `${base}/${name}`;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

/**
 * Walk `path` component by component like the kernel does for a mount destination: `..` and
 * symbolic links are resolved against what is really there; the first missing component ends the
 * walk and the rest is appended (architecture §3.4: names that do not exist yet are still
 * protected, so we need to know exactly which host nodes bwrap will create).
 */
export function inspectHostPath(path: string, lookups?: HostLookups): HostPathState {
  // With a rendering's lookups every component is read once per rendering, however many layout
  // paths share it (a home's ~100 credential paths: 1,300 stat calls per bash call before, issue 25).
  if (lookups !== undefined) return walkHostPath(path, lookups);
  // Fast paths (the common cases, without exceptions, which cost more than the calls): the path
  // exists, or only its last component is missing below an existing directory. Everything else
  // (dangling links, missing parents, loops) takes the exact walk.
  try {
    if (fs.statSync(path, { throwIfNoEntry: false }) !== undefined) {
      const real = fs.realpathSync.native(path);
      return { path: real, kind: fs.statSync(real).isDirectory() ? 'directory' : 'file', missingChain: [] };
    }
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    const parentPath = slash <= 0 ? '/' : path.slice(0, slash);
    if (slash >= 0 && name !== '' && name !== '.' && name !== '..' && fs.statSync(parentPath, { throwIfNoEntry: false })?.isDirectory() === true) {
      const candidate = join(fs.realpathSync.native(parentPath), name);
      if (fs.lstatSync(candidate, { throwIfNoEntry: false }) === undefined) {
        return { path: candidate, kind: 'missing', missingChain: [candidate] };
      }
    }
  } catch {
    // ENOTDIR, ELOOP, a race: the walk decides
  }
  return walkHostPath(path, uncachedLookups);
}

/** How the walk reads one host entry: `undefined` when it does not exist; other errors throw. */
interface EntryLookups {
  lstat(path: string): fs.Stats | undefined;
  readlink(path: string): string;
}

const uncachedLookups: EntryLookups = {
  lstat: (path) => fs.lstatSync(path, { throwIfNoEntry: false }),
  readlink: (path) => fs.readlinkSync(path),
};

/**
 * The host entries one rendering read, each read once (`lstat`, `readlink`, errors included):
 * the rendering is one snapshot of the host, as it was before. A new rendering — the next call,
 * or a render again after another process removed mount points — starts with fresh lookups, so
 * a change made meanwhile always counts.
 */
export class HostLookups implements EntryLookups {
  readonly #entries = new Map<string, fs.Stats | undefined | { readonly error: unknown }>();
  readonly #links = new Map<string, string>();

  lstat(path: string): fs.Stats | undefined {
    let entry = this.#entries.get(path);
    if (entry === undefined && !this.#entries.has(path)) {
      try {
        entry = fs.lstatSync(path, { throwIfNoEntry: false });
      } catch (error) {
        entry = { error };
      }
      this.#entries.set(path, entry);
    }
    if (entry !== undefined && 'error' in entry) throw entry.error;
    return entry;
  }

  readlink(path: string): string {
    let target = this.#links.get(path);
    if (target === undefined) {
      target = fs.readlinkSync(path);
      this.#links.set(path, target);
    }
    return target;
  }
}

/** The exact component-by-component walk (dangling links, missing parents, loops). */
function walkHostPath(path: string, lookups: EntryLookups): HostPathState {
  const pending = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  let current = '/';
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '..') {
      current = current === '/' ? '/' : current.slice(0, current.lastIndexOf('/')) || '/';
      continue;
    }
    if (name === '.') continue;
    const candidate = join(current, name);
    let stats: fs.Stats | undefined;
    try {
      stats = lookups.lstat(candidate);
    } catch (error) {
      if (errorCode(error) === 'ENOTDIR') return { path: join(current, [name, ...pending].join('/')), kind: 'unreachable', missingChain: [] };
      throw error;
    }
    if (stats === undefined) {
      const chain = [candidate];
      let resolved = candidate;
      for (const rest of pending) {
        if (rest === '' || rest === '.') continue;
        // `..` below a missing component cannot be walked; treat it textually.
        resolved = rest === '..' ? resolved.slice(0, resolved.lastIndexOf('/')) || '/' : join(resolved, rest);
        if (rest !== '..') chain.push(resolved);
      }
      return { path: resolved, kind: 'missing', missingChain: chain };
    }
    if (stats.isSymbolicLink()) {
      links += 1;
      if (links > maximumSymbolicLinks) return { path: candidate, kind: 'unreachable', missingChain: [] };
      const target = lookups.readlink(candidate);
      const targetSegments = target.split('/').filter((segment) => segment !== '');
      pending.unshift(...targetSegments);
      if (target.startsWith('/')) current = '/';
      continue;
    }
    if (pending.length > 0 && !stats.isDirectory()) {
      return { path: join(candidate, pending.join('/')), kind: 'unreachable', missingChain: [] };
    }
    current = candidate;
  }
  // Every component was walked and no link is left: the entry itself is what `stat` would see.
  const last = lookups.lstat(current) ?? fs.statSync(current); // gone meanwhile: stat throws ENOENT
  const kind: HostPathKind = last.isDirectory() ? 'directory' : 'file';
  return { path: current, kind, missingChain: [] };
}
