import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landlockScope } from '../index.js';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';
import { landlockScopeMissingHere } from './test-support/landlock-scope-here.js';

const missing = landlockScopeMissingHere();

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

  it.skipIf(missing !== undefined)(`where the kernel has it, the scope names the verified helper and the ABI the probe read${missing === undefined ? '' : ` — skipped: ${missing}`}`, () => {
    const scope = landlockScope(path.join(root, 'openwork-linux'));
    expect(scope).toEqual({ scoped: true, helperPath: expect.stringMatching(/\/openwork-linux\/helpers\/landlock-scope-[0-9a-f]{16}$/), abi: expect.any(Number) });
    expect(scope.scoped && scope.abi).toBeGreaterThanOrEqual(6);
  });
});
