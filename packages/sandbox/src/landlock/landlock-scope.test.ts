import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landlockScope } from '../index.js';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';

let root: string;

beforeAll(async () => {
  root = await makeTempDirectory('ow-landlock-scope-');
});

afterAll(async () => {
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

describe('landlockScope says where abstract sockets stay reachable, and why (architecture §3.7)', () => {
  it('off Linux and off x86-64 it is not applied, with the reason, and writes nothing', async () => {
    const home = path.join(root, 'openwork');
    expect(landlockScope(home, 'darwin', 'arm64')).toEqual({ scoped: false, reason: 'Landlock exists only on Linux; this is darwin' });
    expect(landlockScope(home, 'linux', 'arm64')).toEqual({ scoped: false, reason: 'the Landlock helper is built for x86-64 only; this is arm64' });
    await expect(fs.access(home)).rejects.toThrow();
  });

  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('on this x86-64 Linux it reports the kernel ABI the probe read', () => {
    const scope = landlockScope(path.join(root, 'openwork-linux'));
    // The CI kernels and this machine have ABI ≥ 6; an older one must say so rather than pass.
    if (!scope.scoped) throw new Error(`Landlock scope unavailable here: ${scope.reason}`);
    expect(scope.abi).toBeGreaterThanOrEqual(6);
  });
});
