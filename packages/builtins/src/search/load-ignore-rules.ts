import { checkAccess, type SandboxPolicy } from '@openwork/sandbox';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { IgnoreRules } from './ignore-rules.js';

/** An ignore file larger than this is not read (nobody writes one; it bounds memory). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

function parentOf(path: string): string | undefined {
  if (path === '/') return undefined;
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

function join(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

/**
 * The patterns of an ignore file, or `undefined` when it cannot be read, is not a regular file,
 * or the policy does not let this call read it (a credential path is never read, 10b).
 */
export async function readIgnoreFile(session: ToolSessionContext, path: string, policy?: SandboxPolicy): Promise<string | undefined> {
  if (policy !== undefined && !checkAccess(policy, path, 'read', 'file-tool').allowed) return undefined;
  try {
    if ((await session.filesystem.lstat(path)).kind !== 'file') return undefined;
    const bytes = await session.filesystem.readFile(path, { maxBytes: MAX_IGNORE_FILE_BYTES });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  } catch {
    return undefined;
  }
}

async function exists(session: ToolSessionContext, path: string): Promise<boolean> {
  try {
    await session.filesystem.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The nearest directory at or above `root` that holds a `.git` (a folder, or a worktree's file). */
async function findRepositoryRoot(session: ToolSessionContext, root: string): Promise<string | undefined> {
  for (let directory: string | undefined = root; directory !== undefined; directory = parentOf(directory)) {
    if (await exists(session, join(directory, '.git'))) return directory;
  }
  return undefined;
}

/**
 * Where `info/exclude` of the repository at `repository` is: in `.git/`, or, for a worktree or a
 * submodule whose `.git` is a file (`gitdir: …`), in the common git directory it leads to.
 */
async function excludeFilePath(session: ToolSessionContext, repository: string, policy: SandboxPolicy): Promise<string | undefined> {
  const dotGit = join(repository, '.git');
  let kind;
  try {
    kind = (await session.filesystem.lstat(dotGit)).kind;
  } catch {
    return undefined;
  }
  if (kind === 'directory') return `${dotGit}/info/exclude`;
  const pointer = await readIgnoreFile(session, dotGit, policy);
  const gitDirectory = /^gitdir:\s*(.+?)\s*$/m.exec(pointer ?? '')?.[1];
  if (gitDirectory === undefined) return undefined;
  const gitPath = gitDirectory.startsWith('/') ? gitDirectory : join(repository, gitDirectory);
  const common = (await readIgnoreFile(session, join(gitPath, 'commondir'), policy))?.trim();
  const commonPath = common === undefined || common === '' ? gitPath : common.startsWith('/') ? common : join(gitPath, common);
  return `${commonPath}/info/exclude`;
}

/**
 * The ignore rules in force at the search root `root` (absolute, canonical): every `.ignore` file
 * from `/` down to the root's parent; inside a git repository also the repository's `info/exclude`
 * and every `.gitignore` from the repository root down to the root's parent (like git and
 * ripgrep, `.gitignore` files count only inside one). The root's own files and deeper ones are
 * read by the walk. When those rules ignore the root itself — the model asked for an ignored
 * folder by name — only the rules found inside it apply, so an explicit path is always searched.
 */
export async function loadIgnoreRules(session: ToolSessionContext, root: string, policy: SandboxPolicy): Promise<IgnoreRules> {
  const repository = await findRepositoryRoot(session, root);
  const fresh = repository === undefined ? IgnoreRules.none : IgnoreRules.repository;
  let rules = fresh;
  if (repository !== undefined) {
    const exclude = await excludeFilePath(session, repository, policy);
    const excludePatterns = exclude === undefined ? undefined : await readIgnoreFile(session, exclude, policy);
    if (excludePatterns !== undefined) rules = rules.withGitignore(repository, excludePatterns);
  }
  const ancestors: string[] = [];
  for (let directory = parentOf(root); directory !== undefined; directory = parentOf(directory)) ancestors.unshift(directory);
  for (const directory of ancestors) {
    const ignored = await readIgnoreFile(session, join(directory, '.ignore'), policy);
    if (ignored !== undefined) rules = rules.withIgnoreFile(directory, ignored);
    if (repository === undefined || !isAtOrBelow(directory, repository)) continue;
    const patterns = await readIgnoreFile(session, join(directory, '.gitignore'), policy);
    if (patterns !== undefined) rules = rules.withGitignore(directory, patterns);
  }
  for (let path: string | undefined = root; path !== undefined && path !== '/'; path = parentOf(path)) {
    if (rules.ignores(path, true)) return fresh;
  }
  return rules;
}

function isAtOrBelow(path: string, directory: string): boolean {
  return path === directory || directory === '/' || path.startsWith(`${directory}/`);
}
