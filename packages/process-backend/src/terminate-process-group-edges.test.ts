import { describe, expect, it } from 'vitest';
import { terminateProcessGroup, type KillProcessGroup } from './index.js';

const never = new Promise<unknown>(() => undefined);

function failingKill(thrown: unknown): KillProcessGroup {
  return () => {
    throw thrown;
  };
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

describe('terminateProcessGroup: what it reports', () => {
  it('signals the whole group (the negative id) with SIGKILL, once', async () => {
    const calls: Array<[number, string]> = [];
    const result = await terminateProcessGroup(4242, {
      exited: Promise.resolve(),
      kill: (pid, signal) => calls.push([pid, signal]),
      waitMs: 5_000,
    });
    expect(result).toStrictEqual({ kind: 'terminated' });
    expect(calls).toStrictEqual([[-4242, 'SIGKILL']]);
  });

  it('a kill failure without an errno code names the message, or the thrown value itself', async () => {
    const options = { exited: never, waitMs: 5_000 };
    expect(await terminateProcessGroup(7, { ...options, kill: failingKill(new Error('no such thing')) })).toStrictEqual({
      kind: 'unknown',
      reason: 'could not kill process group 7: no such thing',
    });
    expect(await terminateProcessGroup(7, { ...options, kill: failingKill(Object.assign(new Error('odd'), { code: 17 })) })).toStrictEqual({
      kind: 'unknown',
      reason: 'could not kill process group 7: odd',
    });
    expect(await terminateProcessGroup(7, { ...options, kill: failingKill('refused') })).toStrictEqual({
      kind: 'unknown',
      reason: 'could not kill process group 7: refused',
    });
    expect(await terminateProcessGroup(7, { ...options, kill: failingKill(null) })).toStrictEqual({
      kind: 'unknown',
      reason: 'could not kill process group 7: null',
    });
  });

  it('a leader whose exit promise rejects (the child errored) has still ended', async () => {
    const exited = Promise.reject(new Error('spawn error'));
    const result = await terminateProcessGroup(4242, { exited, kill: () => true, waitMs: 5_000 });
    expect(result).toStrictEqual({ kind: 'terminated' });
  });

  it('leaves no timer behind once the exit is confirmed', async () => {
    const before = activeTimers();
    const result = await terminateProcessGroup(4242, { exited: Promise.resolve(), kill: () => true, waitMs: 60_000 });
    expect(result).toStrictEqual({ kind: 'terminated' });
    expect(activeTimers()).toBe(before);
  });
});
