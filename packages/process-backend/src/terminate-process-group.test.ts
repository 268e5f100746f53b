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
    const group = startGroup('sleep 100 & sleep 100 & wait');
    const result = await terminateProcessGroup(group.pid, { exited: group.exited, kill: process.kill, waitMs: 5_000 });
    expect(result).toEqual({ kind: 'terminated' });
    expect(await waitUntilGone(group.pid)).toBe(true);
    expect(() => process.kill(-group.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }) as unknown as Error);
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
