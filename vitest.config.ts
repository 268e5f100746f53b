import { defineConfig } from 'vitest/config';

// One run over every workspace project, so CI reads one report (`N passed, N failed`).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tooling'],
  },
});
