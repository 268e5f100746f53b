import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend } from '../bubblewrap/bubblewrap-backend.js';
import { makeTempDirectory, requireBubblewrap, spawnSandboxed } from '../bubblewrap/test-support/run-wrapped.js';
import { createSandboxPolicy } from '../policy/create-sandbox-policy.js';

/**
 * A running command's writes are applied while it runs (`sync()`, background tasks), so the command
 * can change its upper layer while the host reads it: a folder swapped for a link to a host folder
 * between the host's look at it and its walk into it must never lead the host to read through the
 * link (architecture §3.7 races, §3.10). Each upper-layer entry is reached through folders opened
 * without following links.
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

describe('sync() against a command that swaps its folders for links', () => {
  it('a host folder outside every writable root never reaches the workspace through a swapped link', async () => {
    const home = path.join(base, 'home');
    const workspace = path.join(home, 'ws');
    const openworkHome = path.join(base, 'openwork-home');
    const secrets = path.join(base, 'secrets');
    for (const folder of [workspace, openworkHome, secrets]) fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(secrets, 'key'), 'SECRET-KEY\n');
    fs.mkdirSync(path.join(secrets, 'inner'));
    fs.writeFileSync(path.join(secrets, 'inner', 'key'), 'SECRET-KEY\n');
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, openworkHome });
    // Inside: `d` (and `e/f`) flip between a folder with a file named like the secret and a link
    // to the secrets folder, as fast as bash can.
    const loop = `for i in $(seq 1 200000); do mkdir -p d e/f; : > d/key; : > e/f/key; rm -rf d e/f; ln -s ${secrets} d; ln -s ${secrets} e/f; rm d e/f; done`;
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', loop], cwd: workspace }, policy);
    const { child, closed } = spawnSandboxed(wrapped.argv, workspace, 'ignore', 60_000);
    child.stdout.resume();
    child.stderr.resume();
    const leaked = (): string[] => {
      const found: string[] = [];
      const walk = (folder: string): void => {
        for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
          const full = path.join(folder, entry.name);
          if (entry.isDirectory()) walk(full);
          else if (entry.isFile() && fs.readFileSync(full, 'utf8').includes('SECRET')) found.push(full);
        }
      };
      walk(workspace);
      return found;
    };
    let rounds = 0;
    try {
      const deadline = Date.now() + 8_000;
      while (Date.now() < deadline) {
        await wrapped.sync?.();
        rounds += 1;
        expect(leaked(), `after ${rounds} syncs`).toEqual([]);
      }
    } finally {
      process.kill(-(child.pid as number), 'SIGKILL');
      await closed;
      await wrapped.release();
    }
    expect(leaked()).toEqual([]);
    expect(rounds).toBeGreaterThan(20);
  }, 60_000);

  it("a repository's config rewritten between safe and planted while it runs never arrives planted", async () => {
    const home = path.join(base, 'home-config');
    const workspace = path.join(home, 'ws');
    const openworkHome = path.join(base, 'openwork-home-config');
    for (const folder of [workspace, openworkHome]) fs.mkdirSync(folder, { recursive: true });
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    const repository = path.join(workspace, 'app');
    fs.mkdirSync(repository);
    execFileSync('git', ['init', '-q'], { cwd: repository, env });
    const original = fs.readFileSync(path.join(repository, '.git', 'config'), 'utf8');
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, openworkHome });
    // A config that may arrive (only keys that run nothing) and a planted one, written in place and
    // by rename, as fast as bash can.
    const loop = [
      'cd app/.git',
      'safe="$(cat config)"',
      `for i in $(seq 1 200000); do printf '%s\\n[user]\\n\\temail = a@b.invalid\\n' "$safe" > config; printf '[core]\\n\\tfsmonitor = touch planted\\n' > config; printf '%s\\n' "$safe" > c.new; mv c.new config; printf '[core]\\n\\tpager = touch planted\\n' > c.new; mv c.new config; done`,
    ].join('; ');
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', loop], cwd: workspace }, policy);
    const { child, closed } = spawnSandboxed(wrapped.argv, workspace, 'ignore', 60_000);
    child.stdout.resume();
    child.stderr.resume();
    const planted = (): boolean => /fsmonitor|pager/.test(fs.readFileSync(path.join(repository, '.git', 'config'), 'utf8'));
    let rounds = 0;
    let applied = 0;
    try {
      const deadline = Date.now() + 8_000;
      while (Date.now() < deadline) {
        const report = await wrapped.sync?.();
        if (report !== undefined && 'staged' in report) applied += (report as { staged: { changes: readonly unknown[] } }).staged.changes.length;
        rounds += 1;
        expect(planted(), `after ${rounds} syncs`).toBe(false);
      }
    } finally {
      process.kill(-(child.pid as number), 'SIGKILL');
      await closed;
      await wrapped.release();
    }
    expect(planted()).toBe(false);
    // The rule still lets a config that runs nothing arrive while the command runs.
    expect(applied).toBeGreaterThan(0);
    expect(original).not.toMatch(/fsmonitor|pager/);
  }, 60_000);

  it('a file truncated and replaced while it is copied never stalls the host: each sync() returns', async () => {
    const home = path.join(base, 'home-truncate');
    const workspace = path.join(home, 'ws');
    const openworkHome = path.join(base, 'openwork-home-truncate');
    for (const folder of [workspace, openworkHome]) fs.mkdirSync(folder, { recursive: true });
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, openworkHome });
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', 'for i in $(seq 1 400000); do printf abc > g; mv g f; : > f; done'], cwd: workspace }, policy);
    const { child, closed } = spawnSandboxed(wrapped.argv, workspace, 'ignore', 60_000);
    child.stdout.resume();
    child.stderr.resume();
    let rounds = 0;
    try {
      // A copy that waited for bytes a file truncated and unlinked meanwhile no longer has would never
      // return (a `copyFileSync` does): the test would time out.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        await wrapped.sync?.();
        rounds += 1;
      }
    } finally {
      process.kill(-(child.pid as number), 'SIGKILL');
      await closed;
      await wrapped.release();
    }
    expect(rounds).toBeGreaterThan(10);
    expect(['', 'abc']).toContain(fs.readFileSync(path.join(workspace, 'f'), 'utf8'));
  }, 30_000);
});
