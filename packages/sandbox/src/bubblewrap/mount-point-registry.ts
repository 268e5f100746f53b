// Only `node:` imports and erasable types here: the reaper (`runMountPointReaper`) runs this very
// file in a detached Node process, from `dist/` or, under the tests, from the TypeScript source.
import * as fs from 'node:fs';

/** A host node OpenWork created as a mount point: an empty folder, or a file holding `content`. */
export interface PlantedNode {
  readonly path: string;
  readonly content: string;
}

/** One call's registration: what it created, and every host path its mounts stand on. */
export interface RegisteredClaim {
  readonly file: string;
  readonly created: readonly PlantedNode[];
}

interface ClaimRecord {
  readonly created: readonly PlantedNode[];
  readonly stands: readonly string[];
}

interface RegistrySnapshot {
  /** Claims whose mounts may still exist: live owners, and owners dead for less than the grace period. */
  readonly standing: ClaimRecord[];
  /** Released claims and claims of owners dead long enough, by file name. */
  readonly leftovers: Map<string, ClaimRecord>;
  /** Whether a dead owner's claim is still inside its grace period (someone must sweep again). */
  readonly pendingDead: boolean;
}

/**
 * How long the claims of an owner found dead keep standing (§3.7): the kernel kills bwrap
 * (`--die-with-parent`) and its PID namespace only after the host's descriptors closed, so the
 * sandboxed processes may live a few milliseconds longer than their host.
 */
export const deadOwnerGraceMs = 500;
const conflictWaitLimitMs = 10_000;

/** Parents of the folder that creating it created, deepest first (removed with it). */
const createdFoldersFile = 'created-folders';

/** This module, for the reaper to import (`startMountPointReaper`). */
export const mountPointRegistryModule = import.meta.url;

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readText(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `state start-time` of a process from `/proc/<pid>/stat` (fields 3 and 22), or undefined when it is gone. */
function processState(pid: number): { readonly state: string; readonly startTime: string } | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', startTime: fields[19] ?? '' };
}

/** Numbers the records of this process, across every registry object (file names must not collide). */
let sequence = 0;

const bootId = (readText('/proc/sys/kernel/random/boot_id') ?? 'unknown').trim().replace(/-/g, '').slice(0, 12);

/**
 * An owner is a process: boot, pid and start time, so that a reused pid (or a reboot) is never
 * taken for the process that wrote a claim.
 */
export function ownerOf(pid: number): string | undefined {
  const state = processState(pid);
  return state === undefined ? undefined : `${bootId}-${pid}-${state.startTime}`;
}

/** Whether the process that wrote `owner` is still running (a zombie is not). */
export function isOwnerAlive(owner: string): boolean {
  const [boot, pid, startTime] = owner.split('-');
  if (boot !== bootId || pid === undefined || !/^[0-9]+$/.test(pid)) return false;
  const state = processState(Number(pid));
  return state !== undefined && state.startTime === startTime && state.state !== 'Z' && state.state !== 'X';
}

/** `<kind>.<owner>.<sequence>.json` → owner, or undefined for names that are not ours. */
function ownerOfFile(name: string): string | undefined {
  const parts = name.split('.');
  return parts.length === 4 && parts[3] === 'json' ? parts[1] : undefined;
}

function isStoodOn(path: string, standing: readonly ClaimRecord[]): boolean {
  const below = `${path}/`;
  return standing.some((claim) => claim.stands.some((stand) => stand === path || stand.startsWith(below)));
}

function depth(path: string): number {
  return path.split('/').length;
}

/**
 * Remove `node` only if it is still exactly what was planted: an empty folder, or a regular file
 * with the planted content. Never follows a link: lstat, rmdir and unlink act on the entry
 * itself, and a parent that no longer resolves to itself is left alone (Node has no `unlinkat`,
 * so a link swapped in between that check and the removal remains a race — README, known limits).
 * `removed`: it was ours and is gone now; `resolved`: nothing of ours is there (gone already, or
 * someone else's now); `failed`: something unexpected (EACCES), to be tried again by a later sweep.
 */
function removeIfStillOurs(node: PlantedNode): 'removed' | 'resolved' | 'not-empty' | 'failed' {
  try {
    // Records hold canonical paths: a parent that resolves elsewhere now was replaced by a link
    // (`.git` → `~`), and what lies behind it is not ours.
    const parent = node.path.slice(0, node.path.lastIndexOf('/')) || '/';
    if (fs.realpathSync.native(parent) !== parent) return 'resolved';
    const stats = fs.lstatSync(node.path, { throwIfNoEntry: false });
    if (stats === undefined) return 'resolved';
    if (stats.isFile()) {
      const ours = stats.size === Buffer.byteLength(node.content) && (node.content === '' || fs.readFileSync(node.path, 'utf8') === node.content);
      if (!ours) return 'resolved';
      fs.unlinkSync(node.path);
      return 'removed';
    }
    if (stats.isDirectory()) {
      fs.rmdirSync(node.path);
      return 'removed';
    }
    return 'resolved'; // links, devices, sockets, filled files: someone else's now, not ours to remove
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return 'not-empty';
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'resolved' : 'failed';
  }
}

/**
 * The machine-wide record of the host mount points OpenWork planted (architecture §3.7 "many at
 * once", "crashes"): one folder, one file per call, no lock. A call registers (`register`) before
 * it creates anything and before bwrap starts; a released or dead call's nodes are removed by
 * whoever sweeps next (`sweep`: any release, start-up recovery, the reaper) once no standing claim
 * of any process stands on them. Removal and registration exclude each other like Dekker's
 * algorithm: a remover publishes a `removing` marker and then reads the claims; a claimer publishes
 * its claim and then reads the markers; whichever comes second sees the other.
 */
export class MountPointRegistry {
  readonly directory: string;
  readonly owner: string;

  /**
   * The folder is created by the first record and removed by the reaper when its host ends and
   * nothing is recorded any more (§3.7: nothing of ours outlives the session that needed it),
   * with the parents that creating it created (`run`, or an OpenWork home that did not exist).
   */
  constructor(directory: string) {
    this.directory = directory;
    const owner = ownerOf(process.pid);
    if (owner === undefined) throw new Error('cannot read /proc/self/stat: the mount-point registry needs /proc');
    this.owner = owner;
  }

  /**
   * Changes whenever a sweep removed something (and `absent` while the folder does not exist): a
   * rendering made before a change may be stale.
   */
  generation(): string {
    const stats = fs.statSync(`${this.directory}/generation`, { throwIfNoEntry: false });
    if (stats !== undefined) return `${stats.ino}:${stats.mtimeMs}`;
    return fs.existsSync(this.directory) ? 'initial' : 'absent';
  }

  /**
   * Publish a claim for a call rendered at `generation`. Returns undefined when the rendering may
   * be stale (a removal ran meanwhile or is running on a path the call stands on): nothing stays
   * registered, and the caller renders again.
   */
  register(created: readonly PlantedNode[], stands: readonly string[], generation: string): RegisteredClaim | undefined {
    // Nothing recorded anywhere before and after the rendering, and nothing to create: no node of
    // ours exists that this call could stand on, so it needs no record (and makes no folder).
    if (created.length === 0 && generation === 'absent' && this.generation() === 'absent') return { file: '', created };
    const file = this.#write('active', { created, stands });
    const conflicts = this.#removalsTouching(stands);
    const now = this.generation();
    // `absent` → `initial`: the folder was created (by us, just now), nothing was removed since.
    if (conflicts.length === 0 && (now === generation || (generation === 'absent' && now === 'initial'))) return { file, created };
    fs.rmSync(`${this.directory}/${file}`, { force: true });
    this.#awaitRemovals(conflicts);
    return undefined;
  }

  /** The call has ended: its nodes become leftovers that the sweep removes once nobody stands on them. */
  release(claim: RegisteredClaim): string[] {
    if (claim.file === '') return [];
    const from = `${this.directory}/${claim.file}`;
    if (claim.created.length === 0) fs.rmSync(from, { force: true });
    else fs.renameSync(from, `${this.directory}/${claim.file.replace(/^active\./, 'left.')}`);
    return this.sweep().failures;
  }

  /** Remove every leftover node no standing claim needs. Also start-up recovery and the reaper's job. */
  sweep(): { readonly failures: string[]; readonly pendingDead: boolean } {
    const snapshot = this.#snapshot();
    const candidates = new Map<string, PlantedNode>();
    for (const record of snapshot.leftovers.values()) {
      for (const node of record.created) if (!isStoodOn(node.path, snapshot.standing)) candidates.set(node.path, node);
    }
    if (candidates.size === 0) {
      this.#prune(snapshot, new Set());
      return { failures: [], pendingDead: snapshot.pendingDead };
    }
    const marker = this.#write('removing', { created: [...candidates.values()], stands: [] });
    try {
      const standing = this.#snapshot().standing; // claims published after our first read
      const resolved = new Set<string>();
      const failures: string[] = [];
      let removed = false;
      for (const node of [...candidates.values()].sort((a, b) => depth(b.path) - depth(a.path))) {
        if (isStoodOn(node.path, standing)) continue;
        const outcome = removeIfStillOurs(node);
        if (outcome === 'failed') failures.push(node.path);
        else if (outcome !== 'not-empty' || !this.#hasPendingBelow(node.path, snapshot, resolved)) resolved.add(node.path);
        // Only a removal changes what a rendering saw (a node found gone or not ours changes nothing).
        removed ||= outcome === 'removed';
      }
      if (removed) this.#write('generation', { created: [], stands: [] }, 'generation');
      this.#prune(snapshot, resolved);
      return { failures, pendingDead: snapshot.pendingDead };
    } finally {
      fs.rmSync(`${this.directory}/${marker}`, { force: true });
    }
  }

  /**
   * Remove the folder (and its removable parents) if it holds nothing but `generation`: the
   * reaper's last step, once its host has ended. rmdir fails while any claim is in it; a claimer
   * that rendered before sees the generation change (`initial` or a counter → `absent`). Never
   * during a host's life: `absent` → `initial` must mean "nothing was removed in between".
   */
  removeFolderIfEmpty(): void {
    try {
      const names = fs.readdirSync(this.directory);
      if (names.some((name) => name !== 'generation' && name !== createdFoldersFile)) return;
      const created = JSON.parse(readText(`${this.directory}/${createdFoldersFile}`) ?? '[]') as string[];
      fs.rmSync(`${this.directory}/generation`, { force: true });
      fs.rmSync(`${this.directory}/${createdFoldersFile}`, { force: true });
      fs.rmdirSync(this.directory);
      for (const folder of created) fs.rmdirSync(folder);
    } catch {
      // ENOENT, ENOTEMPTY: someone else's now, or already gone
    }
  }

  /** A folder we could not remove because it is not empty stays recorded while a node of ours below it is. */
  #hasPendingBelow(path: string, snapshot: RegistrySnapshot, resolved: ReadonlySet<string>): boolean {
    const below = `${path}/`;
    for (const record of snapshot.leftovers.values()) {
      if (record.created.some((node) => node.path.startsWith(below) && !resolved.has(node.path))) return true;
    }
    return false;
  }

  /** Rewrite or delete leftover files once some of their nodes are resolved. */
  #prune(snapshot: RegistrySnapshot, resolved: ReadonlySet<string>): void {
    for (const [name, record] of snapshot.leftovers) {
      const remaining = record.created.filter((node) => !resolved.has(node.path));
      // A record that created nothing (a call that only stood on others' mount points, then its
      // host died) has nothing left to wait for: it goes too, or records piled up for good.
      if (remaining.length === record.created.length && remaining.length > 0) continue;
      if (remaining.length === 0) fs.rmSync(`${this.directory}/${name}`, { force: true });
      else this.#write('left', { created: remaining, stands: [] }, name);
    }
  }

  /** Read every claim; mark newly found dead owners' claims (`dead.*`, mtime = when found dead). */
  #snapshot(): RegistrySnapshot {
    const standing: ClaimRecord[] = [];
    const leftovers = new Map<string, ClaimRecord>();
    let pendingDead = false;
    const alive = new Map<string, boolean>();
    const isAlive = (owner: string): boolean => {
      let known = alive.get(owner);
      if (known === undefined) alive.set(owner, (known = owner === this.owner || isOwnerAlive(owner)));
      return known;
    };
    for (const name of this.#list()) {
      const owner = ownerOfFile(name.startsWith('.tmp.') ? name.slice(1) : name);
      if (owner === undefined) continue;
      const path = `${this.directory}/${name}`;
      if (name.startsWith('.tmp.') || name.startsWith('removing.')) {
        if (!isAlive(owner)) fs.rmSync(path, { force: true }); // a writer or remover that died mid-way
        continue;
      }
      const record = this.#read(path);
      if (record === undefined) continue;
      if (name.startsWith('left.')) {
        leftovers.set(name, record);
      } else if (name.startsWith('active.')) {
        standing.push(record); // a dead owner's claim keeps standing for the grace period
        if (!isAlive(owner)) pendingDead = this.#markDead(name) || pendingDead;
      } else if (name.startsWith('dead.')) {
        const stats = fs.statSync(path, { throwIfNoEntry: false });
        if (stats !== undefined && Date.now() - stats.mtimeMs >= deadOwnerGraceMs) leftovers.set(name, record);
        else (standing.push(record), (pendingDead = true));
      }
    }
    return { standing, leftovers, pendingDead };
  }

  /** Create the folder, remembering which of its parents did not exist (only those are ours to remove). */
  #createFolder(): void {
    const first = fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    this.#verifyPrivate();
    if (first === undefined || first === this.directory) return;
    const created: string[] = [];
    for (let folder = this.directory.slice(0, this.directory.lastIndexOf('/')); folder.length >= first.length; folder = folder.slice(0, folder.lastIndexOf('/'))) {
      created.push(folder);
    }
    fs.writeFileSync(`${this.directory}/${createdFoldersFile}`, JSON.stringify(created), { mode: 0o600, flag: 'wx' });
  }

  /**
   * The folder must be a real folder of this user that nobody else can write, in a parent that
   * nobody else can rename it out of (ours, or sticky like `/dev/shm`): in a shared place another
   * user could otherwise plant records that make us remove empty files of ours, or hide our claims.
   */
  #verifyPrivate(): void {
    const uid = process.getuid?.();
    const ours = (stats: fs.Stats): boolean => stats.isDirectory() && (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
    const folder = fs.lstatSync(this.directory);
    const parent = fs.lstatSync(this.directory.slice(0, this.directory.lastIndexOf('/')) || '/');
    if (!ours(folder) || !(ours(parent) || (parent.isDirectory() && (parent.mode & 0o1000) !== 0))) {
      throw new Error(`the mount-point registry ${this.directory} is not private: it must be a folder owned by uid ${String(uid)} that only its owner can write, in a folder nobody else can write or a sticky one; remove it or set BubblewrapBackendOptions.registryDirectory`);
    }
  }

  #list(): string[] {
    try {
      return fs.readdirSync(this.directory);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
  }

  #markDead(name: string): boolean {
    const target = `${this.directory}/${name.replace(/^active\./, 'dead.')}`;
    try {
      fs.renameSync(`${this.directory}/${name}`, target);
      const now = new Date();
      fs.utimesSync(target, now, now);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error; // another sweeper marked it first
    }
    return true;
  }

  #read(path: string): ClaimRecord | undefined {
    const text = readText(path);
    if (text === undefined) return undefined;
    try {
      const value = JSON.parse(text) as ClaimRecord;
      return Array.isArray(value.created) && Array.isArray(value.stands) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Write a record atomically (a temporary file renamed into place); returns its name. */
  #write(kind: string, record: ClaimRecord, name?: string): string {
    sequence += 1;
    const final = name ?? `${kind}.${this.owner}.${sequence}.json`;
    const temporary = `${this.directory}/.tmp.${this.owner}.${sequence}.json`; // see ownerOfFile
    try {
      fs.writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      this.#createFolder();
      fs.writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
    }
    fs.renameSync(temporary, `${this.directory}/${final}`);
    return final;
  }

  /** Live `removing` markers of other sweeps that touch a path in `stands` (a marker of our own process cannot be live here: sweeps are synchronous). */
  #removalsTouching(stands: readonly string[]): string[] {
    const conflicts: string[] = [];
    for (const name of this.#list()) {
      if (!name.startsWith('removing.')) continue;
      const record = this.#read(`${this.directory}/${name}`);
      if (record === undefined) continue;
      const standing = [{ created: [], stands }];
      if (record.created.some((node) => isStoodOn(node.path, standing))) conflicts.push(name);
    }
    return conflicts;
  }

  #awaitRemovals(markers: readonly string[]): void {
    const deadline = Date.now() + conflictWaitLimitMs;
    for (const marker of markers) {
      const owner = ownerOfFile(marker) ?? '';
      while (fs.existsSync(`${this.directory}/${marker}`)) {
        if (!isOwnerAlive(owner)) fs.rmSync(`${this.directory}/${marker}`, { force: true });
        else if (Date.now() > deadline) throw new Error(`another OpenWork process has been removing mount points for ${conflictWaitLimitMs} ms (${marker})`);
        else sleepSync(1);
      }
    }
  }
}

/**
 * The reaper's main (architecture §3.7 "within seconds without one"): wait until the host that
 * started us has ended (its end of our stdin closes, or it is gone from /proc), then sweep until
 * no claim of a dead owner is still inside its grace period.
 */
export async function runMountPointReaper(directory: string, host: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (!isOwnerAlive(host)) ended();
    }, 1000);
    function ended(): void {
      clearInterval(poll);
      resolve();
    }
    process.stdin.once('end', ended).once('close', ended).once('error', ended).resume();
  });
  process.stdin.destroy();
  // Sandboxes whose start the host's death cut short (their --die-with-parent was not armed yet)
  // first, then again for one that was still between fork and exec.
  killOrphanedSandboxes(host);
  await new Promise((resolve) => setTimeout(resolve, deadOwnerGraceMs));
  killOrphanedSandboxes(host);
  if (!fs.existsSync(directory)) return;
  const registry = new MountPointRegistry(directory);
  for (let round = 0; round < 20 && registry.sweep().pendingDead; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, deadOwnerGraceMs + 50));
  }
  registry.removeFolderIfEmpty();
}

/** The name every sandbox of one host carries in bwrap's argv (`sandboxOwnerArguments`). */
const sandboxOwnerVariable = 'OPENWORK_SANDBOX_OWNER';

/**
 * bwrap options that mark a sandbox with the process that started it (architecture §3.7 "no task
 * outlives its owner"). `--die-with-parent` arms itself only once bwrap runs: a host killed between
 * the fork and that moment (a few milliseconds, more on a loaded machine) left the sandbox running
 * for good, reparented to init. The mark lets the reaper, and any later OpenWork process, find such
 * a sandbox by its command line and end it. Inside, nothing changes.
 */
export function sandboxOwnerArguments(owner: string): string[] {
  // `--unsetenv` of a name nothing sets: the mark is in bwrap's argv only, the command's
  // environment stays exactly the session's (§7.9).
  return ['--unsetenv', `${sandboxOwnerVariable}_${owner}_${pidNamespace}`];
}

/**
 * This process's PID namespace: an owner is a pid of this namespace, so only marks made in it are
 * judged here (a container's sandboxes, seen from the machine's namespace, are left alone).
 */
const pidNamespace = (() => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid').replace(/[^0-9]/g, '');
  } catch {
    return 'unknown';
  }
})();

/** Processes of this user whose command line carries a sandbox owner mark of this namespace, with the owner. */
function markedSandboxes(): Array<{ readonly pid: number; readonly owner: string }> {
  const uid = process.getuid?.();
  const found: Array<{ pid: number; owner: string }> = [];
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return found;
  }
  for (const name of names) {
    if (!/^[0-9]+$/.test(name)) continue;
    const argv = (readText(`/proc/${name}/cmdline`) ?? '').split('\0');
    const at = argv.findIndex((argument, index) => index > 0 && argv[index - 1] === '--unsetenv' && argument.startsWith(`${sandboxOwnerVariable}_`));
    const mark = at < 0 ? undefined : (argv[at] as string).slice(sandboxOwnerVariable.length + 1);
    if (mark === undefined || !mark.endsWith(`_${pidNamespace}`)) continue;
    const realUid = /^Uid:\s+([0-9]+)/m.exec(readText(`/proc/${name}/status`) ?? '')?.[1];
    if (uid !== undefined && realUid !== String(uid)) continue;
    found.push({ pid: Number(name), owner: mark.slice(0, mark.lastIndexOf('_')) });
  }
  return found;
}

/**
 * SIGKILL every sandbox whose owner has ended: of `owner` only (the reaper of that host), or of any
 * owner no longer alive (start-up recovery). Killing bwrap ends its PID namespace, and with it every
 * process of the command. Returns how many were killed.
 */
export function killOrphanedSandboxes(owner?: string): number {
  if (owner !== undefined && isOwnerAlive(owner)) return 0;
  let killed = 0;
  for (const sandbox of markedSandboxes()) {
    if (owner !== undefined ? sandbox.owner !== owner : isOwnerAlive(sandbox.owner)) continue;
    try {
      process.kill(sandbox.pid, 'SIGKILL');
      killed += 1;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}
