import type { SandboxCommand } from '../backend/sandbox-backend.js';
import { isInsideAnyScopedPath, isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import { findGrantsWithoutMounts } from './find-grants-without-mounts.js';
import { inspectHostPath } from './host-path-state.js';
import type { HostPathState, InspectHostPath } from './host-path-state.js';

/** The bwrap command line for one call, plus what it will leave on the host. */
export interface BubblewrapRendering {
  /** Arguments after the bwrap program itself, ending with `--` and the command's argv. */
  readonly arguments: readonly string[];
  /**
   * Host paths that did not exist and that bwrap creates as mount points (an empty file or an
   * empty directory); each missing parent comes before its children. `release()` removes them again (peers.md: users found
   * empty `.bashrc`/`.vscode` left behind).
   */
  readonly createdMountPoints: readonly string[];
  /**
   * Missing names (a subset of `createdMountPoints`, after their missing parents there) that must
   * exist as an empty file before bwrap starts: bwrap only creates a directory for `--tmpfs`, and a
   * file mount point only for a bind whose source is a file. `wrap` creates them.
   */
  readonly fileMountPoints: readonly string[];
  /**
   * Missing directories (a subset of `createdMountPoints`, parents first) that must exist before
   * bwrap starts because they are pinned (bound onto themselves) as ancestors of a protected
   * mount. `wrap` creates them.
   */
  readonly directoryMountPoints: readonly string[];
  /**
   * Host destinations of every bind and mask, so that a call keeps the mount points and write-grant
   * placeholders another live call created and this one stands on.
   */
  readonly mountDestinations: readonly string[];
}

/**
 * Process flags (architecture §3.4, peers.md "Processes"): a PID namespace so that the whole tree
 * — `setsid` and double-forked daemons included — dies with the command; `--die-with-parent` so a
 * SIGKILL of bwrap takes the namespace down too; `--new-session` against TIOCSTI. `--cap-drop ALL`:
 * when OpenWork runs as root, bwrap keeps every capability inside the sandbox, and a process with
 * CAP_SYS_ADMIN simply remounts `/` read-write (we proved it); without capabilities the mounts
 * below are binding.
 */
const processFlags = ['--unshare-pid', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'] as const;

/**
 * Network (issue 19, spec §7.9): `allow` shares the host's network, exactly as Seatbelt's default
 * profile does, so both backends behave the same. `none` is a new network namespace with only its
 * own loopback: nothing on the host or beyond is reachable over IP. Unix sockets reachable through
 * the file system (an ssh-agent, docker.sock) still connect — README, known limits.
 */
function networkFlags(network: SandboxLayout['network']): readonly string[] {
  return network === 'none' ? ['--unshare-net'] : [];
}

/**
 * Kernel settings stay read-only. Without capabilities root still owns the files below
 * `/proc/sys` (mode 0644), and bwrap 0.8 run as root does not cover them (its own check asks for
 * write access to the 0555 directory, which fails without CAP_DAC_OVERRIDE, and skips it): a
 * sandboxed `echo '|/x' > /proc/sys/kernel/core_pattern` ran a program as real root outside every
 * namespace (we proved it). The source is the host's `/proc/sys`: the same settings, since only
 * the PID namespace differs. `/proc/sysrq-trigger` likewise, where the kernel has one.
 */
const kernelSettingsMounts = ['--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger'] as const;

function parentOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

function depth(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

/** Parents before children, so a nested mount is never hidden by a later mount of its parent. */
function byDepth(entries: readonly ScopedPath[]): ScopedPath[] {
  return [...entries].sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `.git/config`: git reads it before anything else, so a missing one is protected as an empty file. */
function isReadAsFile(path: string): boolean {
  return path.endsWith('/.git/config');
}

/** A directory mask (`--tmpfs` … `--remount-ro`) and the grant binds that must go inside it. */
interface DirectoryMask {
  readonly path: string;
  readonly inside: string[];
}

/**
 * Render `layout` (architecture §3.4 "bubblewrap") as bwrap arguments. Mount order is what makes
 * the layout's semantics hold, because a later mount covers an earlier one:
 *
 * 1. `/` read-only (`--bind / /` in full-access), fresh `/dev` and `/proc`.
 * 2. Writable roots and ordinary write grants, `--bind`, parents first. `/tmp` as a temp root is
 *    the host's `/tmp` (never a fresh tmpfs), so spill and temp files stay visible outside.
 * 3. Read-only entries (hard-protected, sensitive) inside something writable, `--ro-bind P P`
 *    after every writable bind, so a protected path inside a writable root stays read-only.
 *    A name that does not exist yet becomes an empty read-only directory (`--tmpfs P` +
 *    `--remount-ro P`): it can be created neither as a file nor as a directory, and git ignores
 *    empty directories — a `/dev/null` mask there makes `git add .` fail on a character device.
 * 4. Credential entries: directories `--perms 0000 --tmpfs P` + `--remount-ro P` (a plain tmpfs
 *    accepts writes that silently vanish, peers.md), files `--ro-bind /dev/null P` (binds are
 *    `nodev`), missing names like directories. Mode 0000 makes every access fail with
 *    `Permission denied` — what denial detection (§3.5) recognises — instead of an empty directory's
 *    `No such file or directory`; it binds because capabilities are dropped (root without
 *    CAP_DAC_OVERRIDE obeys modes). With a grant inside, the mode is 0111: the granted path stays
 *    reachable, listing still fails.
 * 5. Grants that reopen part of a masked/read-only entry, after the masks (inside a directory
 *    mask: between `--tmpfs` and `--remount-ro`, while bwrap can still create the mount point).
 * 6. Hard-protected entries inside a reopened grant, read-only again (§3.3: grants never unlock tier 1).
 *
 * Pins (between 2 and 3): a mount protects an inode, not a name. Every directory between a
 * writable mount and a protected mount inside it is bound onto itself, because a mount point
 * cannot be renamed or removed (EBUSY): otherwise `mv .git .git-old && mkdir -p .git/hooks`
 * moved the read-only mounts away with `.git-old` and wrote hooks the fence denies, and in
 * full-access `mv ~ ~.old && mkdir ~` did the same to the shell start-up files and the OpenWork
 * home. Missing ancestors are created by `wrap` first (`directoryMountPoints`). For the same reason
 * a file that makes a protected name unreachable (a worktree's `.git` file) is pinned, so that it
 * cannot be replaced by a directory with hooks.
 *
 * Entries whose mount would change nothing are skipped: a protected path outside everything
 * writable is already read-only, and a missing name there cannot be created.
 *
 * A missing `.git/config` is the one missing name protected as a file (an empty read-only file
 * that `wrap` creates on the host and binds onto itself, listed in `fileMountPoints`): git reads it
 * before it writes anything, and an empty directory there makes every git command stop at
 * "Is a directory" — an empty file reads as an empty configuration. So `git init` in a root
 * without `.git` fails like on macOS, at its first write into the protected `.git/hooks` with
 * "Read-only file system", which denial detection recognises (§3.5). With write grants on
 * `.git/config` and `.git/hooks` it works: a write grant on a missing name that reopens every
 * protected entry around it mounts nothing at all (`findGrantsWithoutMounts`), because a bind
 * there would be a mount point that `git init` cannot rename `config.lock` over (EBUSY).
 */
export function renderBubblewrapArguments(
  layout: SandboxLayout,
  command: SandboxCommand,
  inspect: InspectHostPath = inspectHostPath,
): BubblewrapRendering {
  const states = new Map<string, HostPathState>();
  const stateOf = (path: string): HostPathState => {
    let state = states.get(path);
    if (state === undefined) {
      state = inspect(path);
      states.set(path, state);
    }
    return state;
  };
  const created: string[] = [];
  const destinations: string[] = [];

  const rootWritable = layout.writable.some((entry) => entry.path === '/' && entry.scope === 'subtree');
  const mounts: string[] = [rootWritable ? '--bind' : '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...kernelSettingsMounts];
  /** Host regions mounted read-write, by resolved path. */
  const writableMounts: ScopedPath[] = rootWritable ? [{ path: '/', scope: 'subtree' }] : [];
  /** Host regions where nothing can be created any more (read-only or masked), by resolved path. */
  const sealed: ScopedPath[] = [];

  const fileMountPoints: string[] = [];
  const grantsWithoutMounts = findGrantsWithoutMounts(layout, inspect);

  /** Pinned host paths (bound onto themselves), and the missing directories among them. */
  const pins = new Set<string>();
  const directoryMountPoints: string[] = [];
  /**
   * Pin every directory between the outermost writable mount that holds `target` and `target`
   * itself. Outermost, not nearest: with a workspace inside a temp root, `mv /tmp/x /tmp/y`
   * otherwise carried the workspace mount and its protected mounts away (a directory that only
   * contains a mount point can be renamed). Writable mounts on the way are mount points already.
   */
  const pinAncestors = (target: string, missingChain: readonly string[]): void => {
    const container = writableMounts
      .filter((mount) => mount.scope === 'subtree' && mount.path !== target && isInsideScopedPath(target, mount))
      .sort((a, b) => depth(a.path) - depth(b.path))[0];
    if (container === undefined) return;
    for (let ancestor = parentOf(target); ancestor !== container.path && ancestor !== '/'; ancestor = parentOf(ancestor)) {
      if (writableMounts.some((mount) => mount.path === ancestor)) continue;
      pins.add(ancestor);
      if (missingChain.includes(ancestor)) directoryMountPoints.push(ancestor);
    }
  };
  /** A protected name below a file (`.git/hooks` below a worktree's `.git` file): pin that file. */
  const pinBlockingFile = (entryPath: string): void => {
    for (let prefix = entryPath; prefix !== '/'; prefix = parentOf(prefix)) {
      const state = stateOf(prefix);
      if (state.kind !== 'file') continue;
      if (!isInsideAnyScopedPath(state.path, writableMounts) || isInsideAnyScopedPath(state.path, sealed)) return;
      pins.add(state.path);
      pinAncestors(state.path, []);
      return;
    }
  };

  const protectMissing = (state: HostPathState): void => {
    if (isReadAsFile(state.path)) {
      mounts.push('--ro-bind', state.path, state.path);
      fileMountPoints.push(state.path);
    } else {
      mounts.push('--tmpfs', state.path, '--remount-ro', state.path);
    }
    created.push(...state.missingChain);
    destinations.push(state.path);
    sealed.push({ path: state.path, scope: 'subtree' });
    pinAncestors(state.path, state.missingChain);
  };

  // 2. Writable roots and ordinary write grants.
  for (const entry of byDepth(layout.writable)) {
    if (entry.path === '/') continue;
    // Semantics: inside a read-only or credential entry nothing is writable; step 3/4 would cover it anyway.
    if (isInsideAnyScopedPath(entry.path, layout.readOnly) || isInsideAnyScopedPath(entry.path, layout.unreadable)) continue;
    const state = stateOf(entry.path);
    if (state.kind !== 'directory' && state.kind !== 'file') continue;
    // An exact entry on a directory cannot be a bind (that would open its whole subtree): narrower.
    if (state.kind === 'directory' && entry.scope === 'exact') continue;
    if (isInsideAnyScopedPath(state.path, writableMounts)) continue;
    mounts.push('--bind', state.path, state.path);
    destinations.push(state.path);
    writableMounts.push({ path: state.path, scope: state.kind === 'directory' ? 'subtree' : 'exact' });
  }

  const pinsAt = mounts.length;

  // 3. Read-only entries inside something writable.
  for (const entry of byDepth(layout.readOnly)) {
    if (isInsideAnyScopedPath(entry.path, layout.unreadable)) continue;
    const state = stateOf(entry.path);
    if (state.kind === 'unreachable') {
      pinBlockingFile(entry.path);
      continue;
    }
    if (!isInsideAnyScopedPath(state.path, writableMounts) || isInsideAnyScopedPath(state.path, sealed)) continue;
    if (state.kind === 'missing') {
      // Reopened by a grant that mounts nothing: as writable as the root around it.
      if (!isInsideAnyScopedPath(entry.path, layout.hardProtected) && isInsideAnyScopedPath(entry.path, grantsWithoutMounts)) continue;
      protectMissing(state);
      continue;
    }
    mounts.push('--ro-bind', state.path, state.path);
    destinations.push(state.path);
    sealed.push({ path: state.path, scope: 'subtree' });
    pinAncestors(state.path, []);
  }

  // 4. Credential entries, unless a grant reopens exactly this entry (then step 5 binds it).
  const grants = [
    ...layout.writableGrants.map((entry) => ({ entry, writable: true })),
    ...layout.readableGrants
      .filter((entry) => !layout.writableGrants.some((other) => other.path === entry.path && other.scope === entry.scope))
      .map((entry) => ({ entry, writable: false })),
  ];
  const masks: Array<DirectoryMask | string[]> = [];
  const directoryMasks: DirectoryMask[] = [];
  const masked: ScopedPath[] = [];
  for (const entry of byDepth(layout.unreadable)) {
    const state = stateOf(entry.path);
    if (state.kind === 'unreachable') {
      pinBlockingFile(entry.path);
      continue;
    }
    const reopened = grants.some(
      (grant) => grant.entry.path === entry.path && (grant.entry.scope === 'subtree' || state.kind !== 'directory'),
    );
    if (reopened) continue;
    if (isInsideAnyScopedPath(state.path, masked)) continue;
    if (state.kind === 'directory') {
      const mask: DirectoryMask = { path: state.path, inside: [] };
      masks.push(mask);
      directoryMasks.push(mask);
    } else if (state.kind === 'file') {
      masks.push(['--ro-bind', '/dev/null', state.path]);
    } else {
      if (!isInsideAnyScopedPath(state.path, writableMounts) || isInsideAnyScopedPath(state.path, sealed)) continue;
      const mask: DirectoryMask = { path: state.path, inside: [] };
      masks.push(mask);
      directoryMasks.push(mask);
      created.push(...state.missingChain);
    }
    destinations.push(state.path);
    masked.push({ path: state.path, scope: 'subtree' });
    sealed.push({ path: state.path, scope: 'subtree' });
    pinAncestors(state.path, state.missingChain);
  }

  // 5. Grants that reopen what steps 3–4 closed.
  const afterMasks: string[] = [];
  const grantMounts: ScopedPath[] = [];
  for (const grant of [...grants].sort((a, b) => depth(a.entry.path) - depth(b.entry.path))) {
    const state = stateOf(grant.entry.path);
    if (state.kind !== 'directory' && state.kind !== 'file') continue;
    if (state.kind === 'directory' && grant.entry.scope === 'exact') continue;
    const bind = [grant.writable ? '--bind' : '--ro-bind', state.path, state.path];
    const container = directoryMasks
      .filter((mask) => isInsideScopedPath(state.path, { path: mask.path, scope: 'subtree' }) && mask.path !== state.path)
      .sort((a, b) => depth(b.path) - depth(a.path))[0];
    if (container !== undefined) container.inside.push(...bind);
    else afterMasks.push(...bind);
    destinations.push(state.path);
    if (grant.writable) grantMounts.push({ path: state.path, scope: state.kind === 'directory' ? 'subtree' : 'exact' });
  }
  for (const mask of masks) {
    if (Array.isArray(mask)) mounts.push(...mask);
    else mounts.push('--perms', mask.inside.length === 0 ? '0000' : '0111', '--tmpfs', mask.path, ...mask.inside, '--remount-ro', mask.path);
  }
  mounts.push(...afterMasks);

  // 6. Tier 1 inside a reopened grant is read-only again.
  for (const entry of byDepth(layout.hardProtected)) {
    const state = stateOf(entry.path);
    if (state.kind === 'unreachable' || !isInsideAnyScopedPath(state.path, grantMounts)) continue;
    if (state.kind === 'missing') {
      mounts.push('--tmpfs', state.path, '--remount-ro', state.path);
      created.push(...state.missingChain);
    } else {
      mounts.push('--ro-bind', state.path, state.path);
    }
    destinations.push(state.path);
  }

  // The pins go before every protected mount (they are recursive binds of plain directories).
  const pinned = [...pins].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  mounts.splice(pinsAt, 0, ...pinned.flatMap((pin) => ['--bind', pin, pin]));
  destinations.push(...pinned);

  return {
    arguments: [...processFlags, ...networkFlags(layout.network), ...mounts, '--chdir', command.cwd, '--', ...command.argv],
    createdMountPoints: [...new Set(created)],
    fileMountPoints,
    directoryMountPoints: [...new Set(directoryMountPoints)].sort((a, b) => depth(a) - depth(b)),
    mountDestinations: [...new Set(destinations)],
  };
}
