import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { terminateProcessGroup } from './index.js';
import { killQuietly, waitUntilGone } from './test-support/process-probe.js';

function startGroup(script: string): { pid: number; exited: Promise<unknown> } {
  const child = spawn('/bin/bash', ['-c', script], { detached: true, stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('bash did not start');
  return { pid: child.pid, exited: once(child, 'exit') };
}

describe('terminateProcessGroup', () => {
  it('SIGKILLs every member of the group and confirms the exit', async () => {
    // The members announce their pids, so each one can be checked. (Probing the group with
    // `kill(-pid, 0)` right away was flaky: killed members stay zombies until PID 1 reaps them.)
    const child = spawn('/bin/bash', ['-c', 'sleep 100 & echo $!; sleep 100 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    if (child.pid === undefined) throw new Error('bash did not start');
    const exited = once(child, 'exit');
    let announced = '';
    const members = await new Promise<number[]>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        announced += chunk.toString();
        const pids = announced.split('\n').filter((line) => line !== '').map(Number);
        if (pids.length === 2) resolve(pids);
      });
    });
    try {
      const result = await terminateProcessGroup(child.pid, { exited, kill: process.kill, waitMs: 5_000 });
      expect(result).toEqual({ kind: 'terminated' });
      for (const pid of [child.pid, ...members]) expect(await waitUntilGone(pid)).toBe(true);
    } finally {
      killQuietly(child.pid, true);
    }
  });

  it('a group that is already gone (ESRCH) counts as terminated', async () => {
    const group = startGroup('exit 0');
    await group.exited;
    const result = await terminateProcessGroup(group.pid, { exited: group.exited, kill: process.kill, waitMs: 5_000 });
    expect(result).toEqual({ kind: 'terminated' });
  });

  it('any other kill failure is unknown and names the error', async () => {
    const result = await terminateProcessGroup(4242, {
      exited: new Promise(() => undefined),
      kill: () => {
        throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
      },
      waitMs: 5_000,
    });
    expect(result).toEqual({ kind: 'unknown', reason: 'could not kill process group 4242: EPERM' });
  });

  it('an exit that does not come within the wait is unknown', async () => {
    const group = startGroup('sleep 100');
    try {
      const result = await terminateProcessGroup(group.pid, { exited: group.exited, kill: () => true, waitMs: 100 });
      expect(result).toEqual({ kind: 'unknown', reason: `process ${group.pid} did not exit within 100 ms of SIGKILL to its group` });
    } finally {
      killQuietly(group.pid, true);
    }
  });
});
