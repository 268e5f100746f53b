import { describe, expect, it } from 'vitest';
import { formatStatusLine } from './index.js';
import type { ProcessOutcome } from './index.js';

const base: ProcessOutcome = { status: 'exited', exitCode: 0, signal: null, output: '', totalBytes: 0, omittedBytes: 0, durationMs: 12 };

describe('formatStatusLine', () => {
  it('writes the three status lines of §7.9 exactly', () => {
    expect(formatStatusLine({ ...base, exitCode: 7 })).toBe('[exit 7; duration 12 ms]');
    expect(formatStatusLine({ ...base, status: 'timed_out', exitCode: null, signal: 'SIGKILL', timeoutMs: 30_000, durationMs: 30_004 })).toBe(
      '[timed out after 30000 ms; duration 30004 ms]',
    );
    expect(formatStatusLine({ ...base, status: 'cancelled', exitCode: null, signal: 'SIGKILL', durationMs: 51 })).toBe('[cancelled; duration 51 ms]');
  });

  it('describes the outcomes the spec shows no line for in the same shape', () => {
    expect(formatStatusLine({ ...base, exitCode: null, signal: 'SIGSEGV' })).toBe('[killed by SIGSEGV; duration 12 ms]');
    expect(formatStatusLine({ ...base, status: 'outcome_unknown', exitCode: null, error: 'could not kill process group 9: EPERM' })).toBe(
      '[outcome unknown: could not kill process group 9: EPERM; duration 12 ms]',
    );
    expect(formatStatusLine({ ...base, status: 'failed', exitCode: null, error: 'could not start x: no such file or program (ENOENT)' })).toBe(
      '[failed: could not start x: no such file or program (ENOENT); duration 12 ms]',
    );
  });
});
