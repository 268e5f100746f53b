import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { AccessDecision } from '../policy/access-decision.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { pathFromBytes, toNodePath } from '../policy/path-bytes.js';
import { appendRegularFile, copyFolder, copyRegularFile, isSparseFile } from './copy-regular-file.js';
import { HostDirectory } from './host-directory.js';
import { judgeStagedWrite } from './judge-staged-write.js';
import { withRepositoryScan } from '../policy/sensitive-kinds.js';
import type { StagedApplyReport, StagedBase, StagedChange, StagedConflict, StagedEntryType, StagedRefusal, StagedRoot, StagedSkip } from './staged-writes.js';

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
  /**
   * What the command saw (architecture §3.11): host entries changed since are conflicts, never
   * overwritten or removed. Passes of one running command share it (each adds what it applied).
   * Absent: the host is taken to be as the command saw it (nothing compared).
   */
  readonly base?: StagedBase;
  /** The folder (made when needed) where the command's versions of conflicting entries are kept, each at its host path below it. Default: `defaultConflictFolder(policy)`. */
  readonly conflictFolder?: string;
  /** The judge; default `judgeStagedWrite` (`checkAccess(policy, path, 'write', 'process')` and what only the final state tells). */
  readonly judge?: StagedWriteJudge;
}

const MIB = 1024 * 1024;

/** Permission bits the host gets: no set-user-ID or set-group-ID bit from a sandboxed command. */
function hostMode(mode: number | bigint): number {
  return Number(mode) & 0o1777;
}

function typeOf(stats: fs.Stats | fs.BigIntStats): StagedEntryType | undefined {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  return undefined;
}

function isWhiteout(stats: fs.Stats): boolean {
  return stats.isCharacterDevice() && stats.rdev === 0;
}

/** An entry's identity as the compare-and-swap checks it: inode and change time (ns). */
function identity(stats: fs.BigIntStats): string {
  return `${stats.ino}:${stats.ctimeNs}`;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

const { O_NOFOLLOW, O_NONBLOCK, O_RDONLY } = fs.constants;

function sameBytes(a: fs.PathLike, b: fs.PathLike, size: number): boolean {
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
 * Applies what one sandboxed command wrote (architecture §3.10–3.11, staged writes): the upper layer
 * of each overlaid root holds exactly the entries the command created, changed or removed (a
 * removal is a whiteout: a character device 0/0). Every host path a change would touch is judged
 * first — by default with the very `checkAccess(policy, path, 'write', 'process')` the file tools
 * use — and only allowed changes reach the host, through folders opened without following links.
 *
 * The apply is a compare-and-swap per entry against `options.base` (what the command saw): an
 * entry the host created, changed or removed since is a **conflict** — the host keeps its version,
 * the command's is kept aside in `options.conflictFolder` — and deletions remove only what existed
 * unchanged at the base. It is all or nothing per pass: every new content is first staged on the
 * host's file system beside its target (new folders under temporary names), then each entry is
 * compared again and renamed into place; a failure while staging (a full disk, a folder that cannot
 * be made) undoes what was staged, applies nothing and says so (`report.failed`).
 * Unchanged copies (a file opened for writing and left as it was) are not changes. Refused changes
 * are listed with the judge's text. Synchronous: it runs once the command's processes are gone, or
 * (`copy` mode) on copies taken out of a running command's reach.
 */
export function applyStagedWrites(policy: SandboxPolicy, roots: readonly StagedRoot[], options: ApplyStagedWritesOptions = {}): StagedApplyReport {
  const judge: StagedWriteJudge = options.judge ?? ((path, operation, staged, type) => judgeStagedWrite(policy, path, operation, staged, type));
  const conflictFolder = options.conflictFolder ?? defaultConflictFolder(policy);
  const run = new StagedApply(judge, options, conflictFolder, scratchTest(policy));
  // One pass: each folder's repository (its hooks folders) is read once, however many paths it holds.
  withRepositoryScan(() => drain(run.apply(roots)));
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

/** How long one slice of `applyStagedWritesInSlices` may hold the event loop: 8 ms. */
const SLICE_MS = 8;

/**
 * `applyStagedWrites` in slices of at most a few milliseconds, the event loop free in between
 * (architecture §3.11: a server applying a task's 100,000 files still answers a `read`). The pass is
 * the same — judged, compared, staged, then put in place, all or nothing — and holds its folders
 * open across slices; the caller runs one pass of a staging folder at a time.
 */
export async function applyStagedWritesInSlices(policy: SandboxPolicy, roots: readonly StagedRoot[], options: ApplyStagedWritesOptions = {}, sliceMs = SLICE_MS): Promise<StagedApplyReport> {
  const judge: StagedWriteJudge = options.judge ?? ((path, operation, staged, type) => judgeStagedWrite(policy, path, operation, staged, type));
  const conflictFolder = options.conflictFolder ?? defaultConflictFolder(policy);
  const run = new StagedApply(judge, options, conflictFolder, scratchTest(policy));
  const pass = run.apply(roots);
  let done = false;
  while (!done) {
    const started = performance.now();
    // Each slice reads a repository's hooks folders once, however many of its paths it judges.
    done = withRepositoryScan(() => {
      for (;;) {
        if (pass.next().done === true) return true;
        if (performance.now() - started >= sliceMs) return false;
      }
    });
    if (!done) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return run.report();
}

/**
 * Where a call's conflict copies go by default: the session's own folder for long outputs when it
 * has one (the sandbox may read it, so the model can look at what its command wrote), else the
 * OpenWork home; one folder per call, made when the first conflict is kept.
 */
export function defaultConflictFolder(policy: Pick<SandboxPolicy, 'openworkHome' | 'sessionSpillDirectory'>): string {
  const parent = policy.sessionSpillDirectory ?? `${policy.openworkHome}/staged-conflicts`;
  const time = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${parent}/conflicts-${time}-${randomBytes(4).toString('hex')}`;
}

/** A change put in place at the second phase, after everything was staged. */
type Step =
  /** A file or link staged at `temporary` beside `name`: renamed over it if it is still `expect` (`absent`: linked, never replacing). */
  | { readonly kind: 'place'; readonly host: HostDirectory; readonly name: string; readonly temporary: string; readonly path: string; readonly expect: string | 'absent'; readonly changes: StagedChange[]; readonly operation: StagedConflict['operation'] }
  /** A new folder staged whole at `temporary` (with what the command put in it): renamed in place if the name is still free (or `expect`, a non-folder it replaces). */
  | { readonly kind: 'folder'; readonly host: HostDirectory; readonly name: string; readonly temporary: string; readonly path: string; readonly expect: string | 'absent'; readonly changes: StagedChange[] }
  /** A host file or link removed if it is still `expect`. */
  | { readonly kind: 'unlink'; readonly host: HostDirectory; readonly name: string; readonly path: string; readonly expect: string; readonly change: StagedChange }
  /** A host folder removed once its entries were (left when something new is in it). */
  | { readonly kind: 'rmdir'; readonly host: HostDirectory; readonly name: string; readonly path: string; readonly change: StagedChange }
  /** A host folder's permission bits. */
  | { readonly kind: 'chmod'; readonly folder: HostDirectory; readonly mode: number; readonly change: StagedChange }
  /** A file that only grew: its new tail (copied out of reach into `scratch`) appended to the host file, if it is still `expect` and `size` long. */
  | { readonly kind: 'append'; readonly host: HostDirectory; readonly name: string; readonly path: string; readonly expect: string; readonly size: number; readonly scratch: HostDirectory; readonly tail: string; readonly upperKey: string; readonly change: StagedChange };

class StagedApply {
  readonly #judge: StagedWriteJudge;
  readonly #opaqueFolders: (upperFolders: readonly string[]) => ReadonlySet<string>;
  #opaque: ReadonlySet<string> = new Set();
  readonly #maxRecorded: number;
  readonly #maxFileBytes: number;
  readonly #changes: StagedChange[] = [];
  readonly #refused: StagedRefusal[] = [];
  readonly #skipped: StagedSkip[] = [];
  readonly #conflicts: StagedConflict[] = [];
  readonly #counts = { created: 0, modified: 0, deleted: 0 };
  #failed: string | undefined;
  /** Hard links made inside the upper layer: where the first host name of each upper inode was staged. */
  readonly #linked = new Map<string, fs.PathLike>();
  readonly #copy: boolean;
  readonly #judged: Map<string, string> | undefined;
  /** Upper-layer entries this pass marked as judged: forgotten again when the pass is undone. */
  readonly #judgedNow: string[] = [];
  readonly #base: StagedBase | undefined;
  readonly #conflictFolder: string;
  /** `copy` passes: the staging folder of the root being applied, where files are copied to be judged. */
  #scratch: HostDirectory | undefined;
  /** The second phase, in order. */
  readonly #steps: Step[] = [];
  /** What undoes the first phase (run last to first when it fails). */
  readonly #undo: (() => void)[] = [];
  /** Folders opened for this pass (the second phase acts through them): closed at its end. */
  readonly #held: HostDirectory[] = [];
  /** Inside a new folder staged whole: its entries are made directly and recorded with it. */
  #fresh: StagedChange[] | undefined;

  readonly #isScratch: (path: string) => boolean;
  #scratchChanges = 0;

  constructor(judge: StagedWriteJudge, options: ApplyStagedWritesOptions, conflictFolder: string, isScratch: (path: string) => boolean = () => false) {
    this.#isScratch = isScratch;
    this.#judge = judge;
    this.#isScratch = isScratch;
    this.#opaqueFolders = options.opaqueFolders ?? (() => new Set());
    this.#maxRecorded = options.maxRecordedChanges ?? 1000;
    this.#maxFileBytes = options.maxRecordedFileBytes ?? MIB;
    this.#copy = options.mode === 'copy';
    this.#judged = options.judged;
    this.#base = options.base;
    this.#conflictFolder = conflictFolder;
  }

  /** True when an earlier pass judged this entry as it is now (and records it as judged now). */
  #judgedBefore(staged: string, stats: fs.Stats): boolean {
    if (this.#judged === undefined) return false;
    const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.mode}`;
    if (this.#judged.get(staged) === signature) return true;
    this.#judged.set(staged, signature);
    this.#judgedNow.push(staged);
    return false;
  }

  report(): StagedApplyReport {
    const total = this.#counts.created + this.#counts.modified + this.#counts.deleted;
    return {
      changes: this.#changes,
      refused: this.#refused,
      skipped: this.#skipped,
      counts: { ...this.#counts },
      complete: total <= this.#changes.length,
      scratchChanges: this.#scratchChanges,
      ...(this.#conflicts.length === 0 ? {} : { conflicts: this.#conflicts }),
      ...(this.#failed === undefined ? {} : { failed: this.#failed }),
    };
  }

  #hold<T extends HostDirectory | undefined>(folder: T): T {
    if (folder !== undefined) this.#held.push(folder);
    return folder;
  }

  /** The whole pass, one entry at a time: each `yield` is a point where the caller may let other work run (`applyStagedWritesInSlices`). */
  *apply(roots: readonly StagedRoot[]): Generator<void, void, void> {
    try {
      try {
        for (const root of roots) yield* this.#planRoot(root);
      } catch (error) {
        this.#rollBack(error);
        return;
      }
      for (const step of this.#steps) {
        this.#commit(step);
        yield;
      }
    } finally {
      for (const folder of this.#held.reverse()) folder.close();
    }
  }

  /** The first phase failed: what it staged is removed (or moved back), nothing reaches the host. */
  #rollBack(error: unknown): void {
    for (const undo of this.#undo.reverse()) {
      try {
        undo();
      } catch {
        // best effort: a temporary name left behind is removed with its folder's next write
      }
    }
    for (const key of this.#judgedNow) this.#judged?.delete(key);
    this.#steps.length = 0;
    this.#failed = error instanceof Error ? error.message : String(error);
  }

  *#planRoot(root: StagedRoot): Generator<void, void, void> {
    let names: Buffer[];
    try {
      names = fs.readdirSync(root.upper, { encoding: 'buffer' });
    } catch {
      return; // nothing staged below this root
    }
    if (names.length === 0) return;
    const host = this.#hold(HostDirectory.openRoot(root.target));
    if (host === undefined) {
      this.#skipped.push({ path: root.target, reason: 'the folder is no longer there on the host, so nothing written below it was applied' });
      return;
    }
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
    const upper = this.#hold(HostDirectory.openRoot(root.upper));
    if (upper === undefined) return;
    // While the command runs, a file is copied out of its reach first (beside the upper layer,
    // in the call's staging folder): that copy is what is judged and what arrives.
    this.#scratch = this.#copy ? this.#hold(HostDirectory.openRoot(root.upper.slice(0, root.upper.lastIndexOf('/')))) : undefined;
    if (this.#copy && this.#scratch === undefined) throw new Error(`the staging folder of ${root.target} is gone`);
    yield* this.#planFolder(upper, host, false);
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

  /** True when the host entry is the one the command saw (architecture §3.11): unchanged since the base. */
  #unchanged(path: string, existing: fs.BigIntStats): boolean {
    if (this.#base === undefined) return true;
    const seen = this.#base.seen.get(path);
    if (seen !== undefined) return seen === identity(existing);
    return existing.ctimeNs <= this.#base.stampNs;
  }

  #readRecorded(path: fs.PathLike, size: number): Buffer | undefined {
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

  *#planFolder(upper: HostDirectory, host: HostDirectory, opaque: boolean): Generator<void, void, void> {
    const names = upper.names().sort();
    if (opaque && this.#fresh === undefined) {
      const staged = new Set(names);
      for (const name of host.names().sort()) if (!staged.has(name)) yield* this.#planDelete(host, name, 'opaque');
    }
    for (const name of names) {
      yield;
      const stats = upper.lstat(name);
      if (stats === undefined) continue; // gone meanwhile (a running command): the next pass sees what is there
      if (!stats.isDirectory() && this.#judgedBefore(upper.childPath(name), stats)) continue;
      if (isWhiteout(stats)) {
        if (this.#fresh === undefined && host.lstat(name) !== undefined) yield* this.#planDelete(host, name, 'whiteout');
        continue;
      }
      const type = typeOf(stats);
      if (type === undefined) {
        this.#skipped.push({ path: host.childPath(name), reason: 'a FIFO, socket or device made by the command is not applied to the host' });
        continue;
      }
      if (type === 'directory') yield* this.#planDirectory(upper, stats, host, name);
      else if (type === 'file') this.#planFile(upper, stats, host, name);
      else this.#planSymlink(upper, host, name);
    }
  }

  /** The name the judge reads an upper-layer entry by: its upper-layer path once the command has ended, else the entry through its opened folder. */
  #stagedName(upper: HostDirectory, name: string): string {
    return this.#copy ? upper.entryText(name) : upper.childPath(name);
  }

  // ---- conflicts: the host keeps its version, the command's is kept aside ----

  /** Where the command's version of `path` is kept: the call's conflict folder, the host path below it. */
  #keptPath(path: string): string {
    const place = `${this.#conflictFolder}${path}`;
    fs.mkdirSync(toNodePath(place.slice(0, place.lastIndexOf('/'))), { recursive: true, mode: 0o700 });
    for (let attempt = 0; ; attempt += 1) {
      const candidate = attempt === 0 ? place : `${place}.${attempt}`;
      if (!fs.existsSync(toNodePath(candidate))) return candidate;
    }
  }

  /** Moves (or, across file systems or from a running command, copies) an entry to the conflict folder: where it is now, or undefined when it could not be kept. */
  #keepAside(source: fs.PathLike, path: string, move: boolean): string | undefined {
    try {
      const kept = this.#keptPath(path);
      if (move) {
        try {
          fs.renameSync(source, toNodePath(kept));
          return kept;
        } catch (error) {
          if (codeOf(error) !== 'EXDEV') throw error;
        }
      }
      const stats = fs.lstatSync(source);
      if (stats.isFile()) copyRegularFile(source, toNodePath(kept), hostMode(stats.mode));
      else if (stats.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), toNodePath(kept));
      else if (stats.isDirectory()) copyFolder(source, toNodePath(kept));
      else return undefined;
      if (move) fs.rmSync(source, { recursive: true, force: true });
      return kept;
    } catch {
      return undefined;
    }
  }

  #conflict(path: string, operation: StagedConflict['operation'], reason: string, keptAt?: string): void {
    this.#conflicts.push({ path, operation, reason, ...(keptAt === undefined ? {} : { keptAt }) });
  }

  /** A conflict found while planning: the command's version (in the upper layer or copied aside) is kept aside. */
  #conflictOfStaged(source: fs.PathLike, path: string, operation: StagedConflict['operation'], reason: string, move = !this.#copy): void {
    const kept = this.#keepAside(source, path, move);
    this.#conflict(path, operation, kept === undefined ? `${reason}; the command's version could not be kept aside (${this.#conflictFolder} could not be written)` : reason, kept);
  }

  // ---- the first phase: judge, compare, stage beside the targets ----

  *#planDirectory(upper: HostDirectory, stats: fs.Stats, host: HostDirectory, name: string): Generator<void, void, void> {
    const path = host.childPath(name);
    const staged = this.#stagedName(upper, name);
    const stagedFolder = this.#hold(upper.openChild(name));
    if (stagedFolder === undefined) return; // no longer a folder (a running command): the next pass sees what is there
    const mode = hostMode(stats.mode);
    if (this.#fresh !== undefined) {
      // Inside a new folder staged whole: made directly.
      if (!this.#allowed(path, 'create', staged, 'directory', () => countBelow(stagedFolder))) return;
      fs.mkdirSync(host.entry(name), { mode: mode & 0o777 });
      const child = this.#hold(host.openChild(name, path));
      if (child === undefined) throw new Error(`the new folder ${path} could not be opened`);
      child.chmodSelf(mode);
      this.#fresh.push({ path, kind: 'created', type: 'directory', mode });
      yield* this.#planFolder(stagedFolder, child, false);
      return;
    }
    const existing = host.lstatExact(name);
    if (existing?.isDirectory() === true) {
      const child = this.#hold(host.openChild(name));
      if (child === undefined) {
        this.#skipped.push({ path, reason: 'the folder changed on the host while the changes were applied' });
        return;
      }
      if (hostMode(existing.mode) !== mode && this.#allowed(path, 'modify', staged, 'directory')) {
        this.#steps.push({ kind: 'chmod', folder: child, mode, change: { path, kind: 'modified', type: 'directory', mode, beforeType: 'directory', beforeMode: hostMode(existing.mode) } });
      }
      yield* this.#planFolder(stagedFolder, child, this.#opaque.has(stagedFolder.path));
      return;
    }
    // A new folder (or one replacing a file or link): staged whole under a temporary name beside it.
    if (!this.#allowed(path, 'create', staged, 'directory', () => countBelow(stagedFolder))) return;
    let expect: string | 'absent' = 'absent';
    if (existing !== undefined) {
      if (!this.#unchanged(path, existing)) {
        this.#conflictOfStaged(upper.entry(name), path, 'create', 'the host changed this entry during the call; the command made a folder here');
        return;
      }
      if (!this.#allowed(path, 'delete', undefined, typeOf(existing))) return;
      expect = identity(existing);
    }
    const temporary = this.#temporaryName(host, name);
    fs.mkdirSync(host.entry(temporary), { mode: 0o700 });
    this.#undo.push(() => fs.rmSync(host.entry(temporary), { recursive: true, force: true }));
    const child = this.#hold(host.openChild(temporary, path));
    if (child === undefined) throw new Error(`the new folder ${path} could not be opened`);
    const changes: StagedChange[] = [{ path, kind: 'created', type: 'directory', mode }];
    const outer = this.#fresh;
    this.#fresh = changes;
    try {
      yield* this.#planFolder(stagedFolder, child, false);
    } finally {
      this.#fresh = outer;
    }
    child.chmodSelf(mode);
    this.#steps.push({ kind: 'folder', host, name, temporary, path, expect, changes });
  }

  #planFile(upper: HostDirectory, stats: fs.Stats, host: HostDirectory, name: string): void {
    const path = host.childPath(name);
    const existing = this.#fresh === undefined ? host.lstatExact(name) : undefined;
    const mode = hostMode(stats.mode);
    if (existing?.isFile() === true && Number(existing.size) === stats.size && hostMode(existing.mode) === mode && existing.nlink === 1n && stats.nlink === 1) {
      if (sameBytes(upper.entry(name), host.entry(name), stats.size)) return; // copied up, not changed
    }
    if (existing !== undefined && this.#appends(upper, stats, host, name, path, existing)) return;
    // A running command (sync) may rewrite the file between its judgment and its arrival: it is
    // copied out of its reach first, and that copy is what is judged (a config by its keys),
    // recorded and put in place.
    let copied: { name: string; size: number } | undefined;
    if (this.#scratch !== undefined) {
      try {
        copied = this.#copyAside(upper, name, stats, this.#scratch);
      } catch (error) {
        if (codeOf(error) === 'ENOSPC' || codeOf(error) === 'EDQUOT') throw error;
        return; // changed while it was read (a running command): the next pass takes it
      }
    }
    const scratch = this.#scratch as HostDirectory;
    const source = copied === undefined ? upper.entry(name) : scratch.entry(copied.name);
    const staged = copied === undefined ? upper.childPath(name) : scratch.entryText(copied.name);
    try {
      const operation = existing === undefined ? 'create' : 'modify';
      if (!this.#allowed(path, operation, staged, 'file')) return;
      if (existing !== undefined && !this.#unchanged(path, existing)) {
        this.#conflictOfStaged(source, path, operation, 'the host changed this file during the call');
        return;
      }
      let expect: string | 'absent' = existing === undefined ? 'absent' : identity(existing);
      if (existing?.isDirectory() === true) {
        // A folder replaced by a file: the folder's entries go first (those the host changed stay, and then so does the folder).
        if (!drain(this.#planDelete(host, name, 'replace'))) {
          this.#conflictOfStaged(source, path, operation, 'the host folder here holds entries the command did not remove; it is kept');
          return;
        }
        expect = 'absent';
      }
      const size = copied?.size ?? stats.size;
      const before = existing?.isFile() === true ? this.#readRecorded(host.entry(name), Number(existing.size)) : undefined;
      const previous = existing === undefined ? {} : this.#previous(host, name, existing);
      const after = this.#readRecorded(source, size);
      const change: StagedChange = {
        path,
        kind: existing === undefined ? 'created' : 'modified',
        type: 'file',
        mode,
        size,
        ...previous,
        ...(after !== undefined && (existing === undefined || before !== undefined) ? { after, before: before ?? null } : {}),
      };
      const target = this.#fresh === undefined ? this.#temporaryName(host, name) : name;
      const key = `${stats.dev}:${stats.ino}`;
      const linkedTo = stats.nlink > 1 && copied === undefined ? this.#linked.get(key) : undefined;
      if (linkedTo !== undefined) {
        // A hard link the command made between two staged names: linked again on the host.
        fs.linkSync(linkedTo, host.entry(target));
        this.#undo.push(() => fs.rmSync(host.entry(target), { force: true }));
      } else if (copied !== undefined) {
        this.#stageFile(scratch, copied.name, stats, host, target, false);
      } else {
        fs.chmodSync(upper.entry(name), mode);
        this.#stageFile(upper, name, stats, host, target, true);
        if (stats.nlink > 1) this.#linked.set(key, host.entry(target));
      }
      if (this.#fresh !== undefined) this.#fresh.push(change);
      else this.#steps.push({ kind: 'place', host, name, temporary: target, path, expect, changes: [change], operation });
    } finally {
      // A copy taken out of a running command's reach was moved on (staged or kept aside) or is removed here.
      if (copied !== undefined) fs.rmSync(scratch.entry(copied.name), { force: true });
    }
  }

  /**
   * A running command's file that only grew since this call last applied it (a log): planned as an
   * append of its new tail, not a copy of the whole. Only where the host file is exactly what the
   * last pass left (the compare of 0080), larger than what is recorded for undo, not sparse, not a
   * name whose content the judge reads (a repository's `config`, `HEAD`, `commondir`), and its
   * first bytes are still the host's. True when planned (or refused).
   */
  #appends(upper: HostDirectory, stats: fs.Stats, host: HostDirectory, name: string, path: string, existing: fs.BigIntStats): boolean {
    const size = Number(existing.size);
    if (this.#scratch === undefined || this.#base === undefined || this.#fresh !== undefined) return false;
    if (!existing.isFile() || existing.nlink !== 1n || stats.nlink !== 1 || hostMode(existing.mode) !== hostMode(stats.mode)) return false;
    if (size <= this.#maxFileBytes || stats.size <= size || isSparseFile(stats) || contentJudged.has(name)) return false;
    if (this.#base.seen.get(path) !== identity(existing)) return false;
    if (!sameBytes(upper.entry(name), host.entry(name), size)) return false;
    if (!this.#allowed(path, 'modify', undefined, 'file')) return true;
    const scratch = this.#scratch;
    const tail = `tail-${randomBytes(8).toString('hex')}`;
    this.#undo.push(() => fs.rmSync(scratch.entry(tail), { force: true }));
    const added = copyRegularFile(upper.entry(name), scratch.entry(tail), 0o600, size);
    const change: StagedChange = { path, kind: 'modified', type: 'file', mode: hostMode(stats.mode), size: size + added, beforeType: 'file', beforeMode: hostMode(existing.mode) };
    this.#steps.push({ kind: 'append', host, name, path, expect: identity(existing), size, scratch, tail, upperKey: upper.childPath(name), change });
    return true;
  }

  /**
   * Stages the file `from` of `source` at `target` in `host` (a name nobody else uses): a rename on
   * one file system, else a copy (holes stay holes). `giveBack`: a rename is undone by renaming it
   * back (the upper layer of an ended command), else the staged name is removed.
   */
  #stageFile(source: HostDirectory, from: string, stats: fs.Stats, host: HostDirectory, target: string, giveBack: boolean): void {
    try {
      fs.renameSync(source.entry(from), host.entry(target));
      this.#undo.push(giveBack ? () => fs.renameSync(host.entry(target), source.entry(from)) : () => fs.rmSync(host.entry(target), { force: true }));
      return;
    } catch (error) {
      if (codeOf(error) !== 'EXDEV') throw error;
    }
    this.#undo.push(() => fs.rmSync(host.entry(target), { force: true }));
    copyRegularFile(source.entry(from), host.entry(target), hostMode(stats.mode));
    fs.chmodSync(host.entry(target), hostMode(stats.mode));
    fs.utimesSync(host.entry(target), stats.atime, stats.mtime);
  }

  /** Copies a staged file into `scratch` under a new name, with its mode and times; that name and the size copied. */
  #copyAside(upper: HostDirectory, name: string, stats: fs.Stats, scratch: HostDirectory): { name: string; size: number } {
    const copy = `copy-${randomBytes(8).toString('hex')}`;
    try {
      const size = copyRegularFile(upper.entry(name), scratch.entry(copy), hostMode(stats.mode));
      fs.chmodSync(scratch.entry(copy), hostMode(stats.mode));
      fs.utimesSync(scratch.entry(copy), stats.atime, stats.mtime);
      return { name: copy, size };
    } catch (error) {
      fs.rmSync(scratch.entry(copy), { force: true });
      throw error;
    }
  }

  /** What an entry about to be replaced was: its type, permission bits and, for a link, its target. */
  #previous(host: HostDirectory, name: string, existing: fs.BigIntStats): Pick<StagedChange, 'beforeType' | 'beforeMode' | 'beforeLinkTarget'> {
    const type = typeOf(existing);
    if (type === undefined) return {};
    if (type !== 'symlink') return { beforeType: type, beforeMode: hostMode(existing.mode) };
    try {
      return { beforeType: type, beforeLinkTarget: readLink(host.entry(name)) };
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

  #planSymlink(upper: HostDirectory, host: HostDirectory, name: string): void {
    const path = host.childPath(name);
    const staged = this.#stagedName(upper, name);
    const target = readLink(upper.entry(name));
    const existing = this.#fresh === undefined ? host.lstatExact(name) : undefined;
    if (existing?.isSymbolicLink() === true && readLink(host.entry(name)) === target) return;
    const operation = existing === undefined ? 'create' : 'modify';
    if (!this.#allowed(path, operation, staged, 'symlink')) return;
    if (existing !== undefined && !this.#unchanged(path, existing)) {
      this.#conflictOfStaged(upper.entry(name), path, operation, 'the host changed this entry during the call');
      return;
    }
    let expect: string | 'absent' = existing === undefined ? 'absent' : identity(existing);
    if (existing?.isDirectory() === true) {
      if (!drain(this.#planDelete(host, name, 'replace'))) {
        this.#conflictOfStaged(upper.entry(name), path, operation, 'the host folder here holds entries the command did not remove; it is kept');
        return;
      }
      expect = 'absent';
    }
    const previous = existing === undefined ? {} : this.#previous(host, name, existing);
    const temporary = this.#fresh === undefined ? this.#temporaryName(host, name) : name;
    fs.symlinkSync(toNodePath(target), host.entry(temporary));
    this.#undo.push(() => fs.rmSync(host.entry(temporary), { force: true }));
    const change: StagedChange = { path, kind: existing === undefined ? 'created' : 'modified', type: 'symlink', linkTarget: target, ...previous };
    if (this.#fresh !== undefined) this.#fresh.push(change);
    else this.#steps.push({ kind: 'place', host, name, temporary, path, expect, changes: [change], operation });
  }

  /**
   * Plans the removal of `name` from the host, judged and compared entry by entry (a folder's
   * contents first): only what existed unchanged at the base goes; what the rules keep or the host
   * changed meanwhile stays, with the folders that hold it. True when all of it is planned to go.
   */
  *#planDelete(host: HostDirectory, name: string, why: 'whiteout' | 'opaque' | 'replace'): Generator<void, boolean, void> {
    const path = host.childPath(name);
    const existing = host.lstatExact(name);
    if (existing === undefined) return true;
    if (existing.isDirectory()) {
      const child = this.#hold(host.openChild(name));
      if (child === undefined) return false;
      let all = true;
      for (const entry of child.names().sort()) {
        yield;
        all = (yield* this.#planDelete(child, entry, why)) && all;
      }
      if (!all || !this.#allowed(path, 'delete', undefined, 'directory')) return false;
      this.#steps.push({ kind: 'rmdir', host, name, path, change: { path, kind: 'deleted', type: 'directory', mode: hostMode(existing.mode) } });
      return true;
    }
    if (!this.#unchanged(path, existing)) {
      this.#conflict(
        path,
        'delete',
        why === 'opaque'
          ? 'the host created or changed it during the call, in a folder the command emptied; it is kept'
          : 'the host created or changed it during the call; the command removed it; it is kept',
      );
      return false;
    }
    const type = typeOf(existing);
    if (!this.#allowed(path, 'delete', undefined, type)) return false;
    const before = existing.isFile() ? this.#readRecorded(host.entry(name), Number(existing.size)) : undefined;
    const linkTarget = existing.isSymbolicLink() ? readLink(host.entry(name)) : undefined;
    this.#steps.push({
      kind: 'unlink',
      host,
      name,
      path,
      expect: identity(existing),
      change: {
        path,
        kind: 'deleted',
        type: type ?? 'file',
        mode: hostMode(existing.mode),
        ...(existing.isFile() ? { size: Number(existing.size) } : {}),
        ...(linkTarget === undefined ? {} : { linkTarget }),
        ...(before === undefined ? {} : { before, after: null }),
      },
    });
    return true;
  }

  // ---- the second phase: compare again, then rename and remove ----

  #commit(step: Step): void {
    try {
      switch (step.kind) {
        case 'chmod':
          step.folder.chmodSelf(step.mode);
          this.#record(step.change);
          return;
        case 'unlink': {
          const now = step.host.lstatExact(step.name);
          if (now === undefined) return;
          if (identity(now) !== step.expect) {
            this.#conflict(step.path, 'delete', 'the host changed it while the changes were applied; the command removed it; it is kept');
            return;
          }
          fs.unlinkSync(step.host.entry(step.name));
          this.#base?.seen.delete(step.path);
          if (typeOf(now) !== undefined) this.#record(step.change);
          return;
        }
        case 'rmdir':
          try {
            fs.rmdirSync(step.host.entry(step.name));
          } catch (error) {
            if (codeOf(error) === 'ENOENT') return;
            if (codeOf(error) !== 'ENOTEMPTY' && codeOf(error) !== 'EEXIST') throw error;
            this.#conflict(step.path, 'delete', 'the host put new entries in this folder during the call; it is kept with them');
            return;
          }
          this.#record(step.change);
          return;
        case 'place':
        case 'folder':
          this.#commitPlace(step);
          return;
        case 'append':
          this.#commitAppend(step);
          return;
      }
    } catch (error) {
      // The host refused what was staged (permissions, a read-only mount): that entry stays as it was.
      this.#skipped.push({ path: step.kind === 'chmod' ? step.change.path : step.path, reason: `the host refused to take it (${codeOf(error)})` });
      if (step.kind === 'append') fs.rmSync(step.scratch.entry(step.tail), { force: true });
      if (step.kind === 'place' || step.kind === 'folder') fs.rmSync(step.host.entry(step.temporary), { recursive: true, force: true });
    }
  }

  /** Appends a grown file's tail where the host file is still what the last pass left; a failed append is cut back. */
  #commitAppend(step: Extract<Step, { kind: 'append' }>): void {
    try {
      const now = step.host.lstatExact(step.name);
      if (now === undefined || identity(now) !== step.expect) {
        // The host changed it meanwhile: the next pass takes the command's file again (a conflict).
        this.#judged?.delete(step.upperKey);
        return;
      }
      const fd = fs.openSync(step.host.entry(step.name), fs.constants.O_WRONLY | fs.constants.O_APPEND | O_NOFOLLOW);
      try {
        if (fs.fstatSync(fd).size !== step.size) {
          this.#judged?.delete(step.upperKey);
          return;
        }
        try {
          appendRegularFile(step.scratch.entry(step.tail), fd);
        } catch (error) {
          fs.ftruncateSync(fd, step.size);
          throw error;
        }
      } finally {
        fs.closeSync(fd);
      }
      this.#record(step.change);
      const placed = step.host.lstatExact(step.name);
      if (placed !== undefined) this.#base?.seen.set(step.path, identity(placed));
    } finally {
      fs.rmSync(step.scratch.entry(step.tail), { force: true });
    }
  }

  #commitPlace(step: Extract<Step, { kind: 'place' | 'folder' }>): void {
    const { host, name, temporary, path } = step;
    const operation = step.kind === 'folder' ? 'create' : step.operation;
    const now = host.lstatExact(name);
    const expected = step.expect === 'absent' ? now === undefined : now !== undefined && identity(now) === step.expect;
    if (!expected) {
      const reason = now === undefined ? 'the host removed this entry during the call' : step.expect === 'absent' ? 'the host created this entry during the call' : 'the host changed this entry during the call';
      this.#conflictOfStaged(host.entry(temporary), path, operation, reason, true);
      fs.rmSync(host.entry(temporary), { recursive: true, force: true });
      return;
    }
    if (step.kind === 'place' && step.expect === 'absent') {
      // Never replaces what the host made meanwhile: a link fails when the name exists.
      try {
        fs.linkSync(host.entry(temporary), host.entry(name));
        fs.unlinkSync(host.entry(temporary));
      } catch (error) {
        if (codeOf(error) === 'EEXIST') {
          this.#conflictOfStaged(host.entry(temporary), path, operation, 'the host created this entry during the call', true);
          fs.rmSync(host.entry(temporary), { recursive: true, force: true });
          return;
        }
        if (host.lstat(name) !== undefined) throw error;
        fs.renameSync(host.entry(temporary), host.entry(name)); // a file system without hard links
      }
    } else {
      if (step.kind === 'folder' && now !== undefined) fs.unlinkSync(host.entry(name)); // the file or link it replaces, compared above
      fs.renameSync(host.entry(temporary), host.entry(name));
    }
    for (const change of step.changes) this.#record(change);
    if (this.#base !== undefined && step.kind === 'place') {
      const placed = host.lstatExact(name);
      if (placed !== undefined) this.#base.seen.set(path, identity(placed));
    }
  }
}

/** Names whose content the judge reads (a repository's files): never applied by their tail. */
const contentJudged = new Set(['config', 'HEAD', 'commondir', 'config.worktree']);

/** Runs a generator to its end at once: its value. */
function drain<T>(generator: Generator<void, T, void>): T {
  for (;;) {
    const step = generator.next();
    if (step.done === true) return step.value;
  }
}

function readLink(path: fs.PathLike): string {
  return pathFromBytes(fs.readlinkSync(path, { encoding: 'buffer' }));
}
