import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { measureImportCost } from './measure-import-cost.mjs';
import { compareVersions } from './lowest-satisfying-version.mjs';

describe('the import-cost benchmark', () => {
  it('reports medians of paired rounds (no figure is asserted: benchmarks print, tests do not time)', () => {
    const cost = measureImportCost({ specifier: 'node:path', cwd: tmpdir(), rounds: 3 });
    expect(cost.specifier).toBe('node:path');
    expect(cost.rounds).toBe(3);
    for (const value of [cost.bareMs, cost.importMs, cost.extraMs, cost.extraCpuMs]) expect(Number.isFinite(value)).toBe(true);
  });

  it('refuses to report a figure for an import that fails', () => {
    expect(() => measureImportCost({ specifier: '@openwork/no-such-package', cwd: tmpdir(), rounds: 1 })).toThrow(
      /node --input-type=module -e await import\("@openwork\/no-such-package"\); failed in .*ERR_MODULE_NOT_FOUND|Cannot find package/s,
    );
  });
});

describe('compareVersions (the lowest version of a peer range)', () => {
  it('orders release versions numerically, not as text', () => {
    expect(['4.10.0', '4.0.0', '4.2.1', '10.0.0', '4.2.0'].sort(compareVersions)).toEqual(['4.0.0', '4.2.0', '4.2.1', '4.10.0', '10.0.0']);
  });
});
