import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { UnavailableSandboxBackend } from '@openwork/sandbox';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionSandboxPolicy } from '../context/session-sandbox-policy.js';
import { ToolSessionContext } from '../context/tool-session-context.js';
import { finalizeBuiltinToolset } from '../registry/builtin-registry.js';
import { SpillDirectory } from '../spill/spill-directory.js';

const run = promisify(execFile);
let scratch: string;
let gitEnvironment: NodeJS.ProcessEnv;

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), 'ow-walk-oracle-')));
  await mkdir(join(scratch, 'home'));
  // git without the user's global or system config: no global excludes file sneaks in.
  gitEnvironment = { ...process.env, HOME: join(scratch, 'home'), XDG_CONFIG_HOME: join(scratch, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Every file the walk visits under `root`, through a real `glob` call with `**` (the full list when over 100). */
async function walkedFiles(root: string, tag: string): Promise<string[]> {
  const home = join(scratch, 'home');
  const openworkHome = join(scratch, 'openwork');
  const session = new ToolSessionContext({
    workingDirectory: root,
    homeDirectory: home,
    openworkHome,
    sandbox: new UnavailableSandboxBackend('the oracle test needs no kernel sandbox'),
    environment: {},
    filesystem: new NodeFileSystem(),
    processBackend: new NodeProcessBackend(),
    spill: new SpillDirectory({ openworkHome, sessionId: 'oracle', homeDirectory: home }),
  });
  const toolset = await finalizeBuiltinToolset(session, { escalationAvailable: false });
  const result = await toolset.call('glob', { pattern: '**' }, { callId: tag, signal: new AbortController().signal, sandboxPolicy: sessionSandboxPolicy(session, { tempRoots: [] }) });
  const text = ToolResult.text(result);
  if (text.startsWith('No files match')) return [];
  const [body, footer] = text.split('\n\n');
  if (footer === undefined) return body!.split('\n').sort();
  expect(footer).toMatch(/full list saved to/);
  return (await readFile(join(openworkHome, 'spill', 'oracle', `${tag}.txt`), 'utf8')).trimEnd().split('\n').sort();
}

/** `git ls-files --cached --others --exclude-standard`, minus hidden paths, links and files gone from disk. */
async function gitFiles(root: string): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, env: gitEnvironment, maxBuffer: 64 * 1024 * 1024 });
  const listed = [...new Set(stdout.split('\0').filter((path) => path !== ''))];
  const kept: string[] = [];
  for (const path of listed) {
    if (path.split('/').some((part) => part.startsWith('.'))) continue;
    const stats = await lstat(join(root, path)).catch(() => undefined);
    if (stats?.isFile() === true) kept.push(path);
  }
  return kept.sort();
}

/** A small deterministic PRNG (mulberry32), so a failing tree can be rebuilt from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIRECTORY_NAMES = ['a', 'b', 'build', 'src', 'lib', 'tmp', 'deep', 'x y', 'node_modules', 'keep'];
const FILE_NAMES = ['x.txt', 'y.log', 'keep.log', 'z.md', 'top.txt', 'c.txt', 'a1', 'ab.txt', 'b.txt', 'README', 'main.rs', 'n o.txt', 'Z.LOG', 'tmp'];
const PATTERNS = [
  '*.log', '!keep.log', 'build/', '/top.txt', 'a/**/b', '**/tmp', '*.md', '!*.md', 'x*', 'src/', 'deep/*', '!deep/keep',
  '# a comment', '', 'b/*.txt', '!b/keep.txt', '*/c.txt', 'a?', '[ab].txt', 'README', '/lib', 'lib/', '*', '!*/', '!*.txt',
  'node_modules', 'main.rs', '!main.rs', 'x y/', 'n\\ o.txt', 'keep/', '!keep/', '**/deep/**', 'tmp/', '*.LOG', '\\#hash', 'a1 ',
];

/**
 * Random folders (up to three levels) of random files under `root`, a hidden file now and then
 * when `hidden`; returns the folders made, relative (`''` is the root).
 */
async function fillTree(root: string, next: () => number, hidden: boolean): Promise<string[]> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const directories = [''];
  const fill = async (directory: string, depth: number): Promise<boolean> => {
    // A file and a folder may want the same name ("tmp"): the first one wins.
    if (!(await mkdir(join(root, directory), { recursive: true }).then(() => true, () => false))) return false;
    for (let index = 0, count = 1 + Math.floor(next() * 4); index < count; index += 1) {
      await writeFile(join(root, directory, pick(FILE_NAMES)), 'x\n').catch(() => undefined);
    }
    if (hidden && next() < 0.15) await writeFile(join(root, directory, '.hidden.txt'), 'x\n');
    if (depth >= 3) return true;
    for (let index = 0, count = Math.floor(next() * 3); index < count; index += 1) {
      const child = directory === '' ? pick(DIRECTORY_NAMES) : `${directory}/${pick(DIRECTORY_NAMES)}`;
      if (directories.includes(child)) continue;
      if (await fill(child, depth + 1)) directories.push(child);
    }
    return true;
  };
  await fill('', 0);
  return directories;
}

async function generateTree(root: string, seed: number): Promise<void> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const directories = await fillTree(root, next, true);
  await run('git', ['init', '-q', root], { env: gitEnvironment });
  for (const directory of directories) {
    if (next() < 0.45) {
      const patterns = Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(PATTERNS));
      await writeFile(join(root, directory, '.gitignore'), `${patterns.join('\n')}\n`);
    }
  }
  if (next() < 0.3) await writeFile(join(root, '.git', 'info', 'exclude'), `${pick(PATTERNS)}\n${pick(PATTERNS)}\n`);
}

describe('the walk of grep and glob, with git as the oracle (§7.6 .gitignore)', () => {
  it('visits exactly the files git lists in this repository (hidden paths aside)', async () => {
    const { stdout } = await run('git', ['rev-parse', '--show-toplevel'], { cwd: dirname(fileURLToPath(import.meta.url)), env: gitEnvironment });
    const repository = await realpath(stdout.trim());
    const expected = await gitFiles(repository);
    expect(expected.length).toBeGreaterThan(100);
    expect(await walkedFiles(repository, 'this-repository')).toEqual(expected);
  });

  // 200 trees in four parts, eight at a time: git's own processes are most of the cost.
  for (const part of [0, 1, 2, 3]) {
    it(`visits exactly the files git lists in generated trees with random nested .gitignore files (seeds ${part * 50 + 1}–${part * 50 + 50})`, async () => {
      const seeds = Array.from({ length: 50 }, (_, index) => part * 50 + index + 1);
      for (let start = 0; start < seeds.length; start += 8) {
        await Promise.all(
          seeds.slice(start, start + 8).map(async (seed) => {
            const root = join(scratch, `tree-${seed}`);
            await generateTree(root, seed);
            const expected = await gitFiles(root);
            expect(await walkedFiles(root, `tree-${seed}`), `generated tree, seed ${seed}`).toEqual(expected);
          }),
        );
      }
    }, 300_000);
  }
});

/** `rg --files` under `root` (sorted, relative), without the user's config or global excludes. */
async function ripgrepFiles(root: string): Promise<string[]> {
  const { stdout } = await run('rg', ['--files', '--no-config', '--no-ignore-global', '--no-messages'], { cwd: root, env: gitEnvironment, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { code?: number; stdout?: string }) => (error.code === 1 ? { stdout: '' } : Promise.reject(error)),
  );
  // ripgrep lists a hidden path that an ignore file whitelists (`!*/`, `!.git`…); the spec skips
  // hidden files and folders whatever the ignore files say (§7.6), so those are left out.
  return stdout
    .split('\n')
    .filter((path) => path !== '')
    .map((path) => path.replace(/^\.\//, ''))
    .filter((path) => !path.split('/').some((part) => part.startsWith('.')))
    .sort();
}

/**
 * A tree like `generateTree`'s, but with what ripgrep's walk (the `ignore` crate the spec's walk
 * uses) knows beyond git: `.ignore` files anywhere, a root outside any repository, and
 * repositories nested in the tree (whose `.gitignore` files stop at their own root).
 */
async function generateRipgrepTree(root: string, seed: number): Promise<void> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const directories = await fillTree(root, next, false);
  const patterns = () => `${Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(PATTERNS)).join('\n')}\n`;
  if (next() < 0.6) await run('git', ['init', '-q', root], { env: gitEnvironment });
  for (const directory of directories) {
    if (directory !== '' && next() < 0.15) await run('git', ['init', '-q', join(root, directory)], { env: gitEnvironment });
    if (next() < 0.4) await writeFile(join(root, directory, '.gitignore'), patterns());
    if (next() < 0.3) await writeFile(join(root, directory, '.ignore'), patterns());
  }
}

describe('the walk of grep and glob, with ripgrep as the oracle (.ignore files, roots outside a repository, nested repositories)', () => {
  for (const part of [0, 1, 2, 3]) {
    it(`visits exactly the files \`rg --files\` lists in generated trees (seeds ${1001 + part * 40}–${1040 + part * 40})`, async () => {
      const seeds = Array.from({ length: 40 }, (_, index) => 1001 + part * 40 + index);
      for (let start = 0; start < seeds.length; start += 8) {
        await Promise.all(
          seeds.slice(start, start + 8).map(async (seed) => {
            const root = join(scratch, `rg-tree-${seed}`);
            await generateRipgrepTree(root, seed);
            const expected = await ripgrepFiles(root);
            const walked = await walkedFiles(root, `rg-tree-${seed}`);
            expect({ missing: expected.filter((path) => !walked.includes(path)), extra: walked.filter((path) => !expected.includes(path)) }, `generated tree, seed ${seed}`).toEqual({ missing: [], extra: [] });
          }),
        );
      }
    }, 300_000);
  }
});
