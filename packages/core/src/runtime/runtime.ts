import { rm, stat } from 'node:fs/promises';
import { SpillDirectory, ToolSessionContext } from '@openwork/builtins';
import type { SandboxAvailability, SandboxBackendKind } from '@openwork/sandbox';
import type { ListSessionsOptions, SessionRecord, SessionStore } from '@openwork/session-store';
import type { ToolDefinition } from '@openwork/tools-contract';
import { AgentSupervisor } from '../agents/agent-supervisor.js';
import type { AgentModelSource, SubAgentOptions } from '../agents/sub-agent-options.js';
import { buildControlToolset } from '../control/build-control-toolset.js';
import { CoreError } from '../errors/core-error.js';
import { SessionActiveError } from '../errors/session-active-error.js';
import { isAgentRole, type AgentRole } from '../session/agent-role.js';
import { buildSessionToolset } from '../session/build-session-toolset.js';
import type { NewSessionOptions } from '../session/new-session-options.js';
import { checkWorkspaceRoots } from '../session/check-workspace-roots.js';
import { OPEN_SESSION_KEY, Session } from '../session/session.js';
import type { RuntimeServices } from './runtime-services.js';

/** @internal Only `createRuntime` constructs a runtime. */
export const CREATE_RUNTIME_KEY: unique symbol = Symbol('openwork.core.create-runtime');

/** @internal What `createRuntime` prepared. */
export interface RuntimeParts {
  readonly services: RuntimeServices;
  readonly close: AbortController;
  readonly removedSpillDirectories: readonly string[];
  readonly agentModels: AgentModelSource | undefined;
  readonly agents: SubAgentOptions;
}

/** Whether this runtime runs child agents, and why not (for `openwork tools` and doctors). */
export interface RuntimeSubAgents {
  readonly available: boolean;
  /** Why the sub-agent tools are not offered. */
  readonly reason?: string;
  /** This runtime's id in run leases. */
  readonly hostId: string;
}

/** The sandbox the runtime found at start (§3.4), for `openwork doctor` and the like. */
export interface RuntimeSandbox {
  readonly kind: SandboxBackendKind;
  /** The self-check's answer: unavailable ⇒ bash runs nothing and no tool offers `sandboxPermissions`. */
  readonly availability: SandboxAvailability;
}

/**
 * The OpenWork session runtime (architecture §4), made by `createRuntime`: it creates, opens and
 * deletes sessions over one `SessionStore`, with one sandbox backend whose self-check ran once.
 */
export class Runtime {
  readonly #services: RuntimeServices;
  readonly #close: AbortController;
  readonly #sessions = new Map<string, Promise<Session>>();
  /** The sessions of `#sessions` that have opened. */
  readonly #open = new Map<string, Session>();
  readonly #agents: AgentSupervisor;
  readonly #removedSpillDirectories: readonly string[];
  #closed = false;

  /** @internal Use `createRuntime`. */
  constructor(key: typeof CREATE_RUNTIME_KEY, parts: RuntimeParts) {
    if (key !== CREATE_RUNTIME_KEY) throw new TypeError('A Runtime is made by createRuntime(options).');
    this.#services = parts.services;
    this.#close = parts.close;
    this.#removedSpillDirectories = Object.freeze([...parts.removedSpillDirectories]);
    this.#agents = new AgentSupervisor({
      store: parts.services.store,
      models: parts.agentModels,
      options: parts.agents,
      approver: parts.services.approver,
      open: (id) => this.openSession(id),
      opened: (id) => this.#open.get(id),
      deleteSession: (id) => this.deleteSession(id),
    });
    this.#agents.start();
  }

  /** Whether sessions of this runtime may start child agents (architecture §4). */
  get subAgents(): RuntimeSubAgents {
    return this.#agents.available
      ? { available: true, hostId: this.#agents.hostId }
      : { available: false, reason: 'no model source for child agents: pass agentModels to createRuntime to offer agent_send, agent_await and agent_list', hostId: this.#agents.hostId };
  }

  /** The canonical OpenWork home. */
  get home(): string {
    return this.#services.home;
  }

  /** The user's home directory sessions use for `~`. */
  get homeDirectory(): string {
    return this.#services.homeDirectory;
  }

  get store(): SessionStore {
    return this.#services.store;
  }

  get sandbox(): RuntimeSandbox {
    return { kind: this.#services.sandbox.kind, availability: this.#services.sandbox.availability };
  }

  /** Whether commands of this runtime's sessions reach the network (`createRuntime({ network })`, default `'allow'`). */
  get network(): 'allow' | 'none' {
    return this.#services.policyOptions.network ?? 'allow';
  }

  /** Whether the tools offer the escalation parameters (§7.5): the kernel sandbox works. */
  get escalationAvailable(): boolean {
    return this.#services.escalationAvailable;
  }

  /** Spill folders deleted at start because nothing touched them for 7 days (§8.2). */
  get removedSpillDirectories(): readonly string[] {
    return this.#removedSpillDirectories;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * What a model of `role` is shown (§3), without a session: the same definitions every session of
   * this runtime with that role has (`openwork tools`). Nothing is stored.
   */
  toolDefinitions(role: AgentRole = 'default'): readonly ToolDefinition[] {
    this.#services.checkOpen();
    if (!isAgentRole(role)) throw new CoreError('invalid_argument', `Unknown agent role ${JSON.stringify(role)}; use default or explorer.`);
    const services = this.#services;
    const context = new ToolSessionContext({
      workingDirectory: services.home,
      homeDirectory: services.homeDirectory,
      openworkHome: services.home,
      sandbox: services.sandbox,
      environment: services.environment,
      filesystem: services.filesystem,
      processBackend: services.processBackend,
      // Core asks its approver about dangerous commands before it calls bash (prepare → needs_approval).
      dangerousCommands: 'caller',
    });
    const toolset = buildSessionToolset({ context, role, escalationAvailable: services.escalationAvailable, history: () => Promise.resolve([]) });
    // A root session's control tools: the sub-agent tools only with a model source for children.
    const controls = buildControlToolset(
      {
        sessionId: '',
        setPlan: () => Promise.reject(new Error('definitions only')),
        agents: this.#agents.mayDelegate(0) ? this.#agents.forSession(undefined as never, 0, () => undefined) : undefined,
      },
      undefined,
    );
    return [...toolset.definitions, ...controls.definitions];
  }

  /**
   * Creates a session in the store and opens it. Workspace roots must be existing folders; the
   * first is the working directory. Mode default `workspace-write`, role default `default`.
   */
  async createSession(options: NewSessionOptions): Promise<Session> {
    this.#services.checkOpen();
    if (typeof options !== 'object' || options === null) throw new CoreError('invalid_argument', 'createSession needs { workspaceRoots }.');
    const roots = checkWorkspaceRoots(options.workspaceRoots);
    for (const root of roots) await requireFolder(root);
    const role = options.role ?? 'default';
    if (!isAgentRole(role)) throw new CoreError('invalid_argument', `Unknown agent role ${JSON.stringify(role)}; use default or explorer.`);
    const id = options.id ?? globalThis.crypto.randomUUID();
    if (this.#sessions.has(id)) throw new CoreError('invalid_argument', `Session ${JSON.stringify(id)} already exists.`);
    const record: SessionRecord = await this.#services.store.createSession({
      id,
      workspaceRoots: roots,
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      agentRole: role,
    });
    let session: Session;
    try {
      session = new Session(OPEN_SESSION_KEY, this.#services, record, { supervisor: this.#agents, depth: 0 });
    } catch (error) {
      await this.#services.store.deleteSession(id).catch(() => undefined);
      throw error;
    }
    this.#sessions.set(id, Promise.resolve(session));
    this.#open.set(id, session);
    return session;
  }

  /**
   * The session `id` from the store — after a restart too. The same object for the same id while
   * the runtime lives, so its observation table and spill directory stay one (§4, §7.4).
   * `session_not_found` when the store has no such session.
   */
  openSession(id: string): Promise<Session> {
    this.#services.checkOpen();
    const open = this.#sessions.get(id);
    if (open !== undefined) return open;
    const opening = this.#services.store.getSession(id).then(async (record) => {
      if (record === undefined) throw new CoreError('session_not_found', `No session ${JSON.stringify(id)} in the store.`);
      // A session stored before `/` was refused (or written by another client) is refused the same way.
      checkWorkspaceRoots(record.workspaceRoots);
      const run = await this.#services.store.getAgentRun(id);
      const session = new Session(OPEN_SESSION_KEY, this.#services, record, { supervisor: this.#agents, depth: run?.depth ?? 0 });
      this.#open.set(id, session);
      // After a restart or on another host: the children of this session are never silently lost.
      await this.#agents.adopt(id).catch(() => undefined);
      return session;
    });
    this.#sessions.set(id, opening);
    opening.catch(() => this.#sessions.delete(id));
    return opening;
  }

  /** Sessions in the store, most recently updated first. */
  listSessions(options?: ListSessionsOptions): Promise<SessionRecord[]> {
    this.#services.checkOpen();
    return this.#services.store.listSessions(options);
  }

  /**
   * Deletes a session: its records in the store and its spill directory (§8.2). `true` when it
   * existed. Throws `SessionActiveError` while it is busy.
   */
  async deleteSession(id: string): Promise<boolean> {
    this.#services.checkOpen();
    const open = await this.#sessions.get(id)?.catch(() => undefined);
    if (open?.activity !== undefined) throw new SessionActiveError(id, open.activity, 'deleting it');
    // Its children (and theirs) are cancelled and deleted first (architecture §4).
    await this.#agents.deleteChildren(id);
    const existed = await this.#services.store.deleteSession(id);
    open?.markDeleted();
    this.#sessions.delete(id);
    this.#open.delete(id);
    const spill = new SpillDirectory({ openworkHome: this.#services.home, sessionId: id });
    await rm(spill.directory, { recursive: true, force: true });
    return existed;
  }

  /**
   * Cancels every running turn and call, waits for them to end, kills every background bash task
   * of its sessions, and refuses further work. The store is the host's: close it yourself
   * afterwards. Calling it twice is harmless.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Children cut off by the close are not recorded as cancelled: their leases are given up and
    // the rounds go on after a restart or on another host.
    this.#agents.beginClose();
    this.#close.abort();
    const sessions = await Promise.all([...this.#sessions.values()].map((opening) => opening.catch(() => undefined)));
    await Promise.all(sessions.map((session) => session?.settled()));
    await this.#agents.close();
    // Background bash: no background task outlives its runtime.
    await Promise.all(sessions.map((session) => session?.closeBackgroundTasks()));
  }
}

async function requireFolder(root: string): Promise<void> {
  const entry = await stat(root).catch(() => undefined);
  if (entry === undefined) throw new CoreError('invalid_argument', `Workspace root ${root} does not exist; create the folder first.`);
  if (!entry.isDirectory()) throw new CoreError('invalid_argument', `Workspace root ${root} is not a folder.`);
}
