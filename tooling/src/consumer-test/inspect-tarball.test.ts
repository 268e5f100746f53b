import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectTarball } from './inspect-tarball.mjs';

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

/** An unpacked tarball (`package/`) with the given files; a good package unless the test changes it. */
async function unpacked(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ow-tarball-'));
  cleanup.push(root);
  const directory = join(root, 'package');
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: '@openwork/example', version: '0.1.0', dependencies: { zod: '^4.0.0' } }),
    LICENSE: 'MIT License',
    'README.md': '# example',
    'dist/index.js': 'export const a = 1;\n//# sourceMappingURL=index.js.map',
    'dist/index.js.map': JSON.stringify({ version: 3, sources: ['../src/index.ts'], mappings: '' }),
    'src/index.ts': 'export const a = 1;',
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    if (content === '') continue; // '' = leave the file out
    await mkdir(dirname(join(directory, path)), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  return directory;
}

const workspace = { privateNames: new Set(['@openwork/tooling']) };

describe('inspectTarball: what only the packed package can show', () => {
  it('accepts a package with its licence, README, resolvable maps and no tests', async () => {
    expect(inspectTarball(await unpacked({}), workspace)).toEqual([]);
  });

  it('names a private workspace package or a workspace: range in any dependency field (devDependencies too)', async () => {
    const manifest = {
      name: '@openwork/example',
      version: '0.1.0',
      devDependencies: { '@openwork/tooling': '0.0.0', vitest: '4.1.12' },
      peerDependencies: { '@openwork/sandbox': 'workspace:^' },
    };
    expect(inspectTarball(await unpacked({ 'package.json': JSON.stringify(manifest) }), workspace)).toEqual([
      'the packed package.json names the private workspace package @openwork/tooling in devDependencies; remove it (a shared dev tool belongs in the root package.json)',
      'the packed package.json keeps the range @openwork/sandbox@workspace:^ in peerDependencies; only pnpm pack/publish rewrite it, so pack with pnpm',
    ]);
  });

  it('wants LICENSE and README.md inside', async () => {
    expect(inspectTarball(await unpacked({ LICENSE: '', 'README.md': '' }), workspace)).toEqual([
      'LICENSE is not in the tarball; add it to "files"',
      'README.md is not in the tarball; add it to "files"',
    ]);
  });

  it('finds source maps whose sources are neither shipped nor inlined, and accepts inlined ones', async () => {
    const missing = await unpacked({ 'src/index.ts': '' });
    expect(inspectTarball(missing, workspace)).toEqual([
      'dist/index.js.map points at ../src/index.ts, which is not in the tarball and not inlined (ship the sources or set inlineSources)',
    ]);
    const inlined = await unpacked({
      'src/index.ts': '',
      'dist/index.js.map': JSON.stringify({ version: 3, sources: ['../src/index.ts'], sourcesContent: ['export const a = 1;'], mappings: '' }),
    });
    expect(inspectTarball(inlined, workspace)).toEqual([]);
    const outside = await unpacked({ 'dist/index.js.map': JSON.stringify({ version: 3, sources: ['../../../elsewhere/index.ts'], mappings: '' }) });
    expect(inspectTarball(outside, workspace)).toHaveLength(1);
  });

  it('finds shipped tests and test support code', async () => {
    const directory = await unpacked({ 'src/index.test.ts': 'test', 'dist/test-support/probe.js': 'x' });
    expect(inspectTarball(directory, workspace)).toEqual([
      'dist/test-support/probe.js is test code and is shipped; exclude it in "files"',
      'src/index.test.ts is test code and is shipped; exclude it in "files"',
    ]);
  });
});
