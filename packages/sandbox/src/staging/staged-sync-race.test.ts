import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend } from '../bubblewrap/bubblewrap-backend.js';
import { makeTempDirectory, requireBubblewrap, spawnSandboxed } from '../bubblewrap/test-support/run-wrapped.js';
import { createSandboxPolicy } from '../policy/create-sandbox-policy.js';

/**
 * A running command's writes are applied while it runs (`sync()`, background tasks), so the command
 * can change its upper layer while the host reads it: a folder swapped for a link, a file rewritten
 * between its judgment and its copy, a file truncated during its copy. What reaches the host must
 * always be what was judged, read without following links, and every `sync()` must return
 * (architecture §3.7 races, §3.10; docs/decisions/0078).
 */

let base: string;
let backend: BubblewrapBackend;

beforeAll(async () => {
  await requireBubblewrap();
  base = await makeTempDirectory('ow-staged-race-');
  backend = new BubblewrapBackend();
  expect(await backend.selfCheck()).toEqual({ available: true });
});

afterAll(() => {
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
});

/** A home with a workspace in it, and an OpenWork home beside it, under `name`. */
function place(name: string): { readonly home: string; readonly workspace: string; readonly openworkHome: string } {
  const home = path.join(base, name, 'home');
  const workspace = path.join(home, 'ws');
  const openworkHome = path.join(base, name, 'openwork-home');
  for (const folder of [workspace, openworkHome]) fs.mkdirSync(folder, { recursive: true });
  return { home, workspace, openworkHome };
}

/**
 * Runs `loop` sandboxed in the workspace of `at` and calls `sync()` back to back for `ms`, calling
 * `afterEachSync` after each; then kills the command and releases it. How many syncs returned.
 */
async function syncWhileRunning(at: ReturnType<typeof place>, loop: string, ms: number, afterEachSync: (rounds: number, applied: number) => void): Promise<number> {
  const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [at.workspace], homeDirectory: at.home, openworkHome: at.openworkHome });
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', loop], cwd: at.workspace }, policy);
  const { child, closed } = spawnSandboxed(wrapped.argv, at.workspace, 'ignore', 60_000);
  child.stdout.resume();
  child.stderr.resume();
  let rounds = 0;
  try {
    // A sync that waited forever (a copy of a file truncated meanwhile) would end the test by its timeout.
    for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
      const report = await wrapped.sync?.();
      rounds += 1;
      const applied = report !== undefined && 'staged' in report ? (report as { staged: { changes: readonly unknown[] } }).staged.changes.length : 0;
      afterEachSync(rounds, applied);
    }
  } finally {
    process.kill(-(child.pid as number), 'SIGKILL');
    await closed;
    await wrapped.release();
  }
  return rounds;
}

/** The files below `folder` whose content holds `marker`. */
function filesHolding(folder: string, marker: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...filesHolding(full, marker));
    else if (entry.isFile() && fs.readFileSync(full, 'utf8').includes(marker)) found.push(full);
  }
  return found;
}

describe('sync() against the command it applies (real bubblewrap)', () => {
  it('a host folder outside every writable root never reaches the workspace through a swapped link', async () => {
    const at = place('links');
    const secrets = path.join(base, 'links', 'secrets');
    fs.mkdirSync(path.join(secrets, 'inner'), { recursive: true });
    fs.writeFileSync(path.join(secrets, 'key'), 'SECRET-KEY\n');
    fs.writeFileSync(path.join(secrets, 'inner', 'key'), 'SECRET-KEY\n');
    // `d` (and `e/f`) flip between a folder with a file named like the secret and a link to the
    // secrets folder, as fast as bash can.
    const loop = `for i in $(seq 1 200000); do mkdir -p d e/f; : > d/key; : > e/f/key; rm -rf d e/f; ln -s ${secrets} d; ln -s ${secrets} e/f; rm d e/f; done`;
    const rounds = await syncWhileRunning(at, loop, 8_000, (round) => expect(filesHolding(at.workspace, 'SECRET'), `after ${round} syncs`).toEqual([]));
    expect(filesHolding(at.workspace, 'SECRET')).toEqual([]);
    expect(rounds).toBeGreaterThan(20);
  }, 60_000);

  it("a repository's config rewritten between safe and planted while it runs never arrives planted", async () => {
    const at = place('config');
    const repository = path.join(at.workspace, 'app');
    fs.mkdirSync(repository);
    execFileSync('git', ['init', '-q'], { cwd: repository, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: at.home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    const config = path.join(repository, '.git', 'config');
    expect(fs.readFileSync(config, 'utf8')).not.toMatch(/fsmonitor|pager/);
    const planted = (): boolean => /fsmonitor|pager/.test(fs.readFileSync(config, 'utf8'));
    // A config that may arrive (only keys that run nothing) and a planted one, written in place and
    // by rename, as fast as bash can.
    const loop = [
      'cd app/.git',
      'safe="$(cat config)"',
      `for i in $(seq 1 200000); do printf '%s\\n[user]\\n\\temail = a@b.invalid\\n' "$safe" > config; printf '[core]\\n\\tfsmonitor = touch planted\\n' > config; printf '%s\\n' "$safe" > c.new; mv c.new config; printf '[core]\\n\\tpager = touch planted\\n' > c.new; mv c.new config; done`,
    ].join('; ');
    let applied = 0;
    await syncWhileRunning(at, loop, 8_000, (round, changes) => {
      applied += changes;
      expect(planted(), `after ${round} syncs`).toBe(false);
    });
    expect(planted()).toBe(false);
    // The rule still lets a config that runs nothing arrive while the command runs.
    expect(applied).toBeGreaterThan(0);
  }, 60_000);

  it('a file truncated and replaced while it is copied never stalls the host: each sync() returns', async () => {
    const at = place('truncate');
    const rounds = await syncWhileRunning(at, 'for i in $(seq 1 400000); do printf abc > g; mv g f; : > f; done', 5_000, () => undefined);
    expect(rounds).toBeGreaterThan(10);
    expect(['', 'abc']).toContain(fs.readFileSync(path.join(at.workspace, 'f'), 'utf8'));
  }, 30_000);
});
