import type { SandboxCommand } from '../backend/sandbox-backend.js';
import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import type { BubblewrapHost } from './bubblewrap-host.js';
import { findGrantsWithoutMounts } from './find-grants-without-mounts.js';
import type { HostPathState } from './host-path-state.js';

/**
 * What each mount is for. Among mounts at the same depth they are applied in this order; a mount
 * of a shallower path always goes first, because bwrap binds from the host's tree: a later bind of
 * a parent would cover every mount below it.
 */
export const MountPhase = {
  Writable: 0,
  SealFolder: 1,
  SealedEntry: 2,
  Pin: 3,
  Protect: 4,
  Mask: 5,
  Grant: 6,
  TierOne: 7,
} as const;
export type MountPhase = (typeof MountPhase)[keyof typeof MountPhase];

/** A file `wrap` creates on the host before bwrap binds it read-only onto itself. */
export interface FileMountPoint {
  readonly path: string;
  /** What the file holds (`.\n` for a missing `commondir`, else empty). */
  readonly content: string;
}

/** A missing write target `wrap` creates before bwrap binds it: `chain` as folders, `file` as an empty file. */
export interface WritablePlaceholder {
  readonly chain: readonly string[];
  readonly file: string | undefined;
}

/** The bwrap command line for one call, plus what it will leave on the host. */
export interface BubblewrapRendering {
  /** Arguments after the bwrap program itself, ending with `--` and the command's argv. */
  readonly arguments: readonly string[];
  /**
   * Host paths that did not exist and that become mount points (an empty file or an empty
   * directory); each missing parent comes before its children. `release()` removes them again
   * (peers.md: users found empty `.bashrc`/`.vscode` left behind).
   */
  readonly createdMountPoints: readonly string[];
  /** Missing names (in `createdMountPoints`) that `wrap` creates as files, with their content. */
  readonly fileMountPoints: readonly FileMountPoint[];
  /** Missing folders (in `createdMountPoints`, parents first) that are pinned, so `wrap` creates them. */
  readonly directoryMountPoints: readonly string[];
  /** Missing write targets (exact grants as files, the rest as folders) that `wrap` creates first. */
  readonly writablePlaceholders: readonly WritablePlaceholder[];
  /**
   * Host destinations of every bind and mask, so that a call keeps the mount points and write-grant
   * placeholders another live call created and this one stands on.
   */
  readonly mountDestinations: readonly string[];
}

interface MountAction {
  readonly destination: string;
  readonly phase: MountPhase;
  readonly arguments: () => readonly string[];
}

/** A mount whose parents must be pinned, and the missing nodes bwrap creates for it. */
export interface PinTarget {
  readonly path: string;
  readonly missingChain: readonly string[];
}

/**
 * Process flags (architecture §3.4, peers.md "Processes"): a PID namespace so that the whole tree
 * — `setsid` and double-forked daemons included — dies with the command; `--die-with-parent` so a
 * SIGKILL of bwrap takes the namespace down too; `--new-session` against TIOCSTI. `--cap-drop ALL`:
 * when OpenWork runs as root, bwrap keeps every capability inside the sandbox, and a process with
 * CAP_SYS_ADMIN simply remounts `/` read-write (we proved it); without capabilities the mounts
 * are binding.
 */
const processFlags = ['--unshare-pid', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'] as const;

/**
 * Network (issue 19, spec §7.9): `allow` shares the host's network, exactly as Seatbelt's default
 * profile does, so both backends behave the same. `none` is a new network namespace with only its
 * own loopback: nothing on the host or beyond is reachable over IP, and no abstract UNIX socket of
 * the host. Sockets in the file system are `maskHostSockets`' part (architecture §3.7).
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

export function parentOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

export function depthOf(path: string): number {
  if (path === '/') return 0;
  let depth = 0;
  for (let index = path.indexOf('/'); index >= 0; index = path.indexOf('/', index + 1)) depth += 1;
  return depth;
}

function comparePaths(a: string, b: string): number {
  return depthOf(a) - depthOf(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Parents before children, so a nested mount is never hidden by a later mount of its parent. */
export function byDepth(entries: readonly ScopedPath[]): ScopedPath[] {
  // Depths computed once, not per comparison (the sort's splits were 5 % of a bash call, issue 25).
  const keyed = entries.map((entry) => ({ entry, depth: depthOf(entry.path) }));
  keyed.sort((a, b) => a.depth - b.depth || (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0));
  return keyed.map(({ entry }) => entry);
}

/**
 * The mounts of one call, built up by the named steps of `renderBubblewrapArguments` (one per rule
 * of architecture §3), and what they need on the host. The steps share what the kernel will see:
 * which host regions are writable, which are closed, which folders are sealed.
 */
export class MountPlan {
  readonly layout: SandboxLayout;
  readonly host: BubblewrapHost;
  /** Write grants rendered by mounting nothing (see `findGrantsWithoutMounts`), computed once. */
  readonly grantsWithoutMounts: readonly ScopedPath[];
  /** Host regions mounted read-write, by resolved path. */
  readonly writableMounts: ScopedPath[] = [];
  /** Host regions where nothing can be created any more (read-only or masked), by resolved path. */
  readonly closedRegions: ScopedPath[] = [];
  /** Folders bound read-only with their entries re-bound: no entry of theirs can be created, removed or renamed. */
  readonly sealedFolders = new Set<string>();
  /** Mounts whose parent folders must be pinned, and files that hide a protected name. */
  readonly pinTargets: PinTarget[] = [];
  readonly blockingFiles: string[] = [];
  readonly createdMountPoints: string[] = [];
  readonly fileMountPoints: FileMountPoint[] = [];
  readonly directoryMountPoints: string[] = [];
  readonly writablePlaceholders: WritablePlaceholder[] = [];
  readonly destinations: string[] = [];
  /** Credential folders masked by a tmpfs; grants inside go between `--tmpfs` and `--remount-ro`. */
  readonly directoryMasks: Array<{ readonly path: string; readonly inside: string[] }> = [];
  /** Write grants bound writable (tier 1 inside them is closed again). */
  readonly grantMounts: ScopedPath[] = [];
  readonly #placeholders = new Set<string>();
  readonly #actions: MountAction[] = [];
  readonly #states = new Map<string, HostPathState>();

  constructor(layout: SandboxLayout, host: BubblewrapHost) {
    this.layout = layout;
    this.host = host;
    this.grantsWithoutMounts = findGrantsWithoutMounts(layout, (path) => this.stateOf(path));
  }

  /** The host state of `path`, read once per rendering. */
  stateOf(path: string): HostPathState {
    let state = this.#states.get(path);
    if (state === undefined) {
      state = this.host.inspect(path);
      this.#states.set(path, state);
    }
    return state;
  }

  /** Adds a mount at `destination`; `args` may be computed at the end (a mask gathers grants first). */
  mount(destination: string, phase: MountPhase, args: readonly string[] | (() => readonly string[])): void {
    this.#actions.push({ destination, phase, arguments: typeof args === 'function' ? args : () => args });
    this.destinations.push(destination);
  }

  /**
   * The host node to bind for a write target (a writable root or a write grant). A missing one
   * becomes a placeholder that `wrap` creates before bwrap starts (a bind needs a source): an
   * `exact` target as an empty file ("create /opt/tool/config.toml"), a `subtree` one as a folder;
   * `release()` removes it again if the command left it empty.
   */
  writableNode(entry: ScopedPath): { readonly path: string; readonly kind: 'directory' | 'file' } | undefined {
    const state = this.stateOf(entry.path);
    if (state.kind === 'directory' || state.kind === 'file') return { path: state.path, kind: state.kind };
    if (state.kind !== 'missing') return undefined;
    const file = entry.scope === 'exact' ? state.path : undefined;
    if (!this.#placeholders.has(state.path)) {
      this.#placeholders.add(state.path);
      this.writablePlaceholders.push({ chain: state.missingChain, file });
    }
    return { path: state.path, kind: file === undefined ? 'directory' : 'file' };
  }

  /** Writable inside the sandbox as planned so far: in a writable mount and in no closed region. */
  isWritable(path: string): boolean {
    return isInsideAnyScopedPath(path, this.writableMounts) && !isInsideAnyScopedPath(path, this.closedRegions);
  }

  /**
   * Whether a command could create this missing name: its first missing component lies in a
   * writable region and not directly in a sealed folder. If not, protecting it needs no mount.
   */
  couldBeCreated(state: HostPathState): boolean {
    const first = state.missingChain[0] ?? state.path;
    return this.isWritable(state.path) && !this.sealedFolders.has(parentOf(first));
  }

  render(command: SandboxCommand): BubblewrapRendering {
    const rootWritable = this.layout.writable.some((entry) => entry.path === '/' && entry.scope === 'subtree');
    const ordered = this.#actions
      .map((action, index) => ({ action, index }))
      .sort(
        (a, b) =>
          depthOf(a.action.destination) - depthOf(b.action.destination) ||
          a.action.phase - b.action.phase ||
          (a.action.destination < b.action.destination ? -1 : a.action.destination > b.action.destination ? 1 : 0) ||
          a.index - b.index,
      );
    const mounts: string[] = [];
    const lastAt = new Map<string, string>();
    for (const { action } of ordered) {
      const args = action.arguments();
      const key = args.join('\0');
      // The same mount again at the same place (a pin that is also a sealed folder's entry) changes
      // nothing; after another mount there (a grant over a read-only bind) it does.
      if (lastAt.get(action.destination) === key) continue;
      lastAt.set(action.destination, key);
      mounts.push(...args);
    }
    return {
      arguments: [
        ...processFlags,
        ...networkFlags(this.layout.network),
        rootWritable ? '--bind' : '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...kernelSettingsMounts,
        ...mounts,
        '--chdir', command.cwd, '--', ...command.argv,
      ],
      createdMountPoints: [...new Set(this.createdMountPoints)],
      fileMountPoints: this.fileMountPoints,
      directoryMountPoints: [...new Set(this.directoryMountPoints)].sort(comparePaths),
      writablePlaceholders: this.writablePlaceholders,
      mountDestinations: [...new Set(this.destinations)],
    };
  }
}
