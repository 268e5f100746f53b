import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend, type ProcessBackend } from '@openwork/process-backend';
import { UnavailableSandboxBackend, type SandboxBackend, type SandboxPolicy, type PathGrant } from '@openwork/sandbox';
import { ToolResult, type FinalizedToolset, type ToolProgressListener } from '@openwork/tools-contract';
import { FileObservations } from '../observations/file-observations.js';
import { SpillDirectory, type SpillDirectoryOptions } from '../spill/spill-directory.js';
import { ToolSessionContext, type ToolSessionContextOptions } from '../context/tool-session-context.js';
import { sessionSandboxPolicy, type SessionPolicyOptions } from '../context/session-sandbox-policy.js';
import { finalizeBuiltinToolset } from '../registry/builtin-registry.js';
import type { BuiltinAgent } from '../registry/builtin-agent.js';
import type { BackgroundTasks } from '../bash/background/background-tasks.js';

/** How a test wants its session. */
export interface FixtureOptions {
  readonly sandbox?: SandboxBackend;
  /** Default `true` (so write/edit schemas carry the escalation parameters); `undefined` asks the sandbox. */
  readonly escalationAvailable?: boolean | 'self-check';
  readonly agent?: BuiltinAgent;
  readonly filesystem?: AsyncFileSystem;
  readonly processBackend?: ProcessBackend;
  /** The session environment; default `{ PATH: '/usr/bin:/bin', HOME: <home> }`. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Who decides on dangerous commands (the context's `dangerousCommands`); default absent, as for a host without core. */
  readonly dangerousCommands?: ToolSessionContextOptions['dangerousCommands'];
  readonly observations?: FileObservations;
  /** `false`: no spill directory. */
  readonly spill?: boolean;
  /** Bounds of the spill directory (small ones for tests of the session's total). */
  readonly spillLimits?: Pick<SpillDirectoryOptions, 'maxBytes' | 'maxTotalBytes' | 'maxFiles'>;
  readonly sessionId?: string;
  /** Skill roots, relative to the temp root (created); hard-protected like the OpenWork home. */
  readonly skillRoots?: readonly string[];
  /** Another fixture's tasks (two roles over one session's tasks). */
  readonly backgroundTasks?: BackgroundTasks;
}

/**
 * A hermetic session for tests: a temp root holding `workspace/`, `home/` (with the OpenWork home
 * `home/.openwork`) and `outside/`, all canonical; the real HOME is never touched. Temp roots are
 * off in the policy, so `outside/` is really outside every writable root.
 */
export interface BuiltinsFixture {
  readonly root: string;
  readonly workspace: string;
  readonly home: string;
  readonly openworkHome: string;
  readonly outside: string;
  readonly session: ToolSessionContext;
  readonly toolset: FinalizedToolset<ToolSessionContext, SandboxPolicy>;
  /** The session policy (workspace-write unless `options.mode`), as core would stamp it. */
  policy(options?: SessionPolicyOptions): SandboxPolicy;
  /** One call through the finalized toolset (the model's path). */
  call(tool: string, input: unknown, options?: CallOptions): Promise<ToolResult>;
  /** `call` and the model-visible text. */
  text(tool: string, input: unknown, options?: CallOptions): Promise<string>;
  cleanup(): Promise<void>;
}

export interface CallOptions {
  readonly policy?: SandboxPolicy;
  readonly grants?: readonly PathGrant[];
  readonly callId?: string;
  readonly signal?: AbortSignal;
  readonly deadline?: number;
  readonly progress?: ToolProgressListener;
  readonly toolset?: FinalizedToolset<ToolSessionContext, SandboxPolicy>;
}

let callCounter = 0;

export async function createFixture(options: FixtureOptions = {}): Promise<BuiltinsFixture> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-builtins-')));
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  const openworkHome = join(home, '.openwork');
  const outside = join(root, 'outside');
  await Promise.all([mkdir(workspace), mkdir(home), mkdir(outside)]);
  const skillRoots = (options.skillRoots ?? []).map((relative) => join(root, relative));
  for (const skillRoot of skillRoots) await mkdir(skillRoot, { recursive: true });
  const session = new ToolSessionContext({
    workingDirectory: workspace,
    homeDirectory: home,
    openworkHome,
    skillRoots,
    sandbox: options.sandbox ?? new UnavailableSandboxBackend('tests run the file tools without a kernel sandbox'),
    environment: options.environment ?? { PATH: '/usr/bin:/bin', HOME: home },
    filesystem: options.filesystem ?? new NodeFileSystem(),
    processBackend: options.processBackend ?? new NodeProcessBackend(),
    ...(options.spill === false ? {} : { spill: new SpillDirectory({ openworkHome, sessionId: options.sessionId ?? 'session-1', homeDirectory: home, ...options.spillLimits }) }),
    ...(options.observations === undefined ? {} : { observations: options.observations }),
    ...(options.backgroundTasks === undefined ? {} : { backgroundTasks: options.backgroundTasks }),
    agentRole: options.agent ?? 'default',
    ...(options.dangerousCommands === undefined ? {} : { dangerousCommands: options.dangerousCommands }),
  });
  const escalation = options.escalationAvailable ?? true;
  const toolset = await finalizeBuiltinToolset(session, {
    agent: options.agent ?? 'default',
    ...(escalation === 'self-check' ? {} : { escalationAvailable: escalation }),
  });
  const policy = (policyOptions: SessionPolicyOptions = {}) => sessionSandboxPolicy(session, { tempRoots: [], ...policyOptions });
  const call = (tool: string, input: unknown, callOptions: CallOptions = {}) => {
    callCounter += 1;
    return (callOptions.toolset ?? toolset).call(tool, input, {
      callId: callOptions.callId ?? `call-${callCounter}`,
      signal: callOptions.signal ?? new AbortController().signal,
      sandboxPolicy: callOptions.policy ?? policy(callOptions.grants === undefined ? {} : { grants: callOptions.grants }),
      ...(callOptions.deadline === undefined ? {} : { deadline: callOptions.deadline }),
      ...(callOptions.progress === undefined ? {} : { progress: callOptions.progress }),
    });
  };
  return {
    root,
    workspace,
    home,
    openworkHome,
    outside,
    session,
    toolset,
    policy,
    call,
    text: async (tool, input, callOptions) => ToolResult.text(await call(tool, input, callOptions)),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
