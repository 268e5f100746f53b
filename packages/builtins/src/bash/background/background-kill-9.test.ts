import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSourcesForChild } from '../../test-support/compile-sources-for-child.js';
import { requireBubblewrap } from '../test-support/bash-fixture.js';
import { eventually, livingProcessesWith } from '../test-support/process-table.js';

let build: string | undefined;
let root: string | undefined;
beforeAll(async () => {
  await requireBubblewrap();
  build = await compileSourcesForChild();
});
afterAll(async () => {
  if (build !== undefined) await rm(build, { recursive: true, force: true });
});
afterEach(async () => {
  if (root === undefined) return;
  const registry = join(root, 'registry');
  // Let the sandbox's reaper finish first, so that nothing is created after the removal.
  await eventually(() => livingProcessesWith(registry).length === 0, 200);
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
  root = undefined;
});

/** pid, parent, state and command line of each process (what a failure must show to be understood). */
function describeProcesses(pids: readonly number[]): string {
  return pids
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 160);
        return `${pid} (parent ${fields[1]}, state ${fields[0]}): ${command}`;
      } catch {
        return `${pid} (gone)`;
      }
    })
    .join('; ');
}

/** Every entry under `folder`, as relative paths (what a placeholder would add). */
function tree(folder: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    found.push(`${prefix}${entry.name}${entry.isDirectory() ? '/' : ''}`);
    if (entry.isDirectory()) found.push(...tree(join(folder, entry.name), `${prefix}${entry.name}/`));
  }
  return found.sort();
}

/** `tree`, or `undefined` when the reaper removed something while it was listed. */
function settledTree(folder: string): string[] | undefined {
  try {
    return tree(folder);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

describe('no background task outlives its owner (issue 26, architecture §3.7 "crashes")', () => {
  it('kill -9 of a host running two background tasks leaves no process (checked in /proc) and nothing in the workspace', { timeout: 120_000 }, async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ow-bg-kill9-')));
    const workspace = join(root, 'workspace');
    const home = join(root, 'home');
    await mkdir(join(workspace, '.git'), { recursive: true });
    await mkdir(home);
    await writeFile(join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
    const token = `bg-kill9-${randomUUID()}`;
    const before = tree(workspace);

    const host = spawn(process.execPath, [join(build ?? '', 'bash/test-support/background-host-child.js'), JSON.stringify({ workspace, home, token })], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, OPENWORK_HOME: join(home, '.openwork') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    host.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    host.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => host.once('exit', (_code, signal) => resolve(signal)));
    expect(await eventually(() => stdout.includes('\n') || host.exitCode !== null, 1200), stderr).toBe(true);
    expect(stdout, stderr).toContain('"running":2');

    // Both tasks run in the sandbox (bwrap and bash carry the command line); nothing of theirs is on
    // the host but what they write (staged writes create nothing for a missing name).
    expect(await eventually(() => livingProcessesWith(token).length >= 4, 600)).toBe(true);
    expect(await lstat(join(workspace, '.git/hooks')).then(() => true, () => false)).toBe(false);

    host.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // bwrap --die-with-parent ends each sandbox with its host.
    const ended = await eventually(() => livingProcessesWith(token).length === 0, 600);
    expect(ended, `still running 30 s after the kill: ${describeProcesses(livingProcessesWith(token))}`).toBe(true);
    expect(await eventually(() => settledTree(workspace)?.join('\n') === before.join('\n'), 600)).toBe(true);
    expect(tree(workspace)).toEqual(before);
  });
});
