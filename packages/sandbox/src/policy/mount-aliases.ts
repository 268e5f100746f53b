import * as fs from 'node:fs';

/** One line of `/proc/self/mountinfo` (proc(5)): which folder of which file system sits where. */
interface MountEntry {
  readonly device: string;
  /** The folder of the file system that is mounted (`/` for a whole file system, else a bind's source). */
  readonly root: string;
  readonly mountPoint: string;
}

/** mountinfo escapes space, tab, newline and backslash as octal (`\040`). */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

function parseMountInfo(text: string): MountEntry[] {
  const mounts: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 5) continue;
    mounts.push({ device: fields[2] ?? '', root: unescapeMountField(fields[3] ?? ''), mountPoint: unescapeMountField(fields[4] ?? '') });
  }
  return mounts;
}

function isAtOrBelow(path: string, base: string): boolean {
  return base === '/' || path === base || path.startsWith(`${base}/`);
}

function rebase(path: string, from: string, to: string): string {
  const rest = from === '/' ? path : path.slice(from.length);
  if (rest === '' || rest === '/') return to;
  return to === '/' ? rest : `${to}${rest}`;
}

/** The mount a path is on: the deepest mount point above it, the last one mounted there on ties. */
function mountOf(path: string, mounts: readonly MountEntry[]): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const mount of mounts) {
    if (!isAtOrBelow(path, mount.mountPoint)) continue;
    if (best === undefined || mount.mountPoint.length >= best.mountPoint.length) best = mount;
  }
  return best;
}

let cached: { readonly text: string; readonly mounts: readonly MountEntry[]; readonly shared: boolean } | undefined;
/** The mount table read for this turn of the event loop (one policy asks for ~150 entries). */
let current: { readonly mounts: readonly MountEntry[]; readonly shared: boolean } | undefined;

function currentMounts(): { readonly mounts: readonly MountEntry[]; readonly shared: boolean } {
  if (current === undefined) {
    const snapshot = readMounts();
    current = snapshot;
    queueMicrotask(() => {
      if (current === snapshot) current = undefined;
    });
  }
  return current;
}

function readMounts(): { readonly mounts: readonly MountEntry[]; readonly shared: boolean } {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return { mounts: [], shared: false }; // not Linux (or no /proc): one path per file
  }
  if (cached?.text !== text) {
    const mounts = parseMountInfo(text);
    const perDevice = new Map<string, number>();
    for (const mount of mounts) perDevice.set(mount.device, (perDevice.get(mount.device) ?? 0) + 1);
    cached = { text, mounts, shared: [...perDevice.values()].some((count) => count > 1) };
  }
  return cached;
}

/**
 * Architecture §3.8 "credential rules follow the file, not one spelling of its path": the other
 * paths at which the folder or file at canonical `path` is reachable through another mount of the
 * same file system (a bind mount of HOME, a container volume, `/var/home`), read from
 * `/proc/self/mountinfo`. An alias hidden by a later mount over it leads elsewhere and is left out.
 * Empty off Linux and where no file system is mounted twice (the common case: one read, no walk).
 */
export function mountAliases(path: string): string[] {
  const { mounts, shared } = currentMounts();
  if (!shared) return [];
  const home = mountOf(path, mounts);
  if (home === undefined) return [];
  const inFileSystem = rebase(path, home.mountPoint, home.root);
  const aliases = new Set<string>();
  for (const mount of mounts) {
    if (mount.device !== home.device || !isAtOrBelow(inFileSystem, mount.root)) continue;
    const alias = rebase(inFileSystem, mount.root, mount.mountPoint);
    if (alias === path || mountOf(alias, mounts) !== mount) continue;
    aliases.add(alias);
  }
  return [...aliases];
}
