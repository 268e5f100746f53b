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
type Resolution = ReturnType<typeof canonicalizePathSync>;
/** A folder's names and which of them are links; `missing` when it does not exist, `undefined` when it cannot be listed. */
type Listing = { readonly names: ReadonlySet<string>; readonly links: ReadonlySet<string> } | 'missing' | undefined;

let folderMemo: Map<string, Resolution> | undefined;
let listingMemo: Map<string, Listing> | undefined;

function forgetSoon(): void {
  if (folderMemo !== undefined) return;
  const folders = new Map<string, Resolution>();
  const listings = new Map<string, Listing>();
  folderMemo = folders;
  listingMemo = listings;
  queueMicrotask(() => {
    if (folderMemo === folders) folderMemo = undefined;
    if (listingMemo === listings) listingMemo = undefined;
  });
}

function listingOf(folder: string): Listing {
  const memo = listingMemo as Map<string, Listing>;
  if (memo.has(folder)) return memo.get(folder);
  let listing: Listing;
  try {
    const entries = fs.readdirSync(folder, { withFileTypes: true });
    listing = { names: new Set(entries.map((entry) => entry.name)), links: new Set(entries.filter((entry) => entry.isSymbolicLink()).map((entry) => entry.name)) };
  } catch (error) {
    listing = (error as { code?: string }).code === 'ENOENT' ? 'missing' : undefined;
  }
  memo.set(folder, listing);
  return listing;
}

/**
 * `canonicalizePathSync(folder)`, descending from the memoised parent: one policy resolves ~150
 * default entries in ~40 folders below HOME, and a folder that is neither a link nor listed as
 * missing costs one listing of its parent, shared by its siblings. A link, a file on the way or an
 * unlistable folder takes the exact walk. Forgotten on the next turn of the event loop, so a
 * folder replaced by a link later is seen by the next policy.
 */
function canonicalFolder(folder: string): Resolution {
  forgetSoon();
  const memo = folderMemo as Map<string, Resolution>;
  let resolution = memo.get(folder);
  if (resolution !== undefined) return resolution;
  const exact = (): Resolution => canonicalizePathSync(folder, { cwd: '/', intent: 'may-create' });
  if (folder === '/' || !folder.startsWith('/')) {
    resolution = exact();
  } else {
    const parent = canonicalFolder(path.posix.dirname(folder));
    const name = path.posix.basename(folder);
    const listing = parent.ok ? listingOf(parent.path) : undefined;
    if (!parent.ok || listing === undefined || (listing !== 'missing' && listing.links.has(name)) || name === '..' || name === '.') {
      resolution = exact();
    } else {
      const joined = parent.path === '/' ? `/${name}` : `${parent.path}/${name}`;
      if (listing === 'missing' || !listing.names.has(name)) (listingMemo as Map<string, Listing>).set(joined, 'missing');
      resolution = { ...parent, path: joined };
    }
  }
  memo.set(folder, resolution);
  return resolution;
}

/** Whether the entry at canonical `location` is itself a symbolic link, from its folder's listing. */
function isSymbolicLinkEntry(location: string): boolean {
  forgetSoon();
  const listing = listingOf(path.posix.dirname(location));
  if (listing === 'missing') return false;
  if (listing !== undefined) return listing.links.has(path.posix.basename(location));
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
  const parent = canonicalFolder(path.posix.dirname(value));
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
