import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli/usage-error.js';
import { benchmarkSandboxLayout } from './benchmark-sandbox-layout.js';

// The benchmark-only switch to the layout without staged writes: off unless asked for exactly,
// said on standard error when on, and a value it does not know is refused rather than ignored.
describe('benchmarkSandboxLayout', () => {
  it('leaves the default (staged writes) when unset or empty, and says nothing', () => {
    const lines: string[] = [];
    expect(benchmarkSandboxLayout({}, (line) => lines.push(line))).toEqual({});
    expect(benchmarkSandboxLayout({ OPENWORK_BENCH_SANDBOX_LAYOUT: '' }, (line) => lines.push(line))).toEqual({});
    expect(lines).toEqual([]);
  });

  it("renders the previous layout for 'unstaged' and warns that it is for benchmarks", () => {
    const lines: string[] = [];
    expect(benchmarkSandboxLayout({ OPENWORK_BENCH_SANDBOX_LAYOUT: 'unstaged' }, (line) => lines.push(line))).toEqual({ bubblewrap: { stagedWrites: false } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('benchmark runs only');
  });

  it('refuses any other value', () => {
    for (const value of ['staged', 'UNSTAGED', 'false', '0', ' unstaged']) {
      expect(() => benchmarkSandboxLayout({ OPENWORK_BENCH_SANDBOX_LAYOUT: value }, () => undefined)).toThrow(UsageError);
    }
  });
});
