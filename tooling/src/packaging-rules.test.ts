import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readWorkspace } from './package-graph.ts';
import { findPackagingProblems, NODE_ENGINE_RANGE, NODE_TYPES_RANGE, type PublishableManifest } from './packaging-rules.ts';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

const GOOD: PublishableManifest = {
  name: '@openwork/example',
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  keywords: ['openwork', 'ai-agent', 'example'],
  files: ['dist', '!dist/**/*.test.*', 'src', '!src/**/*.test.ts', '!src/**/test-support', 'LICENSE', 'README.md'],
  engines: { node: NODE_ENGINE_RANGE },
  publishConfig: { access: 'public' },
  repository: { directory: 'packages/example' },
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
  peerDependencies: { zod: '^4.0.0', '@types/node': NODE_TYPES_RANGE },
  peerDependenciesMeta: { '@types/node': { optional: true } },
  devDependencies: { zod: '^4.1.12' },
};

async function repository(licences: { root?: string; example?: string }): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ow-packaging-'));
  cleanup.push(root);
  await mkdir(join(root, 'packages', 'example'), { recursive: true });
  if (licences.root !== undefined) await writeFile(join(root, 'LICENSE'), licences.root);
  if (licences.example !== undefined) await writeFile(join(root, 'packages', 'example', 'LICENSE'), licences.example);
  return root;
}

describe('packaging rules of every publishable package', () => {
  it('every publishable package of this repository follows them', () => {
    const packages = readWorkspace(workspaceRoot);
    expect(packages.filter((entry) => entry.manifest.private !== true).length).toBeGreaterThanOrEqual(4);
    expect(findPackagingProblems(workspaceRoot, packages)).toEqual([]);
  });

  it('accepts the model manifest', async () => {
    const root = await repository({ root: 'MIT', example: 'MIT' });
    expect(findPackagingProblems(root, [{ directory: 'packages/example', manifest: GOOD }])).toEqual([]);
  });

  it('says what to do about each broken rule', async () => {
    const root = await repository({ root: 'MIT License', example: 'MIT Licence (old copy)' });
    const manifest: PublishableManifest = {
      name: '@openwork/example',
      license: 'ISC',
      type: 'commonjs',
      keywords: [],
      files: ['dist', 'README.md'],
      engines: { node: '>=20.11' },
      repository: { directory: 'packages/other' },
      exports: { '.': { default: './dist/index.js', types: './dist/index.d.ts' } },
      dependencies: { zod: '^4.1.12', '@types/node': '^20' },
    };
    expect(findPackagingProblems(root, [{ directory: 'packages/example', manifest }])).toEqual([
      '@openwork/example: set "license": "MIT"',
      '@openwork/example: its LICENSE differs from the root LICENSE; copy it again',
      '@openwork/example: set "type": "module" (ESM-only)',
      '@openwork/example: set "sideEffects": false',
      `@openwork/example: set "engines": { "node": "${NODE_ENGINE_RANGE}" }`,
      '@openwork/example: set "publishConfig": { "access": "public" }',
      '@openwork/example: set "repository.directory" to "packages/example"',
      '@openwork/example: add "keywords": "openwork" and at least two words a user would search for',
      '@openwork/example: add "src" to "files"',
      '@openwork/example: add "LICENSE" to "files"',
      '@openwork/example: add "!src/**/*.test.ts" to "files"',
      '@openwork/example: add "!src/**/test-support" to "files"',
      '@openwork/example: exports["."] must be an object whose first condition is "types"',
      '@openwork/example: move zod from "dependencies" to "peerDependencies" (with a stated range) and "devDependencies"',
      '@openwork/example: @types/node is for TypeScript users only: make it an optional peer dependency',
    ]);
  });

  it('wants a LICENSE in the package and at the root, a peer for zod used in tests only, and an optional @types/node peer', async () => {
    const root = await repository({});
    const manifest: PublishableManifest = {
      ...GOOD,
      peerDependencies: { '@types/node': NODE_TYPES_RANGE },
      peerDependenciesMeta: {},
    };
    expect(findPackagingProblems(root, [{ directory: 'packages/example', manifest }])).toEqual([
      'the repository has no LICENSE file at its root',
      '@openwork/example: copy the root LICENSE into the package (npm publishes a LICENSE only from the package folder)',
      '@openwork/example: declare zod in "peerDependencies" with the range you support',
      '@openwork/example: mark the @types/node peer optional ("peerDependenciesMeta") so JavaScript users are not made to install it',
    ]);
  });

  it('lets an app (a bin, no library entry point) bring its own zod, and refuses it as the app\'s peer', async () => {
    const root = await repository({ root: 'MIT', example: 'MIT' });
    const app: PublishableManifest = {
      ...GOOD,
      bin: { example: './dist/bin/example.js' },
      exports: { './package.json': './package.json' },
      peerDependencies: {},
      peerDependenciesMeta: {},
      dependencies: { zod: '^4.1.12' },
    };
    expect(findPackagingProblems(root, [{ directory: 'packages/example', manifest: app }])).toEqual([]);
    expect(findPackagingProblems(root, [{ directory: 'packages/example', manifest: { ...app, peerDependencies: { zod: '^4.0.0' } } }])).toEqual([
      '@openwork/example: an app installs its own zod: move it from "peerDependencies" to "dependencies"',
    ]);
  });

  it('wants the peer of a workspace dependency declared again: the user installs it next to both', async () => {
    const root = await repository({ root: 'MIT', example: 'MIT' });
    const store: PublishableManifest = { ...GOOD, name: '@openwork/store', peerDependencies: { '@types/node': NODE_TYPES_RANGE }, devDependencies: {}, dependencies: { '@openwork/example': '^0.1.0' } };
    const packages = [
      { directory: 'packages/example', manifest: GOOD },
      { directory: 'packages/example', manifest: store },
    ];
    expect(findPackagingProblems(root, packages)).toEqual([
      '@openwork/store: declare zod in "peerDependencies": @openwork/example expects the user\'s zod, so the user must install it next to this package',
    ]);
    const fixed = { ...store, peerDependencies: { ...store.peerDependencies, zod: '^4.0.0' } };
    expect(findPackagingProblems(root, [packages[0]!, { directory: 'packages/example', manifest: fixed }])).toEqual([]);
  });

  it('leaves private packages alone', async () => {
    const root = await repository({ root: 'MIT' });
    expect(findPackagingProblems(root, [{ directory: 'tooling', manifest: { name: '@openwork/tooling', private: true } }])).toEqual([]);
  });
});
