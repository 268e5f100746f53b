import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compileSourcesForChild } from './test-support/compile-sources-for-child.js';
import { eventually, loginShell, processesWithArguments, startHost } from './test-support/host-processes.js';
import type { HostConfiguration } from './test-support/host-processes.js';
import { listTree, makeTempDirectory, requireBubblewrap } from './test-support/run-wrapped.js';

let build: string;
let root: string;
let configuration: HostConfiguration;

beforeAll(async () => {
  await requireBubblewrap();
  build = await compileSourcesForChild();
});

afterAll(async () => {
  if (build !== undefined) await fs.rm(build, { recursive: true, force: true });
});

/** The user's files: a home with only `.profile` (so bash -l reads it), a repository without hooks. */
beforeEach(async () => {
  root = await makeTempDirectory('ow-bwrap-crash-');
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const temp = path.join(root, 'tmp');
  const openworkHome = path.join(root, 'openwork-home');
  for (const folder of [path.join(workspace, '.git'), home, temp, openworkHome]) await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
  await fs.writeFile(path.join(home, '.profile'), 'echo profile-ran\n');
  // The call writes, plants and then sleeps: killed mid-call, none of it may reach the host.
  configuration = { workspace, home, temp, openworkHome, mode: 'workspace-write', calls: ['echo staged > ws-file; echo evil > .git/hooks-x 2>/dev/null; echo ready; exec sleep 59.25'], rounds: 1 };
});

afterEach(async () => {
  for (const pid of sandboxedSleeps()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended
    }
  }
  await fs.rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** Home and workspace, as `listTree` lines; a listing that raced with a removal is read again. */
async function userFiles(): Promise<string[]> {
  for (;;) {
    try {
      return await listUserFiles();
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
  }
}

async function listUserFiles(): Promise<string[]> {
  return [...(await listTree(configuration.home)).map((line) => `home ${line}`), ...(await listTree(configuration.workspace)).map((line) => `ws ${line}`)];
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

/** The sandboxed `sleep 59.25` of the killed host, if it survived it. */
function sandboxedSleeps(): number[] {
  return processesWithArguments('59.25');
}

/** The staging folders in the OpenWork home (where this layout stages: outside every writable folder). */
async function stagingFolders(): Promise<string[]> {
  return fs.readdir(path.join(configuration.openworkHome, 'staging')).catch(() => []);
}

describe('a host killed during a bash call leaves nothing behind (architecture §3.7 "crashes")', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`${signal}: the home and workspace are as before (nothing staged reaches them), the sandbox dies with its host, the next call removes the staging folder`, async () => {
      const before = await userFiles();
      const shellBefore = loginShell(configuration.home);
      const host = startHost(build, configuration);
      await host.printed('ready');
      // The call's writes are there, not on the host (beside the host's lock file, which it holds while it lives).
      expect((await stagingFolders()).filter((name) => !name.endsWith('.lock'))).toHaveLength(1);
      host.child.kill(signal);
      expect((await host.exited).signal).toBe(signal);
      expect(await eventually(() => sandboxedSleeps().length === 0, 5000)).toBe(true);
      expect(await userFiles()).toEqual(before);
      expect(loginShell(configuration.home)).toBe(shellBefore);
      expect(shellBefore).toContain('profile-ran');
      // Nothing was made for a missing name, so nothing waits for a reaper: only the staging folder
      // in OpenWork's own home, which the next call of any OpenWork process removes (with the killed
      // host's lock file, which it can take now: the lock went with the host).
      const next = startHost(build, { ...configuration, calls: ['echo hi > main.txt'] });
      expect(await next.exited).toMatchObject({ code: 0 });
      expect(await stagingFolders()).toEqual([]);
      expect(await fs.readFile(path.join(configuration.workspace, 'main.txt'), 'utf8')).toBe('hi\n');
    });
  }

  // bwrap arms --die-with-parent only once it runs: a host killed in the milliseconds before (more on
  // a loaded machine) leaves the sandbox running, reparented to init. `unarmed` starts bwrap without
  // the option, as it is in that window.
  it('SIGKILL while a sandbox had not armed --die-with-parent yet: the next call ends it (its arguments name the dead host\'s staging folder)', async () => {
    const before = await userFiles();
    const host = startHost(build, { ...configuration, unarmed: true });
    await host.printed('ready');
    const gone = new Promise((resolve) => host.child.once('exit', resolve));
    host.child.kill('SIGKILL');
    await gone;
    expect(sandboxedSleeps().length).toBeGreaterThan(0); // the orphan lives on, writing only into its own layer
    const next = startHost(build, { ...configuration, calls: ['true'] });
    expect(await next.exited).toMatchObject({ code: 0 });
    expect(await eventually(() => sandboxedSleeps().length === 0, 5000)).toBe(true);
    expect(await stagingFolders()).toEqual([]);
    expect(await userFiles()).toEqual(before);
  });

  it('a host that ends normally leaves no staging folder, and its writes are on the host', async () => {
    const host = startHost(build, { ...configuration, calls: ['true', 'echo hi > main.txt'] });
    expect(await host.exited).toMatchObject({ code: 0 });
    expect(await stagingFolders()).toEqual([]);
    expect(await fs.readFile(path.join(configuration.workspace, 'main.txt'), 'utf8')).toBe('hi\n');
  });
});
