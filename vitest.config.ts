import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every workspace project, so CI reads one report (`N passed, N failed`).
// CI sets OPENWORK_TEST_REPORT to a file path to get vitest's JSON report next to the usual output.
const reportFile = process.env['OPENWORK_TEST_REPORT'];

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tooling'],
    // One test file per CPU, at least two: the files mostly wait on processes, sandboxes and
    // databases, and vitest's default (one CPU less) runs them one at a time on two cores.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: reportFile ? ['default', 'json'] : ['default'],
    ...(reportFile ? { outputFile: { json: reportFile } } : {}),
  },
});
