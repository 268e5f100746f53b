import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CAPTURE_HEAD_BYTES,
  CAPTURE_TAIL_BYTES,
  InvalidSpawnRequestError,
  MAX_SPILL_BYTES,
  NodeProcessBackend,
  PROGRESS_BURST_BYTES,
  PROGRESS_BYTES_PER_SECOND,
  ProcessBackendError,
  formatStatusLine,
} from './index.js';
import type { KillProcessGroup, ProcessOutcome, ProcessProgress } from './index.js';
import { isGone, killQuietly, readPidFile, waitUntilGone } from './test-support/process-probe.js';
import { temporaryDirectory } from './test-support/temporary-directory.js';

const BASH = '/bin/bash';
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
let workspace: { path: string; remove(): Promise<void> };
const leftovers: number[] = [];

beforeEach(async () => {
  workspace = await temporaryDirectory();
});

afterEach(async () => {
  for (const pid of leftovers.splice(0)) killQuietly(pid);
  await workspace.remove();
});

function bash(script: string): string[] {
  return [BASH, '-c', script];
}

/** Deterministic text of `size` bytes: numbered lines, so a misplaced cut shows in the diff. */
function numberedText(size: number): string {
  let text = '';
  for (let line = 1; text.length < size; line++) text += `line ${String(line).padStart(6, '0')} of the output\n`;
  return text.slice(0, size);
}

function withoutTiming(outcome: ProcessOutcome): Partial<ProcessOutcome> {
  const { durationMs: _duration, pid: _pid, spill, ...rest } = outcome;
  return { ...rest, ...(spill === undefined ? {} : { spill: { ...spill, path: '<spill>' } }) };
}

describe('NodeProcessBackend', () => {
  it('process_backend_enforces_timeout', async () => {
    const backend = new NodeProcessBackend();
    const outcome = await backend.spawn(bash('echo before; sleep 100'), { cwd: workspace.path, env, timeoutMs: 300 });
    expect(outcome.status).toBe('timed_out');
    expect(outcome.output).toBe('before\n');
    expect(outcome.exitCode).toBeNull();
    expect(outcome.signal).toBe('SIGKILL');
    expect(outcome.timeoutMs).toBe(300);
    expect(formatStatusLine(outcome)).toBe(`[timed out after 300 ms; duration ${outcome.durationMs} ms]`);
    expect(await waitUntilGone(outcome.pid ?? 0)).toBe(true);
  });

  it('process_backend_terminates_a_cancelled_process_group', async () => {
    const backend = new NodeProcessBackend();
    const childPidFile = join(workspace.path, 'child.pid');
    const grandchildPidFile = join(workspace.path, 'grandchild.pid');
    const controller = new AbortController();
    const running = backend.spawn(bash(`sleep 100 & echo $! > ${grandchildPidFile}; echo $$ > ${childPidFile}; echo started; wait`), {
      cwd: workspace.path,
      env,
      signal: controller.signal,
    });
    const child = await readPidFile(childPidFile);
    const grandchild = await readPidFile(grandchildPidFile);
    leftovers.push(child, grandchild);
    expect(await isGone(grandchild)).toBe(false);
    controller.abort();
    const outcome = await running;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.output).toBe('started\n');
    expect(formatStatusLine(outcome)).toBe(`[cancelled; duration ${outcome.durationMs} ms]`);
    expect(await waitUntilGone(child)).toBe(true);
    expect(await waitUntilGone(grandchild)).toBe(true);
  });

  it('timeout and cancellation share one terminate', async () => {
    const kills: Array<[number, string]> = [];
    const countingKill: KillProcessGroup = (pid, signal) => {
      kills.push([pid, signal]);
      return process.kill(pid, signal);
    };
    const backend = new NodeProcessBackend({ killProcessGroup: countingKill });
    const timedOut = await backend.spawn(bash('sleep 100'), { cwd: workspace.path, env, timeoutMs: 200 });
    const controller = new AbortController();
    const cancelled = await backend.spawn(bash('echo go; sleep 100'), {
      cwd: workspace.path,
      env,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect([timedOut.status, cancelled.status]).toEqual(['timed_out', 'cancelled']);
    expect(kills).toEqual([
      [-(timedOut.pid ?? 0), 'SIGKILL'],
      [-(cancelled.pid ?? 0), 'SIGKILL'],
    ]);
  });

  it('kill failure becomes outcome_unknown', async () => {
    const refusingKill: KillProcessGroup = () => {
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
    };
    const backend = new NodeProcessBackend({ killProcessGroup: refusingKill });
    const outcome = await backend.spawn(bash('echo partial; sleep 100'), { cwd: workspace.path, env, timeoutMs: 200 });
    leftovers.push(outcome.pid ?? 0);
    expect(outcome.status).toBe('outcome_unknown');
    expect(outcome.error).toContain('EPERM');
    expect(outcome.output).toBe('partial\n');
    // The process really is still there: the outcome must not have claimed otherwise.
    expect(await isGone(outcome.pid ?? 0)).toBe(false);
    expect(formatStatusLine(outcome)).toMatch(/^\[outcome unknown: could not kill process group \d+: EPERM; duration \d+ ms\]$/);
    killQuietly(outcome.pid ?? 0, true);
  });

  it('an exit that cannot be confirmed after the kill is outcome_unknown', async () => {
    const ineffectiveKill: KillProcessGroup = () => true;
    const backend = new NodeProcessBackend({ killProcessGroup: ineffectiveKill, terminateWaitMs: 200 });
    const controller = new AbortController();
    const outcome = await backend.spawn(bash('echo go; sleep 100'), {
      cwd: workspace.path,
      env,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    leftovers.push(outcome.pid ?? 0);
    expect(outcome.status).toBe('outcome_unknown');
    expect(outcome.error).toMatch(/did not exit within 200 ms/);
    killQuietly(outcome.pid ?? 0, true);
  });

  it('unbounded_output_stays_bounded_in_memory_and_on_disk', async () => {
    const backend = new NodeProcessBackend();
    const spillPath = join(workspace.path, 'spill', 'session', 'call.txt');
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    // The call ends once more than the spill cap has streamed through (counted from progress), not
    // after a fixed time: on a loaded machine `yes` may write far less than 64 MiB in a few seconds.
    const controller = new AbortController();
    let streamed = 0;
    const outcome = await backend.spawn(['yes'], {
      cwd: workspace.path,
      env,
      signal: controller.signal,
      spill: { path: spillPath },
      // Live progress is rate-limited: what it leaves out still streamed through (skippedBytes).
      onProgress: ({ chunk, skippedBytes }) => {
        streamed += chunk.length + (skippedBytes ?? 0);
        if (streamed > MAX_SPILL_BYTES + 8 * 1024 * 1024) controller.abort();
      },
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    expect(outcome.status).toBe('cancelled');
    expect(outcome.totalBytes).toBeGreaterThan(MAX_SPILL_BYTES);
    expect(outcome.spill).toEqual({ path: spillPath, bytesWritten: MAX_SPILL_BYTES, truncated: true });
    expect((await stat(spillPath)).size).toBe(MAX_SPILL_BYTES);
    expect(outcome.omittedBytes).toBe(outcome.totalBytes - CAPTURE_HEAD_BYTES - CAPTURE_TAIL_BYTES);
    expect(Buffer.byteLength(outcome.output)).toBeLessThan(CAPTURE_HEAD_BYTES + CAPTURE_TAIL_BYTES + 400);
    expect(outcome.output).toContain(
      `bytes omitted. Only the first 64 MiB of the output were saved at ${spillPath} — use read with offset/limit, or grep, to look at it.)`,
    );
    // Gigabytes went through; a capture that kept them would be far past this generous margin.
    expect(peak - baseline).toBeLessThan(128 * 1024 * 1024);
  });

  it('unbounded_output_stays_bounded_in_memory_and_on_disk with a smaller spill cap', async () => {
    const cap = 1024 * 1024 + 7;
    const backend = new NodeProcessBackend({ maxSpillBytes: cap });
    const spillPath = join(workspace.path, 'call.txt');
    const outcome = await backend.spawn(['yes', 'abc'], { cwd: workspace.path, env, timeoutMs: 500, spill: { path: spillPath } });
    expect(outcome.status).toBe('timed_out');
    expect(outcome.spill).toEqual({ path: spillPath, bytesWritten: cap, truncated: true });
    const saved = await readFile(spillPath, 'latin1');
    expect(saved.length).toBe(cap);
    expect(saved).toBe('abc\n'.repeat(Math.ceil(cap / 4)).slice(0, cap));
    expect(outcome.output).toContain(`Only the first ${cap} bytes of the output were saved at ${spillPath}`);
  });

  it('keeps_a_short_head_and_a_long_tail', async () => {
    const text = numberedText(100_000);
    const source = join(workspace.path, 'source.txt');
    await writeFile(source, text);
    const spillPath = join(workspace.path, 'home', '.openwork', 'spill', 'session-1', 'call-1.txt');
    const backend = new NodeProcessBackend();
    const outcome = await backend.spawn(['cat', source], {
      cwd: workspace.path,
      env,
      spill: { path: spillPath, displayPath: '~/.openwork/spill/session-1/call-1.txt' },
    });
    const omitted = 100_000 - 2048 - 14336;
    expect(outcome.status).toBe('exited');
    expect(outcome.totalBytes).toBe(100_000);
    expect(outcome.omittedBytes).toBe(omitted);
    expect(outcome.output).toBe(
      text.slice(0, 2048) +
        `\n... (${omitted} bytes omitted. Full output saved at ~/.openwork/spill/session-1/call-1.txt — use read with offset/limit, or grep, to look at it.)\n` +
        text.slice(-14336),
    );
    expect(outcome.spill).toEqual({ path: spillPath, bytesWritten: 100_000, truncated: false });
    expect(await readFile(spillPath, 'utf8')).toBe(text);
  });

  it('cuts head and tail at UTF-8 character boundaries and counts every byte not shown', async () => {
    // 'é' straddles the end of the 2 KiB head; '€' straddles the start of the 14 KiB tail.
    const text = 'a'.repeat(2047) + 'é' + 'm'.repeat(5000) + '€' + 'z'.repeat(14334);
    const source = join(workspace.path, 'source.txt');
    await writeFile(source, text);
    const total = Buffer.byteLength(text);
    const outcome = await new NodeProcessBackend().spawn(['cat', source], { cwd: workspace.path, env });
    expect(outcome.totalBytes).toBe(total);
    expect(outcome.omittedBytes).toBe(total - 2047 - 14334);
    expect(outcome.output).toBe(`${'a'.repeat(2047)}\n... (${total - 2047 - 14334} bytes omitted.)\n${'z'.repeat(14334)}`);
    expect(outcome.output).not.toContain('\uFFFD');
  });

  it('merges_stdout_and_stderr', async () => {
    const progress: ProcessProgress[] = [];
    const outcome = await new NodeProcessBackend().spawn(
      bash('echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; sleep 0.1; echo err2 >&2; sleep 0.1; printf tail'),
      { cwd: workspace.path, env, onProgress: (item) => progress.push(item) },
    );
    expect(outcome.status).toBe('exited');
    expect(outcome.output).toBe('out1\nerr1\nout2\nerr2\ntail');
    expect(progress).toEqual([
      { kind: 'stdout', chunk: 'out1\n' },
      { kind: 'stderr', chunk: 'err1\n' },
      { kind: 'stdout', chunk: 'out2\n' },
      { kind: 'stderr', chunk: 'err2\n' },
      { kind: 'stdout', chunk: 'tail' },
    ]);
  });

  it('live progress is limited per stream; what it leaves out is counted, and the output keeps everything', async () => {
    const backend = new NodeProcessBackend();
    const bytes = 64 * 1024 * 1024;
    let reported = 0;
    let skipped = 0;
    const outcome = await backend.spawn(bash(`head -c ${bytes} /dev/zero | tr '\\0' 'a'; echo done >&2`), {
      cwd: workspace.path,
      env,
      onProgress: (progress) => {
        if (progress.kind !== 'stdout') return;
        reported += Buffer.byteLength(progress.chunk);
        skipped += progress.skippedBytes ?? 0;
      },
    });
    expect(outcome.totalBytes).toBe(bytes + 'done\n'.length);
    // Every stdout byte was either reported or counted as skipped, and most were skipped: the
    // budget is 256 KiB at once plus 1 MiB per second.
    expect(reported + skipped).toBe(bytes);
    expect(reported).toBeLessThan(bytes / 2);
    expect(reported).toBeLessThanOrEqual(PROGRESS_BURST_BYTES + (PROGRESS_BYTES_PER_SECOND * outcome.durationMs) / 1000 + 64 * 1024);
  });

  it('a throwing progress callback does not change the outcome', async () => {
    const text = numberedText(40_000);
    const source = join(workspace.path, 'source.txt');
    await writeFile(source, text);
    const argv = bash(`cat ${source}; echo warning >&2; exit 3`);
    const backend = new NodeProcessBackend();
    const quiet = await backend.spawn(argv, { cwd: workspace.path, env, spill: { path: join(workspace.path, 'a.txt'), displayPath: '<spill>' } });
    let calls = 0;
    const noisy = await backend.spawn(argv, {
      cwd: workspace.path,
      env,
      spill: { path: join(workspace.path, 'b.txt'), displayPath: '<spill>' },
      onProgress: () => {
        calls++;
        throw new Error('progress consumer is broken');
      },
    });
    let rejections = 0;
    const pending = await backend.spawn(argv, {
      cwd: workspace.path,
      env,
      spill: { path: join(workspace.path, 'c.txt'), displayPath: '<spill>' },
      onProgress: () => {
        rejections++;
        return Promise.reject(new Error('disconnected'));
      },
    });
    expect(calls).toBeGreaterThan(0);
    expect(rejections).toBeGreaterThan(0);
    expect(quiet.status).toBe('exited');
    expect(quiet.exitCode).toBe(3);
    expect(withoutTiming(noisy)).toEqual(withoutTiming(quiet));
    expect(withoutTiming(pending)).toEqual(withoutTiming(quiet));
    expect(await readFile(join(workspace.path, 'b.txt'), 'utf8')).toBe(await readFile(join(workspace.path, 'a.txt'), 'utf8'));
  });

  it('a background child holding stdout cannot hang the call', async () => {
    const backend = new NodeProcessBackend();
    for (const start of ['sleep 100', 'setsid sleep 100']) {
      const pidFile = join(workspace.path, `${start.length}.pid`);
      const outcome = await backend.spawn(bash(`${start} & echo $! > ${pidFile}; echo done`), { cwd: workspace.path, env });
      const background = await readPidFile(pidFile);
      leftovers.push(background);
      expect(outcome.status).toBe('exited');
      expect(outcome.exitCode).toBe(0);
      expect(outcome.output).toBe('done\n');
      // The call returned although the pipe is still held open by a live process.
      expect(await isGone(background)).toBe(false);
    }
  });

  it('a background child that keeps writing cannot hang the call either', async () => {
    const pidFile = join(workspace.path, 'writer.pid');
    const outcome = await new NodeProcessBackend({ pipeDrainLimitMs: 500 }).spawn(bash(`echo done; setsid yes & echo $! > ${pidFile}; sleep 0.2`), {
      cwd: workspace.path,
      env,
    });
    const writer = await readPidFile(pidFile);
    leftovers.push(writer);
    expect(outcome.status).toBe('exited');
    expect(outcome.output.startsWith('done\n')).toBe(true);
    expect(Buffer.byteLength(outcome.output)).toBeLessThan(CAPTURE_HEAD_BYTES + CAPTURE_TAIL_BYTES + 200);
  });

  it('the environment is exactly the given one', async () => {
    process.env.OW_PROCESS_BACKEND_LEAK = 'must-not-leak';
    try {
      const outcome = await new NodeProcessBackend().spawn(['/usr/bin/env'], { cwd: workspace.path, env: { ONLY: 'this' } });
      expect(outcome.output).toBe('ONLY=this\n');
    } finally {
      delete process.env.OW_PROCESS_BACKEND_LEAK;
    }
  });

  it('stdin is /dev/null', async () => {
    const outcome = await new NodeProcessBackend().spawn(['cat'], { cwd: workspace.path, env, timeoutMs: 10_000 });
    expect(outcome.status).toBe('exited');
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output).toBe('');
    if (process.platform === 'linux') {
      const target = await new NodeProcessBackend().spawn(['readlink', '/proc/self/fd/0'], { cwd: workspace.path, env });
      expect(target.output).toBe('/dev/null\n');
    }
  });

  it('runs in its own process group with the given working directory and no shell', async () => {
    const outcome = await new NodeProcessBackend().spawn(bash('echo "$$ $(ps -o pgid= -p $$ | tr -d " ") $PWD"; echo "$0"'), {
      cwd: workspace.path,
      env,
    });
    const [pid, group, cwd] = outcome.output.split('\n')[0]?.split(' ') ?? [];
    expect(Number(pid)).toBe(outcome.pid);
    expect(group).toBe(pid);
    expect(cwd).toBe(workspace.path);
    const literal = await new NodeProcessBackend().spawn(['echo', '$HOME', '*', '; true'], { cwd: workspace.path, env: { HOME: '/nowhere' } });
    expect(literal.output).toBe('$HOME * ; true\n');
  });

  it('a non-zero exit is exited with the code', async () => {
    const outcome = await new NodeProcessBackend().spawn(bash('echo failing >&2; exit 7'), { cwd: workspace.path, env });
    expect(outcome.status).toBe('exited');
    expect(outcome.exitCode).toBe(7);
    expect(outcome.signal).toBeNull();
    expect(outcome.output).toBe('failing\n');
    expect(formatStatusLine(outcome)).toBe(`[exit 7; duration ${outcome.durationMs} ms]`);
  });

  it('a missing program fails clearly and leaves no spill file', async () => {
    const spillPath = join(workspace.path, 'spill', 'call.txt');
    const outcome = await new NodeProcessBackend().spawn(['ow-no-such-program-anywhere', '--flag'], {
      cwd: workspace.path,
      env,
      spill: { path: spillPath },
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('could not start ow-no-such-program-anywhere: no such file or program (ENOENT)');
    expect(outcome.pid).toBeUndefined();
    expect(outcome.spill).toBeUndefined();
    expect(existsSync(spillPath)).toBe(false);
  });

  it('a missing working directory is named as the reason the start failed', async () => {
    const missing = join(workspace.path, 'gone');
    const outcome = await new NodeProcessBackend().spawn(['true'], { cwd: missing, env });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe(`could not start true: the working directory ${missing} does not exist`);
  });

  it('a working directory that is a file is named as the reason the start failed', async () => {
    const file = join(workspace.path, 'a-file');
    await writeFile(file, 'not a directory');
    const outcome = await new NodeProcessBackend().spawn(['true'], { cwd: file, env });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe(`could not start true: the working directory ${file} is not a directory`);
  });

  it('small output (< 16 KiB) creates no spill file, one byte more does', async () => {
    const backend = new NodeProcessBackend();
    for (const size of [100, 16_384, 16_385]) {
      const source = join(workspace.path, `${size}.txt`);
      const text = numberedText(size);
      await writeFile(source, text);
      const spillPath = join(workspace.path, 'spill', `${size}.txt`);
      const outcome = await backend.spawn(['cat', source], { cwd: workspace.path, env, spill: { path: spillPath } });
      if (size <= 16_384) {
        expect(outcome.output).toBe(text);
        expect(outcome.omittedBytes).toBe(0);
        expect(outcome.spill).toBeUndefined();
        expect(existsSync(spillPath)).toBe(false);
      } else {
        expect(outcome.omittedBytes).toBe(1);
        expect(outcome.spill).toEqual({ path: spillPath, bytesWritten: size, truncated: false });
        expect(await readFile(spillPath, 'utf8')).toBe(text);
      }
    }
  });

  it('a spill that cannot be written is left out of the result instead of pointing at a missing file', async () => {
    const blocker = join(workspace.path, 'not-a-directory');
    await writeFile(blocker, 'a file where the spill directory should be');
    const spillPath = join(blocker, 'call.txt');
    const source = join(workspace.path, 'source.txt');
    await writeFile(source, numberedText(50_000));
    const outcome = await new NodeProcessBackend().spawn(['cat', source], { cwd: workspace.path, env, spill: { path: spillPath } });
    expect(outcome.status).toBe('exited');
    expect(outcome.spill).toBeUndefined();
    expect(outcome.spillError).toMatch(/^could not write .*call\.txt: E/);
    expect(outcome.output).toContain(`\n... (${50_000 - 16_384} bytes omitted.)\n`);
    expect(outcome.output).not.toContain('saved at');
  });

  it('a call cancelled before it starts never runs', async () => {
    const marker = join(workspace.path, 'ran');
    const outcome = await new NodeProcessBackend().spawn(bash(`touch ${marker}`), { cwd: workspace.path, env, signal: AbortSignal.abort() });
    expect(outcome.status).toBe('cancelled');
    expect(outcome.pid).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it('a relative working directory or a missing environment is a programmer mistake, never resolved against the Node process', async () => {
    const backend = new NodeProcessBackend();
    const marker = join(workspace.path, 'ran');
    const attempts = [
      // peers.md "Paths": relative paths resolve against the session's working directory, which is the caller's job.
      backend.spawn(bash(`touch ${marker}`), { cwd: '.', env }),
      backend.spawn(bash(`touch ${marker}`), { cwd: 'relative/dir', env }),
      backend.spawn(bash(`touch ${marker}`), { cwd: workspace.path, env: null as unknown as Record<string, string> }),
    ];
    for (const attempt of attempts) {
      const error: unknown = await attempt.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(InvalidSpawnRequestError);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('programmer mistakes are thrown as ProcessBackendError', async () => {
    const backend = new NodeProcessBackend();
    const attempts = [
      backend.spawn([], { cwd: workspace.path, env }),
      backend.spawn([''], { cwd: workspace.path, env }),
      backend.spawn(['true'], { cwd: workspace.path, env, timeoutMs: 0 }),
      backend.spawn(['true', 'a\0b'], { cwd: workspace.path, env }),
    ];
    for (const attempt of attempts) {
      const error: unknown = await attempt.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(ProcessBackendError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(InvalidSpawnRequestError);
    }
    expect(() => new NodeProcessBackend({ maxSpillBytes: 0 })).toThrow(InvalidSpawnRequestError);
    expect(ProcessBackendError.isInstance(new Error('other'))).toBe(false);
  });
});
