import { describe, expect, it } from 'vitest';
import { readAllowedBuilds, readBuildDecisions } from './consumer-project.mjs';

describe('the native addons a consumer pnpm project may build', () => {
  it('are the ones pnpm-workspace.yaml allows, comments and quotes aside', () => {
    const yaml = [
      'packages:',
      '  - packages/*',
      '',
      '# native addons',
      'allowBuilds:',
      '  # store-sqlite',
      '  better-sqlite3: true',
      "  're2': true",
      '  esbuild: false',
      'overrides: {}',
    ].join('\n');
    expect(readAllowedBuilds(yaml)).toEqual(['better-sqlite3', 're2']);
    expect(readAllowedBuilds('packages:\n  - packages/*\nallowBuilds: {}\n')).toEqual([]);
    // A denied build (a package that ships its binary) is a decision too: a consumer pnpm
    // project must repeat it, or pnpm stops with ERR_PNPM_IGNORED_BUILDS.
    expect(readBuildDecisions(yaml)).toEqual({ 'better-sqlite3': true, re2: true, esbuild: false });
  });
});
