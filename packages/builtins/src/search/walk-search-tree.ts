import { escapePath, hasRawBytes, NodeFileSystem, pathToBytes, type DirectoryEntry } from '@openwork/fs-backend';
import type { SandboxPolicy } from '@openwork/sandbox';
import type { CheckedPath } from '../context/checked-path.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { compareCodePoints } from './compare-code-points.js';
import { CredentialFence } from './credential-fence.js';
import type { IgnoreRules } from './ignore-rules.js';
import { readIgnoreFile } from './load-ignore-rules.js';

/** One file the walk found. */
export interface WalkedFile {
  /** Canonical absolute path (the walk follows no link, so it is real). */
  readonly path: string;
  /** Relative to the search root, `/`-separated: what glob patterns are matched against. */
  readonly relativePath: string;
  /** How results show it: relative to the workspace when inside it (§7.6), bytes that are not UTF-8 as `\xNN` (exact file names). */
  readonly displayPath: string;
  /** What `node:fs` is given for it: `path`, or its bytes when it holds one that is not UTF-8 (exact file names). */
  readonly nodePath: string | Buffer;
}

export interface SearchWalkOptions {
  readonly session: ToolSessionContext;
  readonly policy: SandboxPolicy;
  /** The checked search root, a directory. */
  readonly root: CheckedPath;
  /** The rules in force at the root (`loadIgnoreRules`). */
  readonly rules: IgnoreRules;
  /** Asked per directory and per file (§7.6: cancellation and the limit); `true` ends the walk. */
  readonly shouldStop: () => boolean;
  readonly signal: AbortSignal;
  /** Files whose relative path fails this are not reported (the glob filter). */
  readonly accept?: (relativePath: string) => boolean;
  /** Each file, in walk order; awaited, so a slow consumer slows the walk (bounded memory). */
  readonly onFile: (file: WalkedFile) => void | Promise<void>;
}

/** Directory listings in flight at once: the walk waits on the thread pool, not on the CPU. */
const LISTINGS_IN_FLIGHT = 16;

/** A directory's entries, or `undefined` when it cannot be listed or was swapped for a link. */
type Listing = Promise<DirectoryEntry[] | undefined>;

/** Synchronous listings of local folders between two turns of the event loop. */
const FOLDERS_BETWEEN_YIELDS = 32;

/**
 * The one traversal of grep and glob (§7.6, §7.7): depth first, entries of a directory in code
 * point order (a stable walk order), `.gitignore` rules applied inside a git repository (the
 * search root's or one the walk enters) and `.ignore` files everywhere (`IgnoreRules`), like git
 * and ripgrep; hidden files and folders skipped, symbolic links neither followed nor listed,
 * FIFOs and devices skipped, and no credential path listed or read (acceptance 10b): every entry
 * is checked against the call's policy, except below a directory the `CredentialFence` proves
 * holds no credential path. Unreadable directories are skipped. Listings of the folders ahead
 * are started early (a few at a time) so the walk does not wait for each one in turn. Returns
 * `false` when `shouldStop` ended it.
 */
export async function walkSearchTree(options: SearchWalkOptions): Promise<boolean> {
  const walk = new SearchWalk(options);
  return walk.directory(options.root.path, '', options.rules, walk.list(options.root.path, true), true);
}

class SearchWalk {
  readonly #options: SearchWalkOptions;
  readonly #fence: CredentialFence;
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];

  /** The session's file system when it is the plain `NodeFileSystem` (not a host's own). */
  readonly #local: NodeFileSystem | undefined;
  #sinceYield = 0;
  /** The workspace roots: a file that is one shows as `displayPath` says, not as folder + name. */
  readonly #roots: ReadonlySet<string>;

  constructor(options: SearchWalkOptions) {
    this.#options = options;
    this.#fence = new CredentialFence(options.policy);
    this.#roots = new Set(options.session.workspaceRoots);
    const filesystem = options.session.filesystem;
    this.#local = Object.getPrototypeOf(filesystem) === NodeFileSystem.prototype ? (filesystem as NodeFileSystem) : undefined;
  }

  /** Lists `path`; after the listing, a folder that is now a link (swapped in) counts as unlistable. */
  list(path: string, isRoot = false): Listing {
    const filesystem = this.#options.session.filesystem;
    if (this.#local !== undefined) {
      // The local file system: one synchronous readdir and lstat per folder (`listFolderSync`).
      if (this.#options.shouldStop()) return Promise.resolve(undefined);
      const entries = this.#local.listFolderSync(path);
      // Every few folders the walk gives the event loop a turn, so a cancellation (an MCP
      // notification, a host's abort) can arrive during a long walk that finds nothing to read.
      this.#sinceYield += 1;
      if (this.#sinceYield < FOLDERS_BETWEEN_YIELDS) return Promise.resolve(entries);
      this.#sinceYield = 0;
      return new Promise((resolve) => setImmediate(() => resolve(entries)));
    }
    const run = async (): Promise<DirectoryEntry[] | undefined> => {
      if (this.#options.shouldStop()) return undefined;
      try {
        const entries = await filesystem.readdir(path, { signal: this.#options.signal });
        if (!isRoot && (await filesystem.lstat(path)).kind !== 'directory') return undefined;
        return entries;
      } catch {
        return undefined;
      }
    };
    return this.#limited(run);
  }

  async #limited<T>(task: () => Promise<T>): Promise<T> {
    if (this.#inFlight >= LISTINGS_IN_FLIGHT) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#inFlight += 1;
    try {
      return await task();
    } finally {
      this.#inFlight -= 1;
      this.#waiting.shift()?.();
    }
  }

  /**
   * Walks one listed folder. `fenced` is whether its parent may hold credential paths: a folder
   * below one proven clear is clear too (nothing unreadable is at or below the parent, and the
   * parent is inside none), so the fence's prefix scan runs only until a folder is proven clear
   * (it was a fifth of glob's CPU, search performance).
   */
  async directory(path: string, relative: string, inherited: IgnoreRules, listing: Listing, fenced: boolean): Promise<boolean> {
    const options = this.#options;
    if (options.shouldStop()) return false;
    const entries = await listing;
    if (entries === undefined) return true;
    const checkEach = fenced && this.#fence.mayHoldCredentials(path);
    // Every file shows as this folder's display path and its name (§7.6), but for the rare file
    // that is itself a workspace root (then `displayPath` decides).
    const shownFolder = options.session.displayPath(path);
    const shownPrefix = shownFolder === '.' ? '' : shownFolder === '/' ? '/' : `${shownFolder}/`;
    // Search performance: checked once per folder and per (short) name rather than per full path.
    const folderHasRawBytes = hasRawBytes(path);
    let rules = inherited;
    const has = (name: string, kind: DirectoryEntry['kind']) => entries.some((entry) => entry.name === name && entry.kind === kind);
    const readHere = (name: string) => readIgnoreFile(options.session, join(path, name), checkEach ? options.policy : undefined);
    if (relative !== '' && (has('.git', 'directory') || has('.git', 'file'))) {
      // A repository inside the tree (or the first one of a tree outside any): its own git rules.
      rules = rules.enteringRepository();
      const exclude = has('.git', 'directory') ? await readHere('.git/info/exclude') : undefined;
      if (exclude !== undefined) rules = rules.withGitignore(path, exclude);
    }
    if (has('.ignore', 'file')) {
      const patterns = await readHere('.ignore');
      if (patterns !== undefined) rules = rules.withIgnoreFile(path, patterns);
    }
    if (rules.inRepository && has('.gitignore', 'file')) {
      const patterns = await readHere('.gitignore');
      if (patterns !== undefined) rules = rules.withGitignore(path, patterns);
    }
    entries.sort((left, right) => compareCodePoints(left.name, right.name));
    // Keep what the walk will visit, and start listing the folders among it.
    const visit: { entry: DirectoryEntry; path: string; listing: Listing | undefined }[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const isDirectory = entry.kind === 'directory';
      if (!isDirectory && entry.kind !== 'file') continue;
      const entryPath = join(path, entry.name);
      if (rules.ignores(entryPath, isDirectory)) continue;
      if (checkEach && !this.#fence.readable(entryPath)) continue;
      visit.push({ entry, path: entryPath, listing: isDirectory ? this.list(entryPath) : undefined });
    }
    for (let index = 0; index < visit.length; index += 1) {
      const { entry, path: entryPath, listing } = visit[index]!;
      const entryRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (listing !== undefined) {
        if (!(await this.directory(entryPath, entryRelative, rules, listing, checkEach))) return false;
        continue;
      }
      if (options.accept !== undefined && !options.accept(entryRelative)) continue;
      if (options.shouldStop()) return false;
      const nameHasRawBytes = hasRawBytes(entry.name);
      const shown = this.#roots.has(entryPath) ? options.session.displayPath(entryPath) : `${shownPrefix}${nameHasRawBytes ? escapePath(entry.name) : entry.name}`;
      const nodePath = folderHasRawBytes || nameHasRawBytes ? pathToBytes(entryPath) : entryPath;
      // Awaited only when it returns a promise (most files are taken synchronously).
      const taken = options.onFile({ path: entryPath, relativePath: entryRelative, displayPath: shown, nodePath });
      if (taken !== undefined) await taken;
    }
    return true;
  }
}

function join(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}
