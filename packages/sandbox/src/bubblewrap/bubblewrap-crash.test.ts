import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ownerOf, sandboxOwnerArguments } from './mount-point-registry.js';
import { compileSourcesForChild } from './test-support/compile-sources-for-child.js';
import { eventually, loginShell, processesWithArguments, startHost } from './test-support/host-processes.js';
import type { HostConfiguration } from './test-support/host-processes.js';
import { listTree, makeTempDirectory, requireBubblewrap } from './test-support/run-wrapped.js';

let build: string;
let root: string;
let configuration: HostConfiguration;
let registry: string;

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
  registry = path.join(root, 'registry/mount-points');
  // full-access: home is writable, so its missing start-up files (.bash_profile, .bashrc, .ssh …) get placeholders.
  configuration = { workspace, home, temp, openworkHome, registryDirectory: registry, mode: 'full-access', calls: ['echo ready; exec sleep 59.25'], rounds: 1 };
});

afterEach(async () => {
  // Let a reaper still at work finish first, so that nothing is created after the removal.
  await eventually(() => processesWithArguments('--input-type=module', registry).length === 0, 5000);
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

describe('a host killed during a bash call leaves nothing behind (architecture §3.7 "crashes")', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`${signal}: within 5 s, without any other OpenWork process, the reaper removes every placeholder; bash -l starts exactly as before`, async () => {
      const before = await userFiles();
      const shellBefore = loginShell(configuration.home);
      const host = startHost(build, configuration);
      await host.printed('ready');
      // The call is running: its placeholders are on the host (this is what a crash used to leave).
      expect(await exists(path.join(configuration.home, '.bash_profile'))).toBe(true);
      expect(await exists(path.join(configuration.workspace, '.git/hooks'))).toBe(true);
      host.child.kill(signal);
      expect((await host.exited).signal).toBe(signal);

      const clean = await eventually(async () => JSON.stringify(await userFiles()) === JSON.stringify(before) && !(await exists(path.dirname(registry))), 5000);
      expect(await userFiles()).toEqual(before);
      expect(clean).toBe(true);
      expect(loginShell(configuration.home)).toBe(shellBefore);
      expect(shellBefore).toContain('profile-ran');
      // The sandboxed command died with its host (bwrap --die-with-parent and its PID namespace).
      expect(await eventually(() => sandboxedSleeps().length === 0, 5000)).toBe(true);
    });
  }

  it('SIGKILL of the host and of its reaper: the next OpenWork process removes everything when it starts (crash recovery)', async () => {
    const before = await userFiles();
    const shellBefore = loginShell(configuration.home);
    const crashed = startHost(build, configuration);
    await crashed.printed('ready');
    const reapers = processesWithArguments('--input-type=module', registry);
    expect(reapers).toHaveLength(1);
    process.kill(reapers[0] as number, 'SIGKILL');
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    await eventually(() => processesWithArguments('--input-type=module', registry).length === 0, 5000);
    // Nobody is left to clean up: the placeholders stay, with the records of the dead host.
    expect(await exists(path.join(configuration.home, '.bash_profile'))).toBe(true);
    expect((await fs.readdir(registry)).some((name) => name.startsWith('active.'))).toBe(true);

    const next = startHost(build, { ...configuration, calls: ['true'], waitAtEnd: true });
    await next.printed('done');
    // While the next process is still running: its first call recovered the crash.
    expect(await userFiles()).toEqual(before);
    expect((await fs.readdir(registry)).filter((name) => name !== 'generation' && name !== 'created-folders')).toEqual([]);
    expect(loginShell(configuration.home)).toBe(shellBefore);
    next.child.stdin.end();
    expect(await next.exited).toMatchObject({ code: 0 });
    expect(await eventually(async () => !(await exists(path.dirname(registry))), 5000)).toBe(true);
  });

  // bwrap arms --die-with-parent only once it runs: a host killed in the milliseconds before (more on
  // a loaded machine) left the sandbox running for good, reparented to init (seen as a flaky
  // background-task test). `unarmed` starts bwrap without the option, as it is in that window.
  it('SIGKILL while a sandbox had not armed --die-with-parent yet: the reaper finds it by its owner mark and ends it within 5 s', async () => {
    const host = startHost(build, { ...configuration, unarmed: true });
    await host.printed('ready');
    // The exit, not `exited` (which also waits for the pipes the sandbox inherited to close).
    const gone = new Promise((resolve) => host.child.once('exit', resolve));
    host.child.kill('SIGKILL');
    await gone;
    expect(await eventually(() => sandboxedSleeps().length === 0, 5000)).toBe(true);
    expect(await eventually(async () => !(await exists(path.dirname(registry))), 5000)).toBe(true);
  });

  it('start-up recovery ends a sandbox marked by a host that has ended, and leaves one whose host lives', async () => {
    // The state a host and its reaper both killed leave: a bwrap of theirs that never armed
    // --die-with-parent. Marked as the real backend marks them, by owners made from real processes.
    const ended = spawn('sleep', ['30'], { stdio: 'ignore' });
    const endedOwner = ownerOf(ended.pid as number) as string;
    ended.kill('SIGKILL');
    await new Promise((resolve) => ended.once('exit', resolve));
    const liveOwner = ownerOf(process.pid) as string;
    const sandbox = (owner: string, seconds: string) =>
      spawn('bwrap', [...sandboxOwnerArguments(owner), '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', '/bin/sleep', seconds], { stdio: 'ignore', detached: true });
    const orphan = sandbox(endedOwner, '59.31');
    const owned = sandbox(liveOwner, '59.32');
    try {
      // bwrap, its PID namespace's init and the sleep carry the argument.
      expect(await eventually(() => processesWithArguments('59.31').length === 3 && processesWithArguments('59.32').length === 3, 5000)).toBe(true);
      const next = startHost(build, { ...configuration, calls: ['true'] });
      expect(await next.exited).toMatchObject({ code: 0 });
      expect(await eventually(() => processesWithArguments('59.31').length === 0, 2000)).toBe(true);
      expect(processesWithArguments('59.32')).toHaveLength(3);
    } finally {
      for (const child of [orphan, owned]) {
        try {
          process.kill(-(child.pid as number), 'SIGKILL'); // bwrap and its namespace's init: one group
        } catch {
          // ended
        }
      }
      await eventually(() => processesWithArguments('59.31').length + processesWithArguments('59.32').length === 0, 5000);
    }
  });

  it('a host that ends normally leaves neither records nor a registry folder once its reaper ran', async () => {
    // A registry whose parent does not exist yet: the registry creates it, and removes what it created.
    const host = startHost(build, { ...configuration, calls: ['true', 'echo hi > main.txt'] });
    expect(await host.exited).toMatchObject({ code: 0 });
    expect(await eventually(async () => !(await exists(path.dirname(registry))), 5000)).toBe(true);
    expect(await fs.readdir(root)).not.toContain('registry');
    expect(await fs.readFile(path.join(configuration.workspace, 'main.txt'), 'utf8')).toBe('hi\n');
  });
});
