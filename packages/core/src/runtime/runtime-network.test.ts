import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionStore } from '@openwork/session-store';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from './create-runtime.js';
import type { Runtime } from './runtime.js';

// createRuntime({ network }) (docs/decisions/0101-network-switch.md): the policy of every call of
// every session carries it; bad values are refused before anything starts.

const roots: string[] = [];
const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function start(options: Record<string, unknown>): Promise<{ runtime: Runtime; workspace: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-core-network-')));
  roots.push(root);
  const workspace = join(root, 'workspace');
  await mkdir(join(root, 'home'), { recursive: true });
  await mkdir(workspace, { recursive: true });
  const runtime = await createRuntime({ home: join(root, 'home', '.openwork'), homeDirectory: join(root, 'home'), store: new InMemorySessionStore(), ...options });
  runtimes.push(runtime);
  return { runtime, workspace };
}

describe('createRuntime({ network })', () => {
  it("defaults to 'allow'; 'none' reaches the policy of every session's calls", async () => {
    const allowed = await start({});
    expect(allowed.runtime.network).toBe('allow');
    expect((await allowed.runtime.createSession({ workspaceRoots: [allowed.workspace] })).sandboxPolicy().network).toBe('allow');
    const offline = await start({ network: 'none' });
    expect(offline.runtime.network).toBe('none');
    const session = await offline.runtime.createSession({ workspaceRoots: [offline.workspace] });
    expect(session.sandboxPolicy().network).toBe('none');
    await session.update({ mode: 'full-access' });
    expect(session.sandboxPolicy().network).toBe('none');
  });

  it('refuses a value other than allow or none, and a sandboxPolicy.network that says otherwise', async () => {
    await expect(start({ network: 'off' })).rejects.toThrow(/network must be 'allow' or 'none', got "off"/);
    await expect(start({ network: 'none', sandboxPolicy: { network: 'allow' } })).rejects.toThrow(/give one of them/);
    const same = await start({ network: 'none', sandboxPolicy: { network: 'none' } });
    expect(same.runtime.network).toBe('none');
  });
});
