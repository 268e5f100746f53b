import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AccessDecision } from '../policy/access-decision.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { HostDirectory } from './host-directory.js';
import { judgeStagedWrite } from './judge-staged-write.js';
import { withRepositoryScan } from '../policy/sensitive-kinds.js';
import type { StagedApplyReport, StagedChange, StagedEntryType, StagedRefusal, StagedRoot, StagedSkip } from './staged-writes.js';

/** Judges one host path a staged change would write (create, replace, remove). */
export type StagedWriteJudge = (path: string, operation: StagedRefusal['operation'], staged: string | undefined, type: StagedEntryType | undefined) => AccessDecision;

export interface ApplyStagedWritesOptions {
  /**
   * Which of these upper-layer folders are opaque (the command removed the folder and made it
   * anew, so nothing of the host's folder shows through): their host entries that the upper layer
   * lacks are deleted. Asked once per root with every folder of its upper layer. Default: none
   * (see `readOverlayOpaque`).
   */
  readonly opaqueFolders?: (upperFolders: readonly string[]) => ReadonlySet<string>;
  /** Changes listed with their details (the rest are counted): default 1,000. */
  readonly maxRecordedChanges?: number;
  /** Files up to this size have their bytes recorded (before and after) for undo: default 1 MiB. */
  readonly maxRecordedFileBytes?: number;
  /**
   * `move` (the command has ended): files leave the upper layer by rename where they can. `copy`
   * (the command still runs, its overlay mounted): files are copied and the upper layer is never
   * changed — what the command sees stays what it wrote.
   */
  readonly mode?: 'move' | 'copy';
  /**
   * Upper-layer entries already judged by an earlier pass over the same layer (`copy` passes of a
   * running command), by path, with what they were then: an entry unchanged since is skipped.
   * Filled by this pass.
   */
  readonly judged?: Map<string, string>;
  /** The judge; default `judgeStagedWrite` (`checkAccess(policy, path, 'write', 'process')` and what only the final state tells). */
  readonly judge?: StagedWriteJudge;
}

const MIB = 1024 * 1024;

/** Permission bits the host gets: no set-user-ID or set-group-ID bit from a sandboxed command. */
function hostMode(mode: number): number {
  return mode & 0o1777;
}

function typeOf(stats: fs.Stats): StagedEntryType | undefined {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  return undefined;
}

function isWhiteout(stats: fs.Stats): boolean {
  return stats.isCharacterDevice() && stats.rdev === 0;
}

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = fs.constants;

function sameBytes(a: string, b: string, size: number): boolean {
  if (size === 0) return true;
  const chunk = Math.min(size, MIB);
  const left = Buffer.allocUnsafe(chunk);
  const right = Buffer.allocUnsafe(chunk);
  const fa = fs.openSync(a, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const fb = fs.openSync(b, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      for (let offset = 0; offset < size; offset += chunk) {
        const length = Math.min(chunk, size - offset);
        if (fs.readSync(fa, left, 0, length, offset) !== length || fs.readSync(fb, right, 0, length, offset) !== length) return false;
        if (!left.subarray(0, length).equals(right.subarray(0, length))) return false;
      }
      return true;
    } finally {
      fs.closeSync(fb);
    }
  } finally {
    fs.closeSync(fa);
  }
}

/**
 * Copies the regular file at `source` to `target` (created, never replaced) without following a
 * link at `source`: what is copied is the file that was opened, even if a running command swaps
 * the name for a link to a host file meanwhile. Read until the end it has now (not `copyFileSync`,
 * whose loop waits forever for bytes a file truncated meanwhile no longer has). Throws when it is
 * no regular file (any more).
 */
function copyRegularFile(source: string, target: string): void {
  const input = fs.openSync(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    if (!fs.fstatSync(input).isFile()) throw Object.assign(new Error('it is no longer a regular file'), { code: 'ENOTREGULAR' });
    const output = fs.openSync(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    try {
      const buffer = Buffer.allocUnsafe(MIB);
      for (;;) {
        const read = fs.readSync(input, buffer, 0, buffer.length, null);
        if (read === 0) break;
        for (let written = 0; written < read; ) written += fs.writeSync(output, buffer, written, read - written);
      }
    } finally {
      fs.closeSync(output);
    }
  } finally {
    fs.closeSync(input);
  }
}

/** Counts the entries below an upper-layer folder (what a refused new folder carried), without following links. */
function countBelow(folder: HostDirectory): number {
  let count = 0;
  for (const name of folder.names()) {
    count += 1;
    if (folder.lstat(name)?.isDirectory() !== true) continue;
    const child = folder.openChild(name);
    if (child === undefined) continue;
    try {
      count += countBelow(child);
    } finally {
      child.close();
    }
  }
  return count;
}

/**
 * Applies what one sandboxed command wrote (architecture §3.10, staged writes): the upper layer of
 * each overlaid root holds exactly the entries the command created, changed or removed (a removal
 * is a whiteout: a character device 0/0). Every host path a change would touch is judged first —
 * by default with the very `checkAccess(policy, path, 'write', 'process')` the file tools use, so
 * git's hooks and config, `.envrc`, editor task files and tier 1 are refused at any depth — and only
 * allowed changes reach the host, through folders opened without following links (a folder swapped
 * for a link meanwhile is never written through). A file moves from the upper layer by `rename`
 * where both are on one file system, else it is copied beside its target and renamed over it.
 * Unchanged copies (a file opened for writing and left as it was, `touch` of the same mode) are
 * not changes. Refused changes are listed with the judge's text; nothing of them is applied.
 * Synchronous: it runs once the command's processes are gone.
 */
export function applyStagedWrites(policy: SandboxPolicy, roots: readonly StagedRoot[], options: ApplyStagedWritesOptions = {}): StagedApplyReport {
  const judge: StagedWriteJudge = options.judge ?? ((path, operation, staged, type) => judgeStagedWrite(policy, path, operation, staged, type));
  const run = new StagedApply(judge, options, scratchTest(policy));
  // One pass: each folder's repository (its hooks folders) is read once, however many paths it holds.
  withRepositoryScan(() => {
    for (const root of roots) run.applyRoot(root);
  });
  return run.report();
}

/**
 * Whether a host path is scratch (docs/decisions/0103): below a temp root, and not below a more
 * specific workspace or extra writable root (a workspace inside `/tmp` stays a workspace; a temp
 * folder inside the workspace stays scratch). Scratch changes are judged and applied like any
 * other, and left out of the report's list and counts.
 */
export function scratchTest(policy: SandboxPolicy): (path: string) => boolean {
  const below = (path: string, root: string) => root === '/' || path === root || path.startsWith(`${root}/`);
  const roots = [
    ...policy.tempRoots.map((root) => ({ root, scratch: true })),
    ...[...policy.workspaceRoots, ...policy.extraWritableRoots].map((root) => ({ root, scratch: false })),
  ].sort((a, b) => b.root.length - a.root.length);
  if (policy.tempRoots.length === 0) return () => false;
  return (path) => roots.find(({ root }) => below(path, root))?.scratch === true;
}

class StagedApply {
  readonly #judge: StagedWriteJudge;
  readonly #opaqueFolders: (upperFolders: readonly string[]) => ReadonlySet<string>;
  #opaque: ReadonlySet<string> = new Set();
  readonly #maxRecorded: number;
  readonly #maxFileBytes: number;
  readonly #changes: StagedChange[] = [];
  readonly #refused: StagedRefusal[] = [];
  readonly #skipped: StagedSkip[] = [];
  readonly #counts = { created: 0, modified: 0, deleted: 0 };
  /** Hard links made inside the upper layer: the first host path each upper inode was applied to. */
  readonly #linked = new Map<string, string>();
  readonly #copy: boolean;
  readonly #judged: Map<string, string> | undefined;
  /** `copy` passes: the staging folder of the root being applied, where files are copied to be judged. */
  #scratch: HostDirectory | undefined;

  readonly #isScratch: (path: string) => boolean;
  #scratchChanges = 0;

  constructor(judge: StagedWriteJudge, options: ApplyStagedWritesOptions, isScratch: (path: string) => boolean = () => false) {
    this.#judge = judge;
    this.#isScratch = isScratch;
    this.#opaqueFolders = options.opaqueFolders ?? (() => new Set());
    this.#maxRecorded = options.maxRecordedChanges ?? 1000;
    this.#maxFileBytes = options.maxRecordedFileBytes ?? MIB;
    this.#copy = options.mode === 'copy';
    this.#judged = options.judged;
  }

  /** True when an earlier pass judged this entry as it is now (and records it as judged now). */
  #judgedBefore(staged: string, stats: fs.Stats): boolean {
    if (this.#judged === undefined) return false;
    const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.mode}`;
    if (this.#judged.get(staged) === signature) return true;
    this.#judged.set(staged, signature);
    return false;
  }

  report(): StagedApplyReport {
    const total = this.#counts.created + this.#counts.modified + this.#counts.deleted;
    return { changes: this.#changes, refused: this.#refused, skipped: this.#skipped, counts: { ...this.#counts }, complete: total <= this.#changes.length, scratchChanges: this.#scratchChanges };
  }

  applyRoot(root: StagedRoot): void {
    let names: string[];
    try {
      names = fs.readdirSync(root.upper);
    } catch {
      return; // nothing staged below this root
    }
    if (names.length === 0) return;
    const host = HostDirectory.openRoot(root.target);
    if (host === undefined) {
      this.#skipped.push({ path: root.target, reason: 'the folder is no longer there on the host, so nothing written below it was applied' });
      return;
    }
    try {
      const folders: string[] = [];
      const collect = (folder: string): void => {
        let entries: fs.Dirent[];
        try {
          entries = fs.readdirSync(folder, { withFileTypes: true });
        } catch {
          return; // removed by a running command meanwhile: the walk below sees what is there
        }
        for (const entry of entries) {
          if (!entry.isDirectory()) continue;
          folders.push(`${folder}/${entry.name}`);
          collect(`${folder}/${entry.name}`);
        }
      };
      collect(root.upper);
      this.#opaque = folders.length === 0 ? new Set() : this.#opaqueFolders(folders);
      // The upper layer is walked like the host: through folders opened without following links,
      // so a running command that swaps a folder for a link (sync) never leads a read elsewhere.
      const upper = HostDirectory.openRoot(root.upper);
      if (upper === undefined) return;
      // While the command runs, a file is copied out of its reach first (beside the upper layer,
      // in the call's staging folder): that copy is what is judged and what arrives.
      this.#scratch = this.#copy ? HostDirectory.openRoot(root.upper.slice(0, root.upper.lastIndexOf('/'))) : undefined;
      try {
        if (this.#copy && this.#scratch === undefined) throw new Error(`the staging folder of ${root.target} is gone`);
        this.#applyFolder(upper, host, false);
      } finally {
        upper.close();
        this.#scratch?.close();
        this.#scratch = undefined;
      }
    } finally {
      host.close();
    }
  }

  #recording(): boolean {
    return this.#changes.length < this.#maxRecorded;
  }

  #record(change: StagedChange): void {
    // Below a temp root: applied (and judged) like any change, but not a file change of the call.
    if (this.#isScratch(change.path)) {
      this.#scratchChanges += 1;
      return;
    }
    this.#counts[change.kind] += 1;
    if (this.#recording()) this.#changes.push(change);
  }

  #allowed(path: string, operation: StagedRefusal['operation'], staged: string | undefined, type: StagedEntryType | undefined, countEntriesBelow?: () => number): boolean {
    const decision = this.#judge(path, operation, staged, type);
    if (decision.allowed) return true;
    const entriesBelow = countEntriesBelow?.();
    this.#refused.push({
      path,
      operation,
      message: decision.message,
      ...(decision.suggestedGrant === undefined ? {} : { suggestedGrant: decision.suggestedGrant }),
      ...(entriesBelow === undefined || entriesBelow === 0 ? {} : { entriesBelow }),
    });
    return false;
  }

  #readRecorded(path: string, size: number): Buffer | undefined {
    if (!this.#recording() || size > this.#maxFileBytes) return undefined;
    let fd: number | undefined;
    try {
      fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      return fs.readFileSync(fd);
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  #applyFolder(upper: HostDirectory, host: HostDirectory, opaque: boolean): void {
    const names = upper.names().sort();
    if (opaque) {
      const staged = new Set(names);
      for (const name of host.names().sort()) if (!staged.has(name)) this.#delete(host, name);
    }
    for (const name of names) {
      const stats = upper.lstat(name);
      if (stats === undefined) continue; // gone meanwhile (a running command): the next pass sees what is there
      if (!stats.isDirectory() && this.#judgedBefore(upper.childPath(name), stats)) continue;
      if (isWhiteout(stats)) {
        try {
          if (host.lstat(name) !== undefined) this.#delete(host, name);
        } catch (error) {
          this.#skipped.push({ path: host.childPath(name), reason: `the host refused to remove it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
        }
        continue;
      }
      const type = typeOf(stats);
      if (type === undefined) {
        this.#skipped.push({ path: host.childPath(name), reason: 'a FIFO, socket or device made by the command is not applied to the host' });
        continue;
      }
      try {
        if (type === 'directory') this.#applyDirectory(upper, stats, host, name);
        else if (type === 'file') this.#applyFile(upper, stats, host, name);
        else this.#applySymlink(upper, host, name);
      } catch (error) {
        // The host refused what the rules allowed (permissions, a full disk, a read-only mount):
        // that entry stays as it was on the host, the others go on.
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        this.#skipped.push({ path: host.childPath(name), reason: `the host refused to take it (${code})` });
      }
    }
  }

  /**
   * The name of an upper-layer entry the judge reads: its upper-layer path once the command has
   * ended (nothing changes it any more), else the entry reached through its opened folder.
   */
  #stagedName(upper: HostDirectory, name: string): string {
    return this.#copy ? upper.entry(name) : upper.childPath(name);
  }

  #applyDirectory(upper: HostDirectory, stats: fs.Stats, host: HostDirectory, name: string): void {
    const path = host.childPath(name);
    const staged = this.#stagedName(upper, name);
    let existing = host.lstat(name);
    if (existing !== undefined && !existing.isDirectory()) {
      if (!this.#delete(host, name)) return;
      existing = undefined;
    }
    const stagedFolder = upper.openChild(name);
    if (stagedFolder === undefined) return; // no longer a folder (a running command): the next pass sees what is there
    try {
      this.#applyStagedDirectory(stagedFolder, staged, stats, host, name, path, existing);
    } finally {
      stagedFolder.close();
    }
  }

  #applyStagedDirectory(stagedFolder: HostDirectory, staged: string, stats: fs.Stats, host: HostDirectory, name: string, path: string, existing: fs.Stats | undefined): void {
    if (existing === undefined) {
      if (!this.#allowed(path, 'create', staged, 'directory', () => countBelow(stagedFolder))) return;
      fs.mkdirSync(host.entry(name), { mode: hostMode(stats.mode) & 0o777 });
      this.#record({ path, kind: 'created', type: 'directory', mode: hostMode(stats.mode) });
    }
    const child = host.openChild(name);
    if (child === undefined) {
      this.#skipped.push({ path, reason: 'the folder changed on the host while the changes were applied' });
      return;
    }
    try {
      if (existing === undefined) child.chmodSelf(hostMode(stats.mode));
      else if (hostMode(existing.mode) !== hostMode(stats.mode) && this.#allowed(path, 'modify', staged, 'directory')) {
        child.chmodSelf(hostMode(stats.mode));
        this.#record({ path, kind: 'modified', type: 'directory', mode: hostMode(stats.mode), beforeType: 'directory', beforeMode: hostMode(existing.mode) });
      }
      this.#applyFolder(stagedFolder, child, existing !== undefined && this.#opaque.has(stagedFolder.path));
    } finally {
      child.close();
    }
  }

  #applyFile(upper: HostDirectory, stats: fs.Stats, host: HostDirectory, name: string): void {
    const path = host.childPath(name);
    let existing = host.lstat(name);
    const mode = hostMode(stats.mode);
    if (existing?.isFile() === true && existing.size === stats.size && hostMode(existing.mode) === mode && existing.nlink === 1 && stats.nlink === 1) {
      if (sameBytes(upper.entry(name), host.entry(name), stats.size)) return; // copied up, not changed
    }
    // A running command (sync) may rewrite the file between its judgment and its arrival: it is
    // copied out of its reach first, and that copy is what is judged (a config by its keys),
    // recorded and put in place.
    const copied = this.#scratch === undefined ? undefined : this.#copyAside(upper, name, stats, this.#scratch);
    const staged = copied === undefined ? upper.childPath(name) : (this.#scratch as HostDirectory).entry(copied.name);
    try {
      if (!this.#allowed(path, existing === undefined ? 'create' : 'modify', staged, 'file')) return;
      if (existing !== undefined && !existing.isFile() && !existing.isSymbolicLink()) {
        if (!this.#delete(host, name)) return;
        existing = undefined;
      }
      const size = copied?.size ?? stats.size;
      const before = existing?.isFile() === true ? this.#readRecorded(host.entry(name), existing.size) : undefined;
      const previous = existing === undefined ? {} : this.#previous(host, name, existing);
      const after = this.#readRecorded(staged, size);
      const key = `${stats.dev}:${stats.ino}`;
      const linkedTo = stats.nlink > 1 && copied === undefined ? this.#linked.get(key) : undefined;
      if (copied !== undefined) {
        this.#place(this.#scratch as HostDirectory, copied.name, stats, host, name);
      } else if (linkedTo !== undefined) {
        // A hard link the command made between two staged names: linked again on the host.
        const temporary = this.#temporaryName(host, name);
        fs.linkSync(linkedTo, host.entry(temporary));
        fs.renameSync(host.entry(temporary), host.entry(name));
      } else {
        fs.chmodSync(upper.entry(name), mode);
        this.#place(upper, name, stats, host, name);
        if (stats.nlink > 1) this.#linked.set(key, path);
      }
      this.#record({
        path,
        kind: existing === undefined ? 'created' : 'modified',
        type: 'file',
        mode,
        size,
        ...previous,
        ...(after !== undefined && (existing === undefined || before !== undefined) ? { after, before: before ?? null } : {}),
      });
    } finally {
      if (copied !== undefined) fs.rmSync((this.#scratch as HostDirectory).entry(copied.name), { force: true });
    }
  }

  /** Copies a staged file into `scratch` under a new name, with its mode and times; that name and the size copied. */
  #copyAside(upper: HostDirectory, name: string, stats: fs.Stats, scratch: HostDirectory): { name: string; size: number } {
    const copy = `copy-${randomBytes(8).toString('hex')}`;
    try {
      copyRegularFile(upper.entry(name), scratch.entry(copy));
      fs.chmodSync(scratch.entry(copy), hostMode(stats.mode));
      fs.utimesSync(scratch.entry(copy), stats.atime, stats.mtime);
      return { name: copy, size: fs.lstatSync(scratch.entry(copy)).size };
    } catch (error) {
      fs.rmSync(scratch.entry(copy), { force: true });
      throw error;
    }
  }

  /**
   * Puts the file `from` of `source` at `name` on the host: a rename on one file system, else a
   * copy beside `name` (without following a link at `from`) renamed over it.
   */
  #place(source: HostDirectory, from: string, stats: fs.Stats, host: HostDirectory, name: string): void {
    try {
      fs.renameSync(source.entry(from), host.entry(name));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
    const temporary = this.#temporaryName(host, name);
    try {
      copyRegularFile(source.entry(from), host.entry(temporary));
      fs.chmodSync(host.entry(temporary), hostMode(stats.mode));
      fs.utimesSync(host.entry(temporary), stats.atime, stats.mtime);
      fs.renameSync(host.entry(temporary), host.entry(name));
    } catch (error) {
      fs.rmSync(host.entry(temporary), { force: true });
      throw error;
    }
  }

  /** What an entry about to be replaced was: its type, permission bits and, for a link, its target. */
  #previous(host: HostDirectory, name: string, existing: fs.Stats): Pick<StagedChange, 'beforeType' | 'beforeMode' | 'beforeLinkTarget'> {
    const type = typeOf(existing);
    if (type === undefined) return {};
    if (type !== 'symlink') return { beforeType: type, beforeMode: hostMode(existing.mode) };
    try {
      return { beforeType: type, beforeLinkTarget: fs.readlinkSync(host.entry(name)) };
    } catch {
      return { beforeType: type };
    }
  }

  #temporaryName(host: HostDirectory, name: string): string {
    for (;;) {
      const candidate = `.${name.slice(0, 200)}.openwork-${randomBytes(6).toString('hex')}`;
      if (host.lstat(candidate) === undefined) return candidate;
    }
  }

  #applySymlink(upper: HostDirectory, host: HostDirectory, name: string): void {
    const path = host.childPath(name);
    const staged = this.#stagedName(upper, name);
    const target = fs.readlinkSync(upper.entry(name));
    let existing = host.lstat(name);
    if (existing?.isSymbolicLink() === true && fs.readlinkSync(host.entry(name)) === target) return;
    if (!this.#allowed(path, existing === undefined ? 'create' : 'modify', staged, 'symlink')) return;
    if (existing?.isDirectory() === true) {
      if (!this.#delete(host, name)) return;
      existing = undefined;
    }
    const previous = existing === undefined ? {} : this.#previous(host, name, existing);
    const temporary = this.#temporaryName(host, name);
    fs.symlinkSync(target, host.entry(temporary));
    fs.renameSync(host.entry(temporary), host.entry(name));
    this.#record({ path, kind: existing === undefined ? 'created' : 'modified', type: 'symlink', linkTarget: target, ...previous });
  }

  /**
   * Removes `name` from the host, judged entry by entry (a folder's contents first): what the rules
   * keep stays, with the folders that hold it. True when it is gone.
   */
  #delete(host: HostDirectory, name: string): boolean {
    const path = host.childPath(name);
    const existing = host.lstat(name);
    if (existing === undefined) return true;
    if (existing.isDirectory()) {
      const child = host.openChild(name);
      if (child === undefined) return false;
      let all = true;
      try {
        for (const entry of child.names().sort()) all = this.#delete(child, entry) && all;
      } finally {
        child.close();
      }
      if (!all || !this.#allowed(path, 'delete', undefined, 'directory')) return false;
      fs.rmdirSync(host.entry(name));
      this.#record({ path, kind: 'deleted', type: 'directory', mode: hostMode(existing.mode) });
      return true;
    }
    const type = typeOf(existing);
    if (!this.#allowed(path, 'delete', undefined, type)) return false;
    const before = existing.isFile() ? this.#readRecorded(host.entry(name), existing.size) : undefined;
    const linkTarget = existing.isSymbolicLink() ? fs.readlinkSync(host.entry(name)) : undefined;
    fs.unlinkSync(host.entry(name));
    if (type === undefined) return true;
    this.#record({
      path,
      kind: 'deleted',
      type,
      mode: hostMode(existing.mode),
      ...(existing.isFile() ? { size: existing.size } : {}),
      ...(linkTarget === undefined ? {} : { linkTarget }),
      ...(before === undefined ? {} : { before, after: null }),
    });
    return true;
  }
}
