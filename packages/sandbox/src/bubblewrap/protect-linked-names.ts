import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import { layoutAllows } from '../policy/layout-allows.js';
import type { ScopedPath } from '../policy/sandbox-layout.js';
import { MountPhase, parentOf } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/** More entries than this in one folder are not re-bound one by one (bwrap's argv must stay small). */
const maximumSealedEntries = 512;

interface LinkedName {
  readonly link: string;
  readonly folder: string;
  readonly hardProtected: boolean;
  /** Its target does not exist: the only fix is removing it (a grant cannot name it either). */
  readonly dangling: boolean;
  /** Why its folder is not sealed instead. */
  readonly folderKind: 'root or git folder' | 'too large to seal';
}

function join(folder: string, name: string): string {
  return folder === '/' ? `/${name}` : `${folder}/${name}`;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * A folder where creating, removing and renaming entries is everyday work, so it must not be
 * sealed: a workspace, extra or temp root (new files at the top of a project), except the home
 * directory, and a git directory (git creates `index.lock` and friends there on every commit).
 */
function mustStayOpen(plan: MountPlan, folder: string): boolean {
  const { sessionRoots = [], homeDirectory } = plan.layout;
  if (sessionRoots.includes(folder) && folder !== homeDirectory) return true;
  return baseName(folder) === '.git' || plan.host.inspect(join(folder, 'HEAD')).kind === 'file';
}

function refusal(names: readonly LinkedName[]): string {
  const lines = names.map(({ link, folder, hardProtected, dangling, folderKind }) => {
    const where =
      folderKind === 'root or git folder'
        ? `in ${folder}, where new files must stay possible`
        : `in ${folder}, which has too many entries to seal (or cannot be listed)`;
    if (dangling) return `- ${link} is a dangling symbolic link at a protected name ${where}; remove it (rm '${link}').`;
    const kind = hardProtected ? 'a protected OpenWork name' : 'a protected name';
    return `- ${link} is a symbolic link at ${kind} ${where}; replace the link with a copy of what it points to (for example: target=$(readlink -f '${link}') && rm '${link}' && cp -a "$target" '${link}').`;
  });
  return [
    'bubblewrap protects what a symbolic link points to, not the link itself, so a command could replace these links; nothing was run. A grant cannot help: it names what a link points to.',
    ...lines,
  ].join('\n');
}

/**
 * Architecture §3.2: a protected name protects the *entry* at that name, whatever it is. A mount
 * cannot: bwrap follows a symbolic link in a mount destination, so the read-only bind lands on the
 * link's target, and the link itself stays an entry of a writable folder that a command may
 * remove and replace (`rm ~/.bashrc && echo … > ~/.bashrc`). So for every protected name that is a
 * link (to a file, a folder, dangling, outside) in a folder the command could change:
 *
 * - the folder is **sealed**: bound read-only, with each of its other entries bound writable again
 *   onto itself. Nothing in it can be created, removed or renamed any more (mount points), its
 *   files and folders stay writable. Used for the home directory and other folders (dotfile
 *   managers link `~/.bashrc`; full-access keeps working).
 * - where sealing would stop everyday work — a workspace, extra or temp root other than home (new
 *   files at the top of a project), a git directory (git's lock files) — the call is **refused**
 *   with `SandboxUnavailableError` naming each link and how to fix it.
 *
 * The rule follows the fence: a link the fence lets a process replace needs neither. A grant on
 * the link's own path names its target (grant paths are canonical), so it leaves the link
 * protected, as the fence does. The target itself is protected by `protectNames` like any
 * protected path.
 */
export function protectLinkedNames(plan: MountPlan): void {
  const { layout } = plan;
  const protectedEntries = [...layout.readOnly, ...layout.unreadable];
  // Where the entries' mounts will land: a folder inside one of them is closed, not changeable.
  // An `exact` entry (a linked `.git`) closes only itself, not what it points to. Needed only
  // when there is a link, which is rare: computed then.
  let closed: ScopedPath[] | undefined;
  const closedRegions = (): ScopedPath[] =>
    (closed ??= protectedEntries.map((entry) => (entry.scope === 'exact' ? entry : { path: plan.stateOf(entry.path).path, scope: entry.scope })));
  const refused: LinkedName[] = [];
  const seen = new Set<string>();
  for (const entry of protectedEntries) {
    // One lstat per entry on the common path: only a link needs the rest.
    if (!plan.host.isSymbolicLink(entry.path)) continue;
    const parent = plan.stateOf(parentOf(entry.path));
    if (parent.kind !== 'directory') continue;
    const link = join(parent.path, baseName(entry.path));
    if (seen.has(link) || !plan.host.isSymbolicLink(link)) continue;
    seen.add(link);
    if (layoutAllows(layout, link, 'write', 'process')) continue;
    if (!plan.isWritable(parent.path) || isInsideAnyScopedPath(parent.path, closedRegions())) continue;
    const named = { link, folder: parent.path, hardProtected: isInsideAnyScopedPath(link, layout.hardProtected), dangling: plan.stateOf(link).kind !== 'directory' && plan.stateOf(link).kind !== 'file' };
    if (mustStayOpen(plan, parent.path)) refused.push({ ...named, folderKind: 'root or git folder' });
    else if (!sealFolder(plan, parent.path)) refused.push({ ...named, folderKind: 'too large to seal' });
  }
  if (refused.length > 0) throw new SandboxUnavailableError(refusal(refused));
}

/** Binds `folder` read-only and each of its files and folders writable again; false if it cannot be listed. */
function sealFolder(plan: MountPlan, folder: string): boolean {
  if (plan.sealedFolders.has(folder)) return true;
  const entries = plan.host.listFolder(folder);
  if (entries === undefined || entries.length > maximumSealedEntries) return false;
  plan.sealedFolders.add(folder);
  plan.mount(folder, MountPhase.SealFolder, ['--ro-bind', folder, folder]);
  plan.pinTargets.push({ path: folder, missingChain: [] });
  for (const entry of entries) {
    // Links, sockets and devices stay as they are: a link cannot be a mount point, and writing
    // to a socket or a FIFO works on a read-only mount anyway.
    if (entry.kind !== 'directory' && entry.kind !== 'file') continue;
    const child = join(folder, entry.name);
    plan.mount(child, MountPhase.SealedEntry, ['--bind', child, child]);
    plan.writableMounts.push({ path: child, scope: entry.kind === 'directory' ? 'subtree' : 'exact' });
  }
  return true;
}
