import { defineConfig } from 'vitest/config';

// One run over every workspace project, so CI reads one report (`N passed, N failed`).
// CI sets OPENWORK_TEST_REPORT to a file path to get vitest's JSON report next to the usual output.
const reportFile = process.env['OPENWORK_TEST_REPORT'];

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tooling'],
    reporters: reportFile ? ['default', 'json'] : ['default'],
    ...(reportFile ? { outputFile: { json: reportFile } } : {}),
  },
});
