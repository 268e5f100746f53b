import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { killLiveProcessGroups, registerLiveProcessGroup, unregisterLiveProcessGroup } from './process-group-reaper.js';
import { isGone, killQuietly, waitUntilGone } from './test-support/process-probe.js';

function startGroup(): number {
  const child = spawn('/bin/bash', ['-c', 'sleep 100 & wait'], { detached: true, stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('bash did not start');
  return child.pid;
}

describe('process group reaper', () => {
  it('kills the groups of calls still in flight when Node exits, and only those', async () => {
    const inFlight = startGroup();
    const finished = startGroup();
    try {
      registerLiveProcessGroup(inFlight);
      registerLiveProcessGroup(finished);
      unregisterLiveProcessGroup(finished);
      // What the `exit` hook runs.
      killLiveProcessGroups();
      expect(await waitUntilGone(inFlight)).toBe(true);
      expect(await isGone(finished)).toBe(false);
    } finally {
      killQuietly(inFlight, true);
      killQuietly(finished, true);
    }
  });
});
