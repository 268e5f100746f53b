import { readdir } from 'node:fs/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeProcessBackend } from './index.js';
import { temporaryDirectory } from './test-support/temporary-directory.js';

const MiB = 1024 * 1024;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
let workspace: { path: string; remove(): Promise<void> };
let temp: { path: string; remove(): Promise<void> };
let savedTmpdir: string | undefined;

beforeEach(async () => {
  workspace = await temporaryDirectory();
  temp = await temporaryDirectory();
  savedTmpdir = process.env['TMPDIR'];
  // The output sockets' folder goes to the temp folder: this test's own, to see that nothing stays.
  process.env['TMPDIR'] = temp.path;
});

afterEach(async () => {
  if (savedTmpdir === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = savedTmpdir;
  await workspace.remove();
  await temp.remove();
});

/** Full (mark-compact) garbage collections while `run` runs. */
async function majorCollectionsDuring(run: () => Promise<unknown>): Promise<number> {
  let major = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (((entry as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    await run();
    // GC entries are delivered asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    observer.disconnect();
  }
  return major;
}

describe('reading output (decision 0105)', () => {
  // Node's pipes allocate a new buffer per read; each 64 MiB of them starts a full collection of
  // the whole heap, which in a long-lived server costs more than reading the output.
  it('costs no full garbage collection per byte read: 256 MiB without a spill file, one buffer for every read', async () => {
    const backend = new NodeProcessBackend();
    await backend.spawn(['head', '-c', String(MiB), '/dev/zero'], { cwd: workspace.path, env });
    let outcome: Awaited<ReturnType<NodeProcessBackend['spawn']>> | undefined;
    const major = await majorCollectionsDuring(async () => {
      outcome = await backend.spawn(['head', '-c', String(256 * MiB), '/dev/zero'], { cwd: workspace.path, env });
    });
    expect(outcome?.status).toBe('exited');
    expect(outcome?.totalBytes).toBe(256 * MiB);
    expect(major).toBeLessThanOrEqual(1);
  });

  it('with a spill file of 64 MiB, its copies come from a reused pool: at most one full collection for 256 MiB', async () => {
    const backend = new NodeProcessBackend();
    let outcome: Awaited<ReturnType<NodeProcessBackend['spawn']>> | undefined;
    const major = await majorCollectionsDuring(async () => {
      outcome = await backend.spawn(['head', '-c', String(256 * MiB), '/dev/zero'], {
        cwd: workspace.path,
        env,
        spill: { path: `${workspace.path}/spill/out.log`, displayPath: 'out.log' },
      });
    });
    expect(outcome?.status).toBe('exited');
    expect(outcome?.totalBytes).toBe(256 * MiB);
    expect(outcome?.spill).toEqual({ path: `${workspace.path}/spill/out.log`, bytesWritten: 64 * MiB, truncated: true });
    expect(major).toBeLessThanOrEqual(1);
  });

  it('keeps stdout and stderr apart as progress, in order, and leaves nothing in the temp folder', async () => {
    const backend = new NodeProcessBackend();
    const seen: string[] = [];
    const outcome = await backend.spawn(['/bin/bash', '-c', 'echo one; echo two >&2; sleep 0.05; echo three'], {
      cwd: workspace.path,
      env,
      onProgress: (progress) => seen.push(`${progress.kind}:${progress.chunk}`),
    });
    expect(outcome.output).toBe('one\ntwo\nthree\n');
    expect(seen.join('')).toContain('stderr:two\n');
    expect(seen.filter((entry) => entry.startsWith('stdout:')).join('')).toBe('stdout:one\nstdout:three\n');
    expect(await readdir(temp.path)).toEqual([]);
  });

  it('output written after a pause, on both streams, is read to the end and the call ends with the child', async () => {
    const backend = new NodeProcessBackend();
    const outcome = await backend.spawn(['/bin/bash', '-c', 'printf a; sleep 0.2; printf b >&2; exit 3'], { cwd: workspace.path, env });
    expect(outcome).toMatchObject({ status: 'exited', exitCode: 3, output: 'ab' });
  });
});
