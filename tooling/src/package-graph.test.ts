import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findGraphViolations,
  findNodeImports,
  findPlatformViolations,
  findTestOnlyImports,
  readWorkspace,
  type WorkspacePackage,
} from './package-graph.ts';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function fixture(name: string, dependencies: Record<string, string>, references?: string[]): WorkspacePackage {
  const directory = name === 'openwork' ? 'apps/cli' : `packages/${name.replace('@openwork/', '')}`;
  return references === undefined
    ? { directory, manifest: { name, dependencies } }
    : { directory, manifest: { name, dependencies }, tsconfigReferences: references };
}

describe('the package graph of architecture.md §1', () => {
  it('acc_06 the repository has no dependency edge outside the graph (tools never depend on core)', () => {
    const packages = readWorkspace(workspaceRoot);
    expect(packages.map((entry) => entry.manifest.name)).toContain('@openwork/tools-contract');
    expect(findGraphViolations(packages)).toEqual([]);
  });

  it('tools-contract source imports no Node built-in', () => {
    const packages = readWorkspace(workspaceRoot);
    expect(findPlatformViolations(workspaceRoot, packages)).toEqual([]);
  });

  it('core depends on the session-store interface only, never on a store implementation', () => {
    const violations = findGraphViolations([
      fixture('@openwork/core', { '@openwork/session-store': 'workspace:^', '@openwork/store-sqlite': 'workspace:^' }),
      fixture('@openwork/session-store', {}),
      fixture('@openwork/store-sqlite', { '@openwork/session-store': 'workspace:^' }),
    ]);
    expect(violations).toEqual([
      expect.objectContaining({ from: '@openwork/core', to: '@openwork/store-sqlite' }),
    ]);
  });

  it('core may use the SQLite store in its tests only: as a devDependency, outside its build and its runtime source', () => {
    const packages = readWorkspace(workspaceRoot);
    expect(findTestOnlyImports(workspaceRoot, packages)).toEqual([]);
    // The source check bites: runtime code importing the store is found, tests and test support are not.
    const scratch = mkdtempSync(join(tmpdir(), 'ow-graph-'));
    try {
      mkdirSync(join(scratch, 'packages', 'core', 'src', 'test-support'), { recursive: true });
      writeFileSync(join(scratch, 'packages', 'core', 'package.json'), JSON.stringify({ name: '@openwork/core' }));
      writeFileSync(join(scratch, 'packages', 'core', 'src', 'runtime.ts'), "import { SqliteSessionStore } from '@openwork/store-sqlite';\n");
      writeFileSync(join(scratch, 'packages', 'core', 'src', 'runtime.test.ts'), "import { SqliteSessionStore } from '@openwork/store-sqlite';\n");
      writeFileSync(join(scratch, 'packages', 'core', 'src', 'test-support', 'store.ts'), "export * from '@openwork/store-sqlite';\n");
      expect(findTestOnlyImports(scratch, readWorkspace(scratch))).toEqual([`${join('packages', 'core', 'src', 'runtime.ts')}: @openwork/store-sqlite`]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    const core = (devDependencies: Record<string, string>, references?: string[]): WorkspacePackage => ({
      directory: 'packages/core',
      manifest: { name: '@openwork/core', devDependencies },
      ...(references === undefined ? {} : { tsconfigReferences: references }),
    });
    const stores = [fixture('@openwork/store-sqlite', {}), fixture('@openwork/store-postgres', {}), fixture('@openwork/session-store', {})];
    // Allowed: a devDependency, without a project reference (the build never sees it).
    expect(findGraphViolations([core({ '@openwork/store-sqlite': 'workspace:^' }, []), ...stores])).toEqual([]);
    // A project reference would put it into the build.
    expect(findGraphViolations([core({ '@openwork/store-sqlite': 'workspace:^' }, ['packages/store-sqlite']), ...stores])).toEqual([
      expect.objectContaining({ from: '@openwork/core', to: '@openwork/store-sqlite', reason: expect.stringMatching(/in tests only/) }),
    ]);
    // The PostgreSQL store likewise (the two-host sub-agent tests), under the same rules.
    expect(findGraphViolations([core({ '@openwork/store-postgres': 'workspace:^' }, []), ...stores])).toEqual([]);
    expect(findGraphViolations([core({ '@openwork/store-postgres': 'workspace:^' }, ['packages/store-postgres']), ...stores])).toEqual([
      expect.objectContaining({ from: '@openwork/core', to: '@openwork/store-postgres', reason: expect.stringMatching(/in tests only/) }),
    ]);
    // Only the edges listed: no other package may do the same.
    expect(
      findGraphViolations([
        { directory: 'packages/builtins', manifest: { name: '@openwork/builtins', devDependencies: { '@openwork/store-sqlite': 'workspace:^' } } },
        ...stores,
      ]),
    ).toEqual([expect.objectContaining({ from: '@openwork/builtins', to: '@openwork/store-sqlite' })]);
  });

  it('a store ranks below core and the AI SDK adapter sits on core', () => {
    const violations = findGraphViolations([
      fixture('@openwork/core', {}),
      fixture('@openwork/store-postgres', { '@openwork/core': 'workspace:^' }),
      fixture('@openwork/ai-sdk', { '@openwork/core': 'workspace:^' }),
    ]);
    expect(violations).toEqual([
      expect.objectContaining({ from: '@openwork/store-postgres', to: '@openwork/core' }),
    ]);
  });

  it('fails on a library that depends on core', () => {
    const violations = findGraphViolations([
      fixture('@openwork/core', { '@openwork/builtins': 'workspace:^' }),
      fixture('@openwork/builtins', { '@openwork/core': 'workspace:^' }),
    ]);
    expect(violations).toEqual([
      expect.objectContaining({ from: '@openwork/builtins', to: '@openwork/core' }),
    ]);
  });

  it('fails on an edge between two libraries of the same rank and on upward edges', () => {
    const violations = findGraphViolations([
      fixture('@openwork/sandbox', { '@openwork/fs-backend': 'workspace:^' }),
      fixture('@openwork/fs-backend', {}),
      fixture('@openwork/tools-contract', { '@openwork/builtins': 'workspace:^' }),
      fixture('@openwork/builtins', {}),
    ]);
    expect(violations.map((violation) => `${violation.from} -> ${violation.to}`)).toEqual([
      '@openwork/sandbox -> @openwork/fs-backend',
      '@openwork/tools-contract -> @openwork/builtins',
    ]);
  });

  it('checks devDependencies and peerDependencies too', () => {
    const violations = findGraphViolations([
      { directory: 'packages/sandbox', manifest: { name: '@openwork/sandbox', devDependencies: { '@openwork/core': 'workspace:^' } } },
      { directory: 'packages/fs-backend', manifest: { name: '@openwork/fs-backend', peerDependencies: { '@openwork/tools-contract': '^1' } } },
      fixture('@openwork/core', {}),
      fixture('@openwork/tools-contract', {}),
    ]);
    expect(violations).toHaveLength(2);
    expect(violations[0]?.reason).toContain('devDependencies');
    expect(violations[1]?.reason).toContain('peerDependencies');
  });

  it('fails on a workspace package the graph does not know', () => {
    const violations = findGraphViolations([fixture('@openwork/extra', {})]);
    expect(violations[0]?.reason).toMatch(/not in the package graph/);
  });

  it('accepts the full allowed graph and registry dependencies', () => {
    const violations = findGraphViolations([
      fixture('@openwork/tools-contract', { zod: '^4' }),
      fixture('@openwork/sandbox', {}),
      fixture('@openwork/builtins', { '@openwork/tools-contract': 'workspace:^', '@openwork/sandbox': 'workspace:^' }),
      fixture('@openwork/core', { '@openwork/builtins': 'workspace:^' }),
      fixture('openwork', { '@openwork/core': 'workspace:^', '@openwork/builtins': 'workspace:^' }),
    ]);
    expect(violations).toEqual([]);
  });

  it('fails when tsconfig references and package.json disagree', () => {
    const violations = findGraphViolations([
      fixture('@openwork/tools-contract', {}),
      fixture('@openwork/sandbox', {}),
      fixture('@openwork/builtins', { '@openwork/tools-contract': 'workspace:^' }, ['packages/sandbox']),
    ]);
    expect(violations.map((violation) => violation.reason)).toEqual([
      "@openwork/builtins's tsconfig references @openwork/sandbox but package.json does not declare it",
      '@openwork/builtins depends on @openwork/tools-contract but its tsconfig has no project reference to it',
    ]);
  });

  it('no package names the private tooling package, not even as a dev dependency (the packed manifest keeps those)', () => {
    const violations = findGraphViolations([
      { directory: 'packages/sandbox', manifest: { name: '@openwork/sandbox', dependencies: { '@openwork/tooling': 'workspace:*' } } },
      { directory: 'packages/fs-backend', manifest: { name: '@openwork/fs-backend', devDependencies: { '@openwork/tooling': 'workspace:*' } } },
    ]);
    expect(violations.map((violation) => violation.reason)).toEqual([
      '@openwork/sandbox names the private @openwork/tooling in dependencies; remove it (the root package.json provides it to every package)',
      '@openwork/fs-backend names the private @openwork/tooling in devDependencies; remove it (the root package.json provides it to every package)',
    ]);
  });

  it('finds node: and bare built-in imports, static and dynamic', () => {
    const source = [
      "import { readFile } from 'node:fs/promises';",
      "import path from \"path\";",
      "const cp = await import('child_process');",
      "import 'node:process';",
      "import { z } from 'zod';",
      "import type { Tool } from './tool.js';",
    ].join('\n');
    expect(findNodeImports(source)).toEqual(['node:fs/promises', 'path', 'child_process', 'node:process']);
  });
});
