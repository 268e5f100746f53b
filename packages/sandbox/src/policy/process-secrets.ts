import * as fs from 'node:fs';
import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import type { ProtectedEntry } from './default-protected-paths.js';
import type { SandboxPolicy } from './sandbox-policy.js';

/**
 * Entries of a process folder in procfs (`/proc/<pid>/…`, `/proc/<pid>/task/<tid>/…`) that hold
 * what the process keeps to itself (architecture §3.8): a file tool runs in the openwork process,
 * whose environment holds what bash never gets, and may name any other process of the user. Each
 * is denied to the file tools like a credential (a grant naming it reopens it), at every depth of
 * `task/<tid>/` and at every procfs mount (docs/decisions/0095-file-tools-deny-process-secrets.md).
 */
export const processSecretEntries: readonly ProtectedEntry[] = Object.freeze(
  [
    { path: 'environ', reason: 'the environment the process started with (tokens and keys given as variables)' },
    { path: 'cmdline', reason: 'its arguments (tokens and passwords given on command lines); those of the openwork process too' },
    { path: 'mem', reason: 'its memory' },
    { path: 'auxv', reason: 'the auxiliary vector (addresses and the random bytes that seed its stack protector)' },
    { path: 'maps', reason: 'its memory map (addresses that undo address randomisation, the files it maps)' },
    { path: 'smaps', reason: 'its memory map with sizes' },
    { path: 'smaps_rollup', reason: 'its memory map, summed' },
    { path: 'numa_maps', reason: 'its memory map by NUMA node' },
    { path: 'pagemap', reason: 'the physical pages behind its memory' },
    { path: 'stack', reason: 'its kernel stack (kernel addresses)' },
    { path: 'syscall', reason: 'the system call it is in and its arguments (addresses, descriptors)' },
    { path: 'fd', reason: 'its open files: deleted files, pipes, sockets and memory files reached through them' },
    { path: 'fdinfo', reason: 'positions and flags of its open files (eventfd counters, inotify watches)' },
    { path: 'map_files', reason: 'the files it maps, deleted ones included' },
  ].map((entry) => Object.freeze(entry)),
);

/** Entries at the top of procfs that are not about one process but are denied the same way. */
export const procfsSecretEntries: readonly ProtectedEntry[] = Object.freeze(
  [
    { path: 'kcore', reason: 'the memory of the kernel (root only, as openwork may run)' },
    { path: 'kmsg', reason: 'the kernel log: a read blocks and takes messages away from the system log' },
  ].map((entry) => Object.freeze(entry)),
);

const processNames = new Set(processSecretEntries.map((entry) => entry.path));
const topNames = new Set(procfsSecretEntries.map((entry) => entry.path));
const digits = /^[0-9]+$/;

function isProcessName(segment: string | undefined): boolean {
  return segment !== undefined && (digits.test(segment) || segment === 'self' || segment === 'thread-self');
}

/**
 * Whether `rest` (the part of a path below a procfs mount, without the leading `/`) is a process
 * secret or inside one: `<pid>/(task/<tid>/)*<name>[/…]`, `self` and `thread-self` spelled out
 * too (a walk meets them as names), or a top-level secret entry.
 */
function isSecretBelowProcfs(rest: string): boolean {
  const segments = rest.split('/');
  if (segments.length === 1) return topNames.has(segments[0] ?? '');
  if (!isProcessName(segments[0])) return false;
  let index = 1;
  while (segments[index] === 'task' && isProcessName(segments[index + 1])) index += 2;
  const name = segments[index];
  return name !== undefined && processNames.has(name);
}

/** One line of `/proc/self/mountinfo`: the mount point (field 5) and the file-system type (after ` - `). */
function procfsMountPointsOf(text: string): string[] {
  const points: string[] = [];
  for (const line of text.split('\n')) {
    const separator = line.indexOf(' - ');
    if (separator < 0) continue;
    const type = line.slice(separator + 3).split(' ')[0];
    if (type !== 'proc') continue;
    const mountPoint = line.slice(0, separator).split(' ')[4];
    if (mountPoint === undefined) continue;
    points.push(mountPoint.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))));
  }
  return points;
}

/**
 * Every path where procfs is mounted, read from `/proc/self/mountinfo` when a policy is built (a
 * container may show the host's at `/host/proc`); `/proc` on Linux even when mountinfo cannot be
 * read. Empty elsewhere (macOS has no procfs).
 */
export function procfsMountPoints(): string[] {
  if (process.platform !== 'linux') return [];
  let text = '';
  try {
    text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    // No readable mountinfo: still deny at the one place procfs always is.
  }
  return [...new Set(['/proc', ...procfsMountPointsOf(text)])];
}

function mountsOf(policy: SandboxPolicy): readonly string[] {
  return policy.procfsMounts ?? (process.platform === 'linux' ? ['/proc'] : []);
}

/**
 * Whether a file tool's access to canonical `path` would expose what a process keeps to itself
 * (`processSecretEntries` at any procfs mount). Not for sandboxed processes: bubblewrap gives them
 * their own procfs in their own PID namespace, where they see only themselves.
 */
export function isProcessSecretPath(policy: SandboxPolicy, path: string): boolean {
  for (const mount of mountsOf(policy)) {
    const prefix = mount === '/' ? '/' : `${mount}/`;
    if (path.startsWith(prefix) && isSecretBelowProcfs(path.slice(prefix.length))) return true;
  }
  return false;
}

/**
 * Whether a grant of this call reopens `path`: one at or below a process secret (most specific rule
 * wins, as for a credential — a grant on `/proc` or `/` does not reopen what is inside it).
 */
export function isGrantedProcessSecret(policy: SandboxPolicy, path: string, access: 'read' | 'write'): boolean {
  const grants = policy.grants.filter((grant) => (access === 'read' || grant.access === 'write') && isProcessSecretPath(policy, grant.path));
  return grants.length > 0 && isInsideAnyScopedPath(path, grants);
}

/** Whether a walk of `directory` may meet a process secret (then it checks each entry). */
export function mayHoldProcessSecrets(policy: SandboxPolicy, directory: string): boolean {
  return mountsOf(policy).some((mount) => directory === mount || directory.startsWith(`${mount}/`) || mount.startsWith(directory === '/' ? '/' : `${directory}/`));
}
