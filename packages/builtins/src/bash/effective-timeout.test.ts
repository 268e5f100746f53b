import { describe, expect, it } from 'vitest';
import { clampTimeout, effectiveTimeout } from './effective-timeout.js';

describe('effectiveTimeout (§5, §7.9)', () => {
  it('clamps timeoutMs to 1–600,000 whole milliseconds (raised from §7.9\'s 120,000 to 10 minutes)', () => {
    expect([-5, 0, 0.4, 1, 1.6, 30_000, 120_001, 600_000, 600_001, 1e12, Number.NaN].map(clampTimeout)).toEqual([1, 1, 1, 1, 2, 30_000, 120_001, 600_000, 600_000, 600_000, 1]);
  });

  it('is the smaller of timeoutMs and the time left until the deadline, and says which', () => {
    const now = 1_000_000;
    expect(effectiveTimeout(30_000, undefined, now)).toEqual({ kind: 'run', timeoutMs: 30_000, limitedBy: 'timeoutMs' });
    expect(effectiveTimeout(30_000, now + 5_000.9, now)).toEqual({ kind: 'run', timeoutMs: 5_000, limitedBy: 'deadline' });
    expect(effectiveTimeout(3_000, now + 5_000, now)).toEqual({ kind: 'run', timeoutMs: 3_000, limitedBy: 'timeoutMs' });
    expect(effectiveTimeout(900_000, now + 700_000, now)).toEqual({ kind: 'run', timeoutMs: 600_000, limitedBy: 'timeoutMs' });
    expect(effectiveTimeout(500_000, now + 200_000, now)).toEqual({ kind: 'run', timeoutMs: 200_000, limitedBy: 'deadline' });
    expect(effectiveTimeout(30_000, now + 1, now)).toEqual({ kind: 'run', timeoutMs: 1, limitedBy: 'deadline' });
  });

  it('a deadline with less than a millisecond left means nothing may start', () => {
    const now = 1_000_000;
    expect(effectiveTimeout(30_000, now + 0.5, now)).toEqual({ kind: 'expired', requestedMs: 30_000 });
    expect(effectiveTimeout(30_000, now - 10, now)).toEqual({ kind: 'expired', requestedMs: 30_000 });
  });
});
