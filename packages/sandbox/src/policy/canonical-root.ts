import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalizePathSync } from './canonicalize-path.js';
import { SandboxConfigurationError } from './sandbox-error.js';

export function requireAbsolute(value: string, what: string): string {
  if (!value.startsWith('/') || value.includes('\0')) {
    throw new SandboxConfigurationError(`${what} must be an absolute path without NUL bytes, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Canonical form of a configured root (may not exist yet). A dangling link in a root is a configuration error. */
export function canonicalRoot(value: string, what: string): string {
  requireAbsolute(value, what);
  const resolution = canonicalizePathSync(value, { cwd: '/', intent: 'may-create' });
  if (!resolution.ok) throw new SandboxConfigurationError(`${what}: ${resolution.message}`);
  return resolution.path;
}

/** Linux MAXSYMLINKS: a longer chain is a loop. */
const maximumLinkHops = 40;

/**
 * Every hop of the chain of symbolic links that starts at `location` (not included): each
 * intermediate link where it sits, and the final name, which may not exist (a dangling link: a
 * write through it creates that file). A command could replace any of these links, or create the
 * missing end, and so change what the protected name is (architecture §3.2: "nor write through it").
 */
function linkChain(location: string): string[] {
  const hops: string[] = [];
  let current = location;
  for (let hop = 0; hop < maximumLinkHops; hop += 1) {
    let target: string;
    try {
      target = fs.readlinkSync(current);
    } catch {
      return hops; // not a link (any more): `current` is the end of the chain
    }
    const next = path.posix.resolve(path.posix.dirname(current), target);
    const parent = canonicalizePathSync(path.posix.dirname(next), { cwd: '/', intent: 'may-create' });
    if (!parent.ok) return hops;
    current = parent.path === '/' ? `/${path.posix.basename(next)}` : `${parent.path}/${path.posix.basename(next)}`;
    hops.push(current);
  }
  return hops;
}

/**
 * Canonical parents, remembered for a moment: one policy resolves some 150 default entries below
 * a handful of folders (HOME, `~/.config`, `~/.local/share`), and each canonicalisation costs a
 * system call per component. Forgotten on the next turn of the event loop, so a folder replaced by
 * a link later is seen by the next policy.
 */
let parentMemo: Map<string, ReturnType<typeof canonicalizePathSync>> | undefined;

function canonicalParent(folder: string): ReturnType<typeof canonicalizePathSync> {
  if (parentMemo === undefined) {
    const memo = new Map<string, ReturnType<typeof canonicalizePathSync>>();
    parentMemo = memo;
    queueMicrotask(() => {
      if (parentMemo === memo) parentMemo = undefined;
    });
  }
  let resolution = parentMemo.get(folder);
  if (resolution === undefined) {
    resolution = canonicalizePathSync(folder, { cwd: '/', intent: 'may-create' });
    parentMemo.set(folder, resolution);
  }
  return resolution;
}

function isSymbolicLinkEntry(location: string): boolean {
  try {
    return fs.lstatSync(location, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false; // ENOTDIR (a file on the way), EACCES: no link there
  }
}

/**
 * Where the entry named by `value` sits: its canonical parent plus its own name, whatever the
 * entry is (a symbolic link there is not followed). `undefined` when the parent cannot be resolved.
 */
export function entryLocation(value: string, what: string): string | undefined {
  requireAbsolute(value, what);
  const parent = canonicalParent(path.posix.dirname(value));
  if (!parent.ok) return undefined;
  const name = path.posix.basename(value);
  return parent.path === '/' ? `/${name}` : `${parent.path}/${name}`;
}

/**
 * Every place a protected name lives: where the node itself sits (canonical parent + name — a
 * symbolic link there can be replaced), every link it goes through on the way (each can be
 * replaced too), and what it finally resolves to (the file that would be changed), also when the
 * link dangles (the file a write through it would create).
 */
export function protectedLocations(value: string, what: string): string[] {
  requireAbsolute(value, what);
  const locations = new Set<string>();
  const location = entryLocation(value, what);
  // The common case, one lstat: not a link, so the entry is where it resolves to.
  if (location !== undefined && !isSymbolicLinkEntry(location)) return [location];
  if (location !== undefined) {
    locations.add(location);
    for (const hop of linkChain(location)) locations.add(hop);
  }
  const target = canonicalizePathSync(value, { cwd: '/', intent: 'may-create' });
  if (target.ok) locations.add(target.path);
  if (locations.size === 0) locations.add(path.posix.normalize(value));
  return [...locations];
}
