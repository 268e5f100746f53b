import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareNativeAddonMirror } from './native-addon-mirror.mjs';

const cleanup: string[] = [];
afterEach(() => {
  for (const directory of cleanup.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A workspace whose pnpm virtual store holds `name@version` with `binary` built (or not). */
function workspaceWith(addons: { name: string; version: string; binary?: string }[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ow-addon-mirror-'));
  cleanup.push(root);
  for (const { name, version, binary } of addons) {
    const directory = join(root, 'node_modules', '.pnpm', `${name}@${version}`, 'node_modules', name);
    mkdirSync(join(directory, 'build', 'Release'), { recursive: true });
    writeFileSync(join(directory, 'package.json'), JSON.stringify({ name, version }));
    if (binary !== undefined) writeFileSync(join(directory, binary), `binary of ${name}@${version}`);
  }
  return root;
}

const abiSlot = `${process.platform}-${process.arch}-${process.versions.modules}`;

describe('native addons served to consumer projects from the workspace build', () => {
  it('lays each built addon out where its own install script looks for a prebuilt binary', async () => {
    const root = workspaceWith([
      { name: 're2', version: '1.27.1', binary: 'build/Release/re2.node' },
      { name: 'better-sqlite3', version: '12.11.1', binary: 'build/Release/better_sqlite3.node' },
    ]);
    const mirror = join(root, 'mirror');
    const prepared = await prepareNativeAddonMirror({ workspaceRoot: root, mirror, allowBuilds: ['better-sqlite3', 're2'] });

    expect(prepared.served).toEqual(['better-sqlite3@12.11.1', 're2@1.27.1']);
    expect(prepared.env).toEqual({
      RE2_DOWNLOAD_MIRROR: join(mirror, 're2'),
      RE2_DOWNLOAD_SKIP_PATH: '1',
      npm_config_better_sqlite3_local_prebuilds: join(mirror, 'better-sqlite3'),
    });
    // re2 (install-artifact-from-github): <mirror>/<version>/<platform>-<arch>-<abi>, the binary itself.
    expect(readFileSync(join(mirror, 're2', '1.27.1', abiSlot), 'utf8')).toBe('binary of re2@1.27.1');
    // better-sqlite3 (prebuild-install): a tarball named as its download, holding build/Release/*.node.
    const archive = join(mirror, 'better-sqlite3', `better-sqlite3-v12.11.1-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
    expect(execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim()).toBe('build/Release/better_sqlite3.node');
  });

  it('serves nothing the workspace did not build or does not allow, so those compile as for a user', async () => {
    const root = workspaceWith([
      { name: 're2', version: '1.27.1' }, // installed, never built
      { name: 'better-sqlite3', version: '12.11.1', binary: 'build/Release/better_sqlite3.node' },
    ]);
    const mirror = join(root, 'mirror');
    const prepared = await prepareNativeAddonMirror({ workspaceRoot: root, mirror, allowBuilds: ['re2', 'sharp'] });
    expect(prepared).toEqual({ env: {}, served: [], missing: [] });
    expect(existsSync(mirror)).toBe(false);
  });
});

describe('native addons served from the native-addon leg (built as a user on this Node would)', () => {
  it('serves the binaries of a flat node_modules instead of the workspace build', async () => {
    const root = workspaceWith([{ name: 're2', version: '1.27.1', binary: 'build/Release/re2.node' }]);
    const nodeModules = join(root, 'user-project', 'node_modules');
    mkdirSync(join(nodeModules, 're2', 'build', 'Release'), { recursive: true });
    writeFileSync(join(nodeModules, 're2', 'package.json'), JSON.stringify({ name: 're2', version: '1.27.1' }));
    writeFileSync(join(nodeModules, 're2', 'build', 'Release', 're2.node'), 'built by the user leg');
    const mirror = join(root, 'mirror');
    const prepared = await prepareNativeAddonMirror({ workspaceRoot: root, mirror, allowBuilds: ['re2', 'better-sqlite3'], nodeModules: [nodeModules] });
    expect(prepared.served).toEqual(['re2@1.27.1']);
    expect(readFileSync(join(mirror, 're2', '1.27.1', abiSlot), 'utf8')).toBe('built by the user leg');
  });
});

describe('native addons served at the version a consumer resolves for our range', () => {
  it('serves only the wanted version and names a wanted version nothing here built', async () => {
    // The workspace locked re2 1.27.1, but a consumer's resolver picks 1.27.2 for `^1.27.1`: the
    // workspace's binary would not match the project's install, which would compile from source.
    const root = workspaceWith([{ name: 're2', version: '1.27.1', binary: 'build/Release/re2.node' }]);
    const mirror = join(root, 'mirror');
    const wanted = new Map([['re2', '1.27.2']]);
    const before = await prepareNativeAddonMirror({ workspaceRoot: root, mirror, allowBuilds: ['re2'], wanted });
    expect(before).toEqual({ env: {}, served: [], missing: ['re2@1.27.2'] });

    // Once built (here: a flat node_modules, as the consumer test's one build leaves it), it is served.
    const nodeModules = join(root, 'built-once', 'node_modules');
    mkdirSync(join(nodeModules, 're2', 'build', 'Release'), { recursive: true });
    writeFileSync(join(nodeModules, 're2', 'package.json'), JSON.stringify({ name: 're2', version: '1.27.2' }));
    writeFileSync(join(nodeModules, 're2', 'build', 'Release', 're2.node'), 'built once for 1.27.2');
    const after = await prepareNativeAddonMirror({ workspaceRoot: root, mirror, allowBuilds: ['re2'], nodeModules: [nodeModules], wanted });
    expect(after.served).toEqual(['re2@1.27.2']);
    expect(after.missing).toEqual([]);
    expect(readFileSync(join(mirror, 're2', '1.27.2', abiSlot), 'utf8')).toBe('built once for 1.27.2');
    expect(existsSync(join(mirror, 're2', '1.27.1'))).toBe(false);
  });

  it('serves the workspace build when it is the version a consumer resolves', async () => {
    const root = workspaceWith([
      { name: 're2', version: '1.27.1', binary: 'build/Release/re2.node' },
      { name: 're2', version: '1.27.2', binary: 'build/Release/re2.node' },
    ]);
    const mirror = join(root, 'mirror');
    const prepared = await prepareNativeAddonMirror({ workspaceRoot: root, mirror, allowBuilds: ['re2'], wanted: new Map([['re2', '1.27.2']]) });
    expect(prepared.served).toEqual(['re2@1.27.2']);
    expect(readFileSync(join(mirror, 're2', '1.27.2', abiSlot), 'utf8')).toBe('binary of re2@1.27.2');
  });
});
