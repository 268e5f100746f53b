import * as fs from 'node:fs';
import type { SandboxCommand } from '../backend/sandbox-backend.js';
import { isInsideAnyScopedPath, isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import { isInsideAnyProtectedEntry } from '../policy/letter-case.js';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';
import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import { hostMounts, type HostMount } from './host-mounts.js';
import type { StageMount } from './staged-command.js';
import { visibleStagingFolders } from './staging-area.js';
import type { StagingArea } from './staging-area.js';

/** Where masks that must sit on top of an overlay are prepared before the helper moves them there. */
const SIDE_MOUNTS = '/dev/.openwork-side';

/** What a staged call runs: bwrap's arguments up to its command, the helper's mounts, the command. */
export interface StagedRendering {
  readonly bubblewrapArguments: readonly string[];
  readonly mounts: readonly StageMount[];
  /** The working directory, entered again by the helper once the overlays are in place. */
  readonly cwd: string;
  readonly command: readonly string[];
}

/** What the renderer reads from the host. */
export interface StagedHost {
  lstat(path: string): fs.Stats | undefined;
  /** UNIX sockets host processes listen on (§3.7). */
  listeningSockets(): readonly string[];
  /** The host's mounts of real file systems (`hostMounts`). */
  mounts(): readonly HostMount[];
  /** `path` with every symbolic link followed, or undefined when it is not there. */
  resolve(path: string): string | undefined;
  /** This user's staging folders a read-only `/` would show (`visibleStagingFolders`). */
  stagingFolders?(): readonly string[];
}

export const realStagedHost = (listeningSockets: () => readonly string[]): StagedHost => ({
  mounts: () => hostMounts(),
  stagingFolders: () => visibleStagingFolders(),
  resolve(path) {
    try {
      return fs.realpathSync.native(path);
    } catch {
      return undefined;
    }
  },
  lstat(path) {
    try {
      // Most names asked about (credentials) are missing: no exception for those.
      return fs.statSync(path, { throwIfNoEntry: false });
    } catch {
      return undefined; // ENOTDIR, EACCES, ELOOP: nothing there to mask
    }
  },
  listeningSockets,
});

/**
 * Process flags: a PID namespace so that the whole tree dies with the command; `--die-with-parent`;
 * `--new-session` against TIOCSTI. Capabilities: bwrap keeps only the four the stage helper uses —
 * CAP_SYS_ADMIN (its mount namespace and mounts), CAP_DAC_OVERRIDE (overlayfs makes its `work/work`
 * folder with mode 0 and works in it with its mounter's credentials: without it the mount fails
 * with EACCES), CAP_DAC_READ_SEARCH (overlayfs decodes the file handle of a copied-up file's origin
 * with its mounter's credentials, so a file keeps its inode number when it is copied up: without it
 * `git clone` of a local repository fails git's check that its hard link is the source) and
 * CAP_SETPCAP (dropping the bounding set) — and the helper drops them, bounding set included,
 * before it runs the command. Every other one (CAP_CHOWN, CAP_FOWNER, CAP_MKNOD,
 * CAP_SETUID, CAP_NET_ADMIN, CAP_SYS_PTRACE …) is gone before the helper starts, and the overlays,
 * which keep their mounter's credentials, act with no more than these.
 */
export const STAGE_HELPER_CAPABILITIES = ['CAP_SYS_ADMIN', 'CAP_DAC_OVERRIDE', 'CAP_DAC_READ_SEARCH', 'CAP_SETPCAP'] as const;
const processFlags = ['--unshare-pid', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', ...STAGE_HELPER_CAPABILITIES.flatMap((capability) => ['--cap-add', capability])] as const;
const kernelSettingsMounts = ['--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger'] as const;

function depthOf(path: string): number {
  if (path === '/') return 0;
  let depth = 0;
  for (let index = path.indexOf('/'); index !== -1; index = path.indexOf('/', index + 1)) depth += 1;
  return depth;
}

function parentOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

/** One folder to overlay; `mounted`: a mount of its own, whose lower layer is bound aside first. */
export interface OverlayTarget {
  readonly target: string;
  readonly mounted: boolean;
}

function isBelow(path: string, folder: string): boolean {
  return isInsideScopedPath(path, { path: folder, scope: 'subtree' });
}

/**
 * The host folders to overlay: every writable entry of the layout (writable roots and write
 * grants), each as its nearest existing folder (a grant of one file stages its folder: the
 * judgment keeps every other entry there as it was), without folders inside another one — but with
 * every writable mount of the host inside one (an overlay shows its lower layer without the mounts
 * below it). In full-access (`/` writable) `/` itself cannot be one overlay: its folders are, and
 * every mount. Read-only mounts are left as they are (a write there fails as on the host).
 */
export function overlayTargets(layout: SandboxLayout, host: Pick<StagedHost, 'lstat'>, mounts: readonly HostMount[]): OverlayTarget[] {
  const folders = new Set<string>();
  for (const entry of [...layout.writable, ...layout.writableGrants]) {
    let folder = entry.path;
    while (folder !== '/' && host.lstat(folder)?.isDirectory() !== true) folder = parentOf(folder);
    folders.add(folder);
  }
  if (folders.has('/')) {
    folders.delete('/');
    let names: string[] = [];
    try {
      names = fs.readdirSync('/');
    } catch {
      // nothing to list: the mounts below still count
    }
    for (const name of names) {
      const folder = `/${name}`;
      if (['proc', 'sys', 'dev'].includes(name)) continue;
      const stats = fs.lstatSync(folder, { throwIfNoEntry: false });
      if (stats?.isDirectory() === true) folders.add(folder);
    }
    folders.add('/'); // marks "every mount below /"
  }
  const writableMounts = mounts.filter((mount) => !mount.readOnly && mount.mountPoint !== '/');
  const ordered = [...folders].filter((folder) => folder !== '/' && !/^\/(dev|proc|sys)(\/|$)/.test(folder)).sort((a, b) => depthOf(a) - depthOf(b) || (a < b ? -1 : 1));
  const kept: OverlayTarget[] = [];
  const mountedAt = new Set(writableMounts.map((mount) => mount.mountPoint));
  for (const folder of ordered) {
    if (kept.some((outer) => isBelow(folder, outer.target))) continue;
    kept.push({ target: folder, mounted: mountedAt.has(folder) });
  }
  // Mounts below an overlaid folder (or anywhere, in full-access), parents first.
  const everywhere = folders.has('/');
  const nested = writableMounts
    .filter((mount) => (everywhere || kept.some((outer) => isBelow(mount.mountPoint, outer.target))) && !kept.some((outer) => outer.target === mount.mountPoint))
    .sort((a, b) => depthOf(a.mountPoint) - depthOf(b.mountPoint));
  for (const mount of nested) kept.push({ target: mount.mountPoint, mounted: true });
  return kept.sort((a, b) => depthOf(a.target) - depthOf(b.target) || (a.target < b.target ? -1 : 1));
}

/** overlayfs splits its options at `,` and lower layers at `:`; `\` escapes. Such a path cannot be staged. */
function checkOptionPath(path: string): void {
  if (/[,:\\\0\n]/.test(path)) {
    throw new SandboxConfigurationError(
      `the writable root ${JSON.stringify(path)} contains a character (, : \\ or a newline) that overlayfs cannot take in a mount option; move or rename the folder to run commands in it`,
    );
  }
}

/**
 * Renders a staged call (architecture §3.10): `/` read-only; every writable folder an overlay whose
 * upper layer is this call's staging folder, so nothing a command writes reaches the host before
 * the rules judged it; credential paths and host sockets masked (by bwrap outside the overlays, by
 * the helper on top of them, since an overlay shows its lower layer without the mounts below it).
 * No mount point and no file is ever created on the host.
 */
export function renderStagedBubblewrap(layout: SandboxLayout, command: SandboxCommand, area: StagingArea, host: StagedHost, mounted: ReadonlySet<string> = new Set()): StagedRendering {
  const plan = new StagedPlan(area);
  plan.args.push(...processFlags, ...(layout.network === 'none' ? ['--unshare-net'] : []), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...kernelSettingsMounts);
  const placeholders = maskMissingCredentials(plan, layout, area, host); // tier 2 for credentials created later
  overlayRoots(plan, area, new Set([...mounted, ...placeholders.insideMasked])); // tier 4: every writable folder staged
  maskCredentials(plan, layout, host); // tier 2: unreadable and unwritable, grants reopening parts
  maskHostSockets(plan, layout, host); // §3.7: host daemons behind UNIX sockets unreachable
  // Other calls' staging folders on a disk the read-only `/` shows (never the command's to read).
  for (const folder of host.stagingFolders?.() ?? []) {
    if (plan.insideOverlay(folder)) plan.mounts.push({ kind: 'readonly-empty', target: folder });
    else plan.args.push('--perms', '0000', '--tmpfs', folder, '--remount-ro', folder);
  }
  plan.args.push('--bind', area.folder, area.mountPoint);
  // The staging folder is the helper's business only: hidden before the command runs.
  plan.mounts.push({ kind: 'readonly-empty', target: area.mountPoint });
  if (plan.sides > 0) plan.mounts.push({ kind: 'readonly-empty', target: SIDE_MOUNTS });
  plan.args.push('--chdir', command.cwd);
  return { bubblewrapArguments: plan.args, mounts: plan.mounts, cwd: command.cwd, command: command.argv };
}

/** What the steps of one rendering build up: bwrap's arguments and the helper's mounts. */
class StagedPlan {
  readonly args: string[] = [];
  readonly mounts: StageMount[] = [];
  sides = 0;
  readonly #targets: readonly string[];
  #readOnlyNull: string | undefined;

  constructor(area: StagingArea) {
    this.#targets = area.roots.map((root) => root.target);
  }

  /** A fresh place in bwrap's own `/dev` where a mount is prepared before the helper moves it. */
  side(): string {
    this.sides += 1;
    return `${SIDE_MOUNTS}/${this.sides}`;
  }

  /** Below an overlay: bwrap's mounts there are hidden by it, so the helper makes them again on top. */
  insideOverlay(path: string): boolean {
    return [...this.#targets, ...this.#masked].some((target) => isInsideScopedPath(path, { path: target, scope: 'subtree' }));
  }

  /** A folder the helper shows through a read-only overlay (`maskMissingCredentials`): masks below it are the helper's too. */
  masked(folder: string): void {
    this.#masked.push(folder);
  }

  readonly #masked: string[] = [];

  /**
   * A read-only /dev/null, bound aside once: a bind of it (the helper's masks on top of an overlay)
   * is read-only too, so a masked file reads empty and refuses writes (EROFS), as bwrap's own
   * `--ro-bind /dev/null` masks do.
   */
  nullMask(target: string): StageMount {
    if (this.#readOnlyNull === undefined) {
      this.#readOnlyNull = this.side();
      this.args.push('--ro-bind', '/dev/null', this.#readOnlyNull);
    }
    return { kind: 'bind', source: this.#readOnlyNull, target };
  }
}

/** Every writable folder an overlay on the call's staging folder; a mount of its own has its lower layer bound aside first. */
function overlayRoots(plan: StagedPlan, area: StagingArea, mounted: ReadonlySet<string>): void {
  for (const root of area.roots) {
    checkOptionPath(root.target);
    let lower = root.target;
    if (mounted.has(root.target)) {
      lower = plan.side();
      plan.args.push('--ro-bind', root.target, lower);
    }
    plan.mounts.push({ kind: 'overlay', target: root.target, lower, upper: `${area.mountPoint}/${root.name}/upper`, work: `${area.mountPoint}/${root.name}/work` });
  }
}

/**
 * Tier 2 for credentials that do not exist yet (architecture §3.2: masked even while missing — a
 * file the user creates while a task runs, `~/.aws/credentials`, an SSH key, must not appear to
 * it). A missing name cannot be a mount point, and a bind per entry of the folder that would hold
 * it costs about 2.5 ms each (HOME with 150 entries: +0.9 s a call, measured). So the topmost such
 * folder (HOME, usually) is shown through a read-only overlay whose top layer, a tmpfs of bwrap's
 * own, holds a whiteout (made by the stage helper) at each missing name (`.aws`, `.config/gh`,
 * `.netrc` …): the name stays absent whatever the lower layer gets there later, and listings
 * are the host's, while every other entry stays live. One overlay a call. The host's mounts inside that folder (an overlay shows its lower
 * layer without them) are bound aside and put back on top; writable roots inside it take their
 * lower layer from aside; masks inside it are made by the helper after it. Folders inside a
 * writable root (whose overlay shows the host live) are not covered: see the README.
 */
function maskMissingCredentials(plan: StagedPlan, layout: SandboxLayout, area: StagingArea, host: StagedHost): { readonly insideMasked: readonly string[] } {
  const grants: ScopedPath[] = [...layout.readableGrants, ...layout.writableGrants];
  const writableTargets = area.roots.map((root) => root.target);
  const missing: string[] = [];
  for (const entry of layout.unreadable) {
    if (host.lstat(entry.path) !== undefined) continue;
    if (grants.some((grant) => isInsideScopedPath(entry.path, grant) || isInsideScopedPath(grant.path, { path: entry.path, scope: 'subtree' }))) continue;
    let folder = parentOf(entry.path);
    let name = entry.path;
    while (folder !== '/' && host.lstat(folder) === undefined) {
      name = folder;
      folder = parentOf(folder);
    }
    if (folder === '/' || host.lstat(folder)?.isDirectory() !== true || plan.insideOverlay(folder)) continue;
    if (layout.unreadable.some((other) => isInsideScopedPath(folder, other) && host.lstat(other.path) !== undefined)) continue; // masked whole anyway
    if (writableTargets.some((target) => isInsideScopedPath(target, { path: name, scope: 'subtree' }))) continue;
    missing.push(name);
  }
  // The topmost folders that hold a placeholder: one overlay each.
  const roots: string[] = [];
  for (const name of [...new Set(missing)].sort((a, b) => depthOf(a) - depthOf(b))) {
    const holder = parentOf(name);
    if (roots.some((root) => isInsideScopedPath(holder, { path: root, scope: 'subtree' }))) continue;
    if (/[,:\\=\0\n]/.test(holder)) continue; // overlayfs could not take it in its options
    roots.push(holder);
  }
  const insideMasked: string[] = [];
  for (const root of roots) {
    // The top layer: a tmpfs of bwrap's own (nothing on the host; never inside `root`, which
    // overlayfs would refuse as overlapping), with a link at each missing name.
    const layer = plan.side();
    // Its folders take the modes of the folders they merge with (a merged folder shows the top one's).
    const modeOf = (folder: string): string => ((host.lstat(folder)?.mode ?? 0o755) & 0o7777).toString(8).padStart(4, '0');
    plan.args.push('--perms', modeOf(root), '--tmpfs', layer);
    const made = new Set<string>();
    for (const name of [...new Set(missing)].filter((candidate) => isInsideScopedPath(candidate, { path: root, scope: 'subtree' })).sort()) {
      const relative = name.slice(root === '/' ? 0 : root.length);
      const chain: string[] = [];
      for (let folder = parentOf(relative); folder !== '/' && !made.has(folder); folder = parentOf(folder)) chain.unshift(folder);
      for (const folder of chain) {
        made.add(folder);
        plan.args.push('--perms', modeOf(`${root}${folder}`), '--dir', `${layer}${folder}`);
      }
      plan.mounts.push({ kind: 'whiteout', target: `${layer}${relative}` });
    }
    plan.mounts.push({ kind: 'overlay-readonly', target: root, lowers: [layer, root] });
    plan.masked(root);
    // The host's mounts inside it, as they were: bound aside, then put back on top of the overlay.
    const kept: string[] = [];
    for (const mount of host.mounts().filter((candidate) => candidate.mountPoint !== root && isInsideScopedPath(candidate.mountPoint, { path: root, scope: 'subtree' })).sort((a, b) => depthOf(a.mountPoint) - depthOf(b.mountPoint))) {
      if (kept.some((outer) => isInsideScopedPath(mount.mountPoint, { path: outer, scope: 'subtree' }))) continue;
      if (writableTargets.includes(mount.mountPoint)) continue; // its overlay takes its lower layer from aside
      kept.push(mount.mountPoint);
      const side = plan.side();
      plan.args.push('--ro-bind', mount.mountPoint, side);
      plan.mounts.push({ kind: 'bind', source: side, target: mount.mountPoint });
    }
    insideMasked.push(...writableTargets.filter((target) => isInsideScopedPath(target, { path: root, scope: 'subtree' })));
  }
  return { insideMasked };
}

/** Tier 2 (architecture §3.2): credential paths neither readable nor writable; grants reopen parts. */
function maskCredentials(plan: StagedPlan, layout: SandboxLayout, host: StagedHost): void {
  const grants: ScopedPath[] = [...layout.readableGrants, ...layout.writableGrants];
  const masked: ScopedPath[] = [];
  for (const entry of [...layout.unreadable].sort((a, b) => depthOf(a.path) - depthOf(b.path))) {
    if (isInsideAnyScopedPath(entry.path, masked)) continue;
    const stats = host.lstat(entry.path);
    if (stats === undefined) continue; // missing: creating it is a staged write the rules refuse
    if (grants.some((grant) => grant.path === entry.path && (grant.scope === 'subtree' || !stats.isDirectory()))) continue;
    masked.push({ path: entry.path, scope: 'subtree' });
    const inside = plan.insideOverlay(entry.path);
    if (!stats.isDirectory()) {
      if (inside) plan.mounts.push(plan.nullMask(entry.path));
      else plan.args.push('--ro-bind', '/dev/null', entry.path);
      continue;
    }
    const reopened = grants.filter((grant) => grant.path !== entry.path && isInsideScopedPath(grant.path, { path: entry.path, scope: 'subtree' }) && host.lstat(grant.path) !== undefined);
    if (reopened.length === 0) {
      if (inside) plan.mounts.push({ kind: 'readonly-empty', target: entry.path });
      else plan.args.push('--perms', '0000', '--tmpfs', entry.path, '--remount-ro', entry.path);
      continue;
    }
    // A folder mask with granted paths reachable inside it (mode 0111: reachable, not listable).
    const place = inside ? plan.side() : entry.path;
    plan.args.push('--perms', '0111', '--tmpfs', place);
    for (const grant of reopened) {
      const writable = layout.writableGrants.some((other) => other.path === grant.path);
      plan.args.push(writable && !plan.insideOverlay(grant.path) ? '--bind' : '--ro-bind', grant.path, `${place}${grant.path.slice(entry.path.length)}`);
    }
    plan.args.push('--remount-ro', place);
    if (place !== entry.path) plan.mounts.push({ kind: 'bind', source: place, target: entry.path });
  }
}

/** §3.7: host daemons behind UNIX sockets are unreachable, allowed sockets reachable. */
function maskHostSockets(plan: StagedPlan, layout: SandboxLayout, host: StagedHost): void {
  const allowed = (layout.allowedSockets ?? []).map((path) => ({ path, scope: 'exact' as const }));
  const seen = new Set<string>();
  for (const listed of host.listeningSockets()) {
    // bwrap mounts on the path with every link followed (a daemon that bound `/var/run/x.sock`
    // listens at `/run/x.sock`), and may not make a mount point through a link.
    const socket = host.resolve(listed);
    if (socket === undefined || seen.has(socket) || /^\/(dev|proc)\//.test(socket)) continue;
    seen.add(socket);
    if (isInsideAnyProtectedEntry(socket, layout.unreadable, layout.letterCase)) continue;
    if (host.lstat(socket)?.isSocket() !== true) continue;
    const isAllowed = isInsideAnyScopedPath(socket, allowed);
    if (plan.insideOverlay(socket)) {
      if (isAllowed) {
        const place = plan.side();
        plan.args.push('--bind', socket, place);
        plan.mounts.push({ kind: 'bind', source: place, target: socket });
      } else {
        plan.mounts.push(plan.nullMask(socket));
      }
    } else if (!isAllowed) {
      plan.args.push('--ro-bind', '/dev/null', socket);
    }
  }
}
