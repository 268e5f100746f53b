import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionStore, type SessionStore } from '@openwork/session-store';
import type { SandboxBackend } from '@openwork/sandbox';
import type { AgentModelSource, SubAgentOptions } from '../agents/sub-agent-options.js';
import type { Approver } from '../call/approval.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import type { NewSessionOptions } from '../session/new-session-options.js';
import type { Session } from '../session/session.js';
import type { SessionUpdate } from '../updates/session-update.js';

/** How a test wants its runtime. */
export interface CoreFixtureOptions {
  /** Default a new in-memory store. */
  readonly store?: SessionStore;
  /** Default the platform's (bubblewrap here). */
  readonly sandboxBackend?: SandboxBackend;
  readonly approver?: Approver;
  /** Reuse the folders of an earlier fixture (a restart on the same machine). */
  readonly root?: string;
  /** The models of child agents (architecture §4); without, no sub-agent tools. */
  readonly agentModels?: AgentModelSource;
  readonly agents?: SubAgentOptions;
}

/**
 * A hermetic machine for core tests: a temp root with `home/` (the user's HOME; the real one is
 * never touched), `home/.openwork` (the OpenWork home), `workspace/` and `outside/`, all
 * canonical. Temp roots are off in the policy, so `outside/` is outside every writable root.
 */
export interface CoreFixture {
  readonly root: string;
  readonly home: string;
  readonly openworkHome: string;
  readonly workspace: string;
  readonly outside: string;
  readonly store: SessionStore;
  readonly runtime: Runtime;
  session(options?: Partial<NewSessionOptions>): Promise<Session>;
  cleanup(): Promise<void>;
}

export async function createCoreFixture(options: CoreFixtureOptions = {}): Promise<CoreFixture> {
  const root = options.root ?? (await realpath(await mkdtemp(join(tmpdir(), 'ow-core-'))));
  const home = join(root, 'home');
  const openworkHome = join(home, '.openwork');
  const workspace = join(root, 'workspace');
  const outside = join(root, 'outside');
  await Promise.all([mkdir(home, { recursive: true }), mkdir(workspace, { recursive: true }), mkdir(outside, { recursive: true })]);
  const store = options.store ?? new InMemorySessionStore();
  const runtime = await createRuntime({
    home: openworkHome,
    store,
    homeDirectory: home,
    environment: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
    sandboxPolicy: { tempRoots: [] },
    ...(options.sandboxBackend === undefined ? {} : { sandboxBackend: options.sandboxBackend }),
    ...(options.approver === undefined ? {} : { approver: options.approver }),
    ...(options.agentModels === undefined ? {} : { agentModels: options.agentModels }),
    ...(options.agents === undefined ? {} : { agents: options.agents }),
  });
  return {
    root,
    home,
    openworkHome,
    workspace,
    outside,
    store,
    runtime,
    session: (sessionOptions = {}) => runtime.createSession({ workspaceRoots: [workspace], ...sessionOptions }),
    cleanup: async () => {
      await runtime.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Every update of `session`, in the order delivered. */
export function recordUpdates(session: Session): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  session.subscribe((update) => {
    updates.push(update);
  });
  return updates;
}
