import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type Runtime, type Session } from '@openwork/core';
import { InMemorySessionStore } from '@openwork/session-store';

/**
 * A hermetic machine per test: a temp root with `home/` (HOME; the real one is never touched),
 * `home/.openwork` (the OpenWork home), `workspace/` and `outside/`. Temp roots are off in the
 * policy, so `outside/` is outside every writable root.
 */
export interface AiSdkFixture {
  readonly root: string;
  readonly home: string;
  readonly openworkHome: string;
  readonly workspace: string;
  readonly outside: string;
  readonly runtime: Runtime;
  readonly session: Session;
  cleanup(): Promise<void>;
}

export async function createAiSdkFixture(): Promise<AiSdkFixture> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-ai-sdk-')));
  const home = join(root, 'home');
  const openworkHome = join(home, '.openwork');
  const workspace = join(root, 'workspace');
  const outside = join(root, 'outside');
  await Promise.all([mkdir(home, { recursive: true }), mkdir(workspace, { recursive: true }), mkdir(outside, { recursive: true })]);
  const runtime = await createRuntime({
    home: openworkHome,
    store: new InMemorySessionStore(),
    homeDirectory: home,
    environment: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
    sandboxPolicy: { tempRoots: [] },
    // No runtime approver: every approval in these tests goes through the AI SDK's flow.
  });
  const session = await runtime.createSession({ workspaceRoots: [workspace] });
  return {
    root,
    home,
    openworkHome,
    workspace,
    outside,
    runtime,
    session,
    cleanup: async () => {
      await runtime.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
