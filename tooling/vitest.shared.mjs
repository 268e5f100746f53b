import { defineConfig } from 'vitest/config';

/**
 * The one vitest configuration every workspace project uses. Plain JavaScript so that vite can
 * load it from node_modules without a TypeScript loader.
 * Tests live next to the code (`foo.ts` / `foo.test.ts`) and never time wall clocks.
 * @param {string} name the project name shown in reports
 */
export function packageTestConfig(name) {
  return defineConfig({
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // Real processes and sandboxes run in these tests; forks isolate them best.
      pool: 'forks',
    },
  });
}
