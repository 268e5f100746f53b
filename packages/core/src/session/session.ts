import { BackgroundTasks, FileObservations, SpillDirectory, ToolSessionContext, sessionSandboxPolicy } from '@openwork/builtins';
import { WriteLocks } from '@openwork/fs-backend';
import type { PathGrant, SandboxPolicy } from '@openwork/sandbox';
import type {
  FileChangeRecord,
  LoadMessagesOptions,
  NewSessionPlan,
  SessionPlan,
  NewMessage,
  SessionMode,
  SessionRecord,
  StoredMessage,
  StoredToolMessage,
} from '@openwork/session-store';
import type { FinalizedToolset, ToolDefinition, ToolId, ToolResult } from '@openwork/tools-contract';
import type { AgentSupervisor } from '../agents/agent-supervisor.js';
import { deliverMailbox } from '../agents/deliver-mailbox.js';
import type { Approver } from '../call/approval.js';
import type { CallPreparation } from '../call/call-preparation.js';
import { buildControlToolset } from '../control/build-control-toolset.js';
import type { ControlContext } from '../control/control-context.js';
import { prepareToolCall } from '../call/prepare-tool-call.js';
import { runToolCall, type ToolCallHost } from '../call/run-tool-call.js';
import { CoreError } from '../errors/core-error.js';
import { SessionActiveError, type SessionActivity } from '../errors/session-active-error.js';
import type { FileChangesOutcome } from '../file-changes/file-changes-outcome.js';
import { moveFileChanges } from '../file-changes/move-file-changes.js';
import type { RuntimeServices } from '../runtime/runtime-services.js';
import type { StreamedToolCall } from '../turn/collect-model-response.js';
import { runTurn, type TurnHost, type TurnStart } from '../turn/run-turn.js';
import type { TurnOptions } from '../turn/turn-options.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import { SessionUpdates } from '../updates/session-updates.js';
import type { SessionUpdate, SessionUpdateListener } from '../updates/session-update.js';
import { isAgentRole, type AgentRole } from './agent-role.js';
import { backgroundTaskJournal } from './background-task-journal.js';
import { buildSessionToolset } from './build-session-toolset.js';
import { checkWorkspaceRoots } from './check-workspace-roots.js';
import { recordableToolCall, type RecordableToolCall } from './recordable-tool-call.js';
import type { SessionChangesInput } from './session-changes-input.js';
import type { ToolCallOptions, ToolCallOutcome } from './tool-call-options.js';

/** @internal Only the runtime opens sessions. */
export const OPEN_SESSION_KEY: unique symbol = Symbol('openwork.core.open-session');

/** @internal Where a session stands among agents: its depth (0 = root) and the runtime's supervisor. */
export interface SessionAgentPlace {
  readonly supervisor: AgentSupervisor;
  readonly depth: number;
}

/**
 * One session (architecture §4): its workspace roots, mode and agent role, its own observation
 * table (§7.4), spill directory (§8.2) and write locks, shared by every turn and every toolset
 * rebuilt for it. It runs one thing at a time — a model turn, tool calls (queued one after
 * another), or an undo/reapply — and tells subscribers what happens.
 *
 * Get one from `Runtime.createSession` or `Runtime.openSession`; the runtime hands out one object
 * per session id.
 */
export class Session {
  readonly #services: RuntimeServices;
  #record: SessionRecord;
  #role: AgentRole;
  #context: ToolSessionContext;
  #toolset: FinalizedToolset<ToolSessionContext, SandboxPolicy>;
  #controls: FinalizedToolset<ControlContext, SandboxPolicy>;
  readonly #agents: SessionAgentPlace;
  /** The approver of the running turn: children it delegates ask the same one. */
  #turnApprover: Approver | undefined;
  readonly #observations = new FileObservations();
  readonly #writeLocks = new WriteLocks();
  /** Background bash: the session's background bash tasks, shared by every context it builds; killed when it closes. */
  readonly #backgroundTasks: BackgroundTasks;
  readonly #spill: SpillDirectory;
  readonly #updates = new SessionUpdates();
  #activity: SessionActivity | undefined;
  #queuedCalls = 0;
  #callChain: Promise<void> = Promise.resolve();
  #turn: { readonly controller: AbortController; readonly done: Promise<TurnOutcome> } | undefined;
  readonly #runningCalls = new Map<string, AbortController>();
  #takenCallIds: Set<string> | undefined;
  #deleted = false;

  /** @internal Use `Runtime.createSession` / `Runtime.openSession`. */
  constructor(key: typeof OPEN_SESSION_KEY, services: RuntimeServices, record: SessionRecord, agents: SessionAgentPlace) {
    if (key !== OPEN_SESSION_KEY) throw new TypeError('Sessions are opened by Runtime.createSession or Runtime.openSession.');
    if (!isAgentRole(record.agentRole)) {
      throw new CoreError('invalid_argument', `Session ${JSON.stringify(record.id)} has the agent role ${JSON.stringify(record.agentRole)}, which this runtime does not know; known roles: default, explorer.`);
    }
    this.#services = services;
    this.#record = record;
    this.#role = record.agentRole;
    this.#spill = new SpillDirectory({ openworkHome: services.home, sessionId: record.id, homeDirectory: services.homeDirectory });
    this.#backgroundTasks = new BackgroundTasks({ journal: backgroundTaskJournal(services.store, record.id) });
    this.#agents = agents;
    this.#context = this.#buildContext(record.workspaceRoots);
    this.#toolset = this.#buildToolset();
    this.#controls = this.#buildControls();
  }

  get id(): string {
    return this.#record.id;
  }

  /** The session as stored (roots, mode, role, timestamps, message count when last read or changed here). */
  get record(): SessionRecord {
    return this.#record;
  }

  get workspaceRoots(): readonly string[] {
    return this.#context.workspaceRoots;
  }

  /** Relative paths of the model resolve against it: the first workspace root. */
  get workingDirectory(): string {
    return this.#context.workingDirectory;
  }

  get mode(): SessionMode {
    return this.#record.mode;
  }

  get role(): AgentRole {
    return this.#role;
  }

  /**
   * What the model is shown: the role's tools in order, then core's control tools (§3):
   * `update_plan`, and `agent_send` / `agent_await` / `agent_list` when the session may delegate
   * (the runtime has a model source for children, and the depth allows it).
   */
  get definitions(): readonly ToolDefinition[] {
    return [...this.#toolset.definitions, ...this.#controls.definitions];
  }

  get toolIds(): readonly ToolId[] {
    return [...this.#toolset.toolIds, ...this.#controls.toolIds];
  }

  /** 0 for a root session, 1 for a child agent, 2 for a child of a child. */
  get agentDepth(): number {
    return this.#agents.depth;
  }

  /** The session's plan from its last `update_plan`, or `undefined`. */
  async plan(): Promise<SessionPlan | undefined> {
    this.#checkUsable();
    return this.#services.store.getPlan(this.id);
  }

  /** Whether tools offer `sandboxPermissions` (the kernel sandbox works, §7.5). */
  get escalationAvailable(): boolean {
    return this.#toolset.escalationAvailable;
  }

  /** `<home>/spill/<session-id>/` (§8.2): readable by the model, writable by no tool. */
  get spillDirectory(): string {
    return this.#spill.directory;
  }

  /** The §7.4 table of this session, shared by every toolset built for it. */
  get observations(): FileObservations {
    return this.#observations;
  }

  /** What the session is busy with, if anything. */
  get activity(): SessionActivity | undefined {
    return this.#activity;
  }

  get isActive(): boolean {
    return this.#activity !== undefined;
  }

  /**
   * Receives every update of this session from now on (architecture §4): turn started/finished,
   * streamed text, tool call started/progress/finished, file changes undone. Returns the function
   * that stops it. See `SessionUpdateListener` for how slow listeners are handled.
   */
  subscribe(listener: SessionUpdateListener): () => void {
    if (typeof listener !== 'function') throw new CoreError('invalid_argument', 'Session.subscribe needs a function (update) => void.');
    return this.#updates.subscribe(listener);
  }

  /**
   * The policy a call of this session runs under (§5): the session's mode and roots, plus `grants`
   * (approved for that one call).
   */
  sandboxPolicy(grants: readonly PathGrant[] = []): SandboxPolicy {
    return sessionSandboxPolicy(this.#context, { ...this.#services.policyOptions, mode: this.#record.mode, grants });
  }

  /**
   * What core would decide about a call, without running it (§6.1, architecture §4): `rejected`
   * (unknown tool, bad input), `denied` (a hard-protected target), `needs_approval` with the card
   * to show and why, or `ready`.
   */
  prepare(toolId: ToolId, input: unknown): CallPreparation {
    this.#checkUsable();
    if (this.#controls.has(toolId)) {
      // Control tools touch no file and run no process: nothing to deny or approve.
      const prepared = this.#controls.prepare(toolId, input);
      return prepared.ok ? { status: 'ready', call: prepared.call } : { status: 'rejected', result: prepared.result };
    }
    return prepareToolCall(this.#toolset, this.#context, toolId, input, this.#controls.toolIds);
  }

  /**
   * Runs one tool call outside a model turn (the CLI's `openwork call`, an MCP `tools/call`):
   * the same decisions, approvals, policy and progress as in a turn. Calls of a session run one
   * at a time: a call waits for the previous one. Recorded as an assistant message with the call
   * and a tool message with its result (`record: false` to skip). Throws `SessionActiveError`
   * during a turn or an undo.
   */
  async callTool(toolId: ToolId, input: unknown, options: ToolCallOptions = {}): Promise<ToolCallOutcome> {
    this.#checkUsable();
    if (typeof toolId !== 'string') throw new CoreError('invalid_argument', 'Session.callTool needs the tool id as a string.');
    const record = options.record ?? true;
    const taken = await this.#callIds();
    this.#checkUsable();
    if (this.#activity === 'turn' || this.#activity === 'file_changes') throw new SessionActiveError(this.id, this.#activity, 'a tool call');
    if (options.callId !== undefined && taken.has(options.callId)) {
      throw new CoreError('invalid_argument', `Tool call id ${JSON.stringify(options.callId)} was already used in session ${JSON.stringify(this.id)}; give a new one or none.`);
    }
    const call = recordableToolCall({ id: options.callId ?? '', toolId, input }, taken);
    if (options.callId !== undefined && call.id !== options.callId) {
      throw new CoreError('invalid_argument', `Tool call id ${JSON.stringify(options.callId)} cannot be stored: use 1–200 printable characters.`);
    }
    taken.add(call.id);
    return this.#queueCall(async () => {
      if (record) {
        await this.#append({ role: 'assistant', text: '', toolCalls: [{ id: call.id, toolId: call.toolId, input: call.input }], metadata: { origin: 'direct_call' } });
      }
      const controller = new AbortController();
      const signals = [controller.signal, this.#services.closeSignal, ...(options.signal === undefined ? [] : [options.signal])];
      this.#runningCalls.set(call.id, controller);
      let result: ToolResult;
      try {
        result = await runToolCall(this.#callHost(), {
          callId: call.id,
          toolId,
          input: call.input,
          turnId: null,
          signal: AbortSignal.any(signals),
          approver: options.approver ?? this.#services.approver,
          ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
          ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
        });
      } finally {
        this.#runningCalls.delete(call.id);
      }
      const message = record ? await this.#finishCall(call, null, result) : this.#publishFinished(call, null, result, null);
      return Object.freeze({ callId: call.id, result, message });
    });
  }

  /**
   * Runs a model turn (architecture §4, spec §5) and resolves when it ends; see `TurnOptions` and
   * `TurnOutcome`. One turn at a time: throws `SessionActiveError` while the session is busy.
   */
  async runTurn(options: TurnOptions): Promise<TurnOutcome> {
    return this.runAgentTurn(options, {});
  }

  /** @internal A turn that may start from a stored round (a child agent's, architecture §4). */
  async runAgentTurn(options: TurnOptions, start: TurnStart): Promise<TurnOutcome> {
    this.#checkUsable();
    checkTurnOptions(options);
    if (this.#activity !== undefined) throw new SessionActiveError(this.id, this.#activity, 'a new turn');
    this.#activity = 'turn';
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, this.#services.closeSignal, ...(options.signal === undefined ? [] : [options.signal])]);
    const approver = options.approver ?? this.#services.approver;
    this.#turnApprover = approver;
    const done = runTurn(this.#turnHost(), options, globalThis.crypto.randomUUID(), signal, approver, start).finally(() => {
      this.#turn = undefined;
      this.#activity = undefined;
      this.#turnApprover = undefined;
    });
    this.#turn = { controller, done };
    return done;
  }

  /** @internal Publishes an update of this session (the supervisor's `agent_finished`). */
  publishUpdate(update: SessionUpdate): void {
    this.#updates.publish(update);
  }

  /** Cancels the running turn, if any (its running call is cancelled too, §5). `true` when there was one. */
  cancelTurn(): boolean {
    if (this.#turn === undefined) return false;
    this.#turn.controller.abort();
    return true;
  }

  /** Cancels one running call (of a turn or `callTool`) without ending its turn. `true` when it was running. */
  cancelCall(callId: string): boolean {
    const controller = this.#runningCalls.get(callId);
    controller?.abort();
    return controller !== undefined;
  }

  /** The session's stored messages, in order (artifacts inside the tool messages). */
  async messages(options?: LoadMessagesOptions): Promise<StoredMessage[]> {
    this.#checkUsable();
    return this.#services.store.loadMessages(this.id, options);
  }

  /** The session's file changes (§8.4), in the order they were made, each with its current `undone`. */
  async fileChanges(): Promise<FileChangeRecord[]> {
    this.#checkUsable();
    return this.#services.store.listFileChanges(this.id);
  }

  /**
   * §8.4: undoes the changes `changeIds` (last first); a bash call's id stands for every change
   * it made (architecture §3.10). Each file must still hold what the change wrote, else a
   * conflict and nothing is overwritten; a change recorded without its contents (binary, larger
   * than 1 MiB) is refused as `not_recorded`, with the reason. On success the stored artifacts say
   * `undone: true`. `session_active` while a turn or a call runs. Never throws for these cases.
   */
  undo(changeIds: readonly string[]): Promise<FileChangesOutcome> {
    return this.#moveFileChanges('undo', changeIds);
  }

  /** §8.4: writes undone changes `changeIds` again (first first); the counterpart of `undo`. */
  reapply(changeIds: readonly string[]): Promise<FileChangesOutcome> {
    return this.#moveFileChanges('reapply', changeIds);
  }

  /**
   * Changes the session's mode, agent role or workspace roots, in the store and here. The
   * toolset is rebuilt over the same observation table and spill directory (§4). Throws
   * `SessionActiveError` while busy.
   */
  async update(changes: SessionChangesInput): Promise<SessionRecord> {
    this.#checkUsable();
    if (this.#activity !== undefined) throw new SessionActiveError(this.id, this.#activity, 'changing the session');
    if (changes.role !== undefined && !isAgentRole(changes.role)) {
      throw new CoreError('invalid_argument', `Unknown agent role ${JSON.stringify(changes.role)}; use default or explorer.`);
    }
    const roots = changes.workspaceRoots === undefined ? undefined : checkWorkspaceRoots(changes.workspaceRoots);
    // Build first: a bad root fails before anything is stored.
    // A new role gets a new context too: the tasks its calls reach depend on it (background bash).
    const context = roots === undefined && (changes.role === undefined || changes.role === this.#role) ? this.#context : this.#buildContext(roots ?? this.#context.workspaceRoots, changes.role ?? this.#role);
    const record = await this.#services.store.updateSession(this.id, {
      ...(changes.mode === undefined ? {} : { mode: changes.mode }),
      ...(changes.role === undefined ? {} : { agentRole: changes.role }),
      ...(roots === undefined ? {} : { workspaceRoots: context.workspaceRoots }),
    });
    this.#record = record;
    this.#role = changes.role ?? this.#role;
    this.#context = context;
    this.#toolset = this.#buildToolset();
    this.#controls = this.#buildControls();
    return record;
  }

  /** @internal The runtime deleted the session: nothing works any more. */
  markDeleted(): void {
    this.#deleted = true;
    this.#turn?.controller.abort();
    void this.#backgroundTasks.close();
  }

  /** @internal Background bash: kills every background task of the session and waits until each is gone. */
  async closeBackgroundTasks(): Promise<void> {
    await this.#backgroundTasks.close();
  }

  /** @internal Resolves when the running turn (if any) has ended. */
  async settled(): Promise<void> {
    await this.#turn?.done;
    await this.#callChain;
  }

  async #moveFileChanges(operation: 'undo' | 'reapply', changeIds: readonly string[]): Promise<FileChangesOutcome> {
    this.#checkUsable();
    if (!Array.isArray(changeIds) || changeIds.length === 0 || changeIds.some((id) => typeof id !== 'string')) {
      throw new CoreError('invalid_argument', `Session.${operation} needs a non-empty list of change ids (the tool call ids of write and edit calls, a bash call's change ids or its call id for all of them).`);
    }
    if (this.#activity !== undefined) {
      return { ok: false, code: 'session_active', operation, message: new SessionActiveError(this.id, this.#activity, `${operation === 'undo' ? 'an undo' : 'a reapply'}`).message };
    }
    this.#activity = 'file_changes';
    try {
      return await moveFileChanges(
        {
          sessionId: this.id,
          store: this.#services.store,
          engine: { filesystem: this.#context.filesystem, writeLocks: this.#context.writeLocks, policy: this.sandboxPolicy() },
          publish: (update) => this.#updates.publish(update),
        },
        operation,
        changeIds,
      );
    } finally {
      this.#activity = undefined;
    }
  }

  /** Calls of a session run one after another; the session counts as busy while any is queued. */
  async #queueCall<T>(run: () => Promise<T>): Promise<T> {
    const previous = this.#callChain;
    let release = (): void => undefined;
    this.#callChain = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#queuedCalls += 1;
    this.#activity = 'tool_call';
    try {
      await previous;
      return await run();
    } finally {
      this.#queuedCalls -= 1;
      if (this.#queuedCalls === 0) this.#activity = undefined;
      release();
    }
  }

  #callHost(): ToolCallHost {
    return {
      sessionId: this.id,
      toolset: this.#toolset,
      controls: this.#controls,
      context: this.#context,
      policy: (grants) => this.sandboxPolicy(grants),
      publish: (update) => this.#updates.publish(update),
    };
  }

  #turnHost(): TurnHost {
    return {
      ...this.#callHost(),
      append: (message) => this.#append(message),
      loadMessages: () => this.#services.store.loadMessages(this.id),
      recordableCall: async (streamed: StreamedToolCall) => {
        const taken = await this.#callIds();
        const call = recordableToolCall(streamed, taken);
        taken.add(call.id);
        return call;
      },
      callSignal: (callId, turnSignal) => {
        const controller = new AbortController();
        this.#runningCalls.set(callId, controller);
        return { signal: AbortSignal.any([turnSignal, controller.signal]), release: () => this.#runningCalls.delete(callId) };
      },
      finishCall: async (call, turnId, result) => (await this.#finishCall(call, turnId, result)) as StoredToolMessage,
      deliverMailbox: (known) => deliverMailbox(this.#services.store, this.id, (message) => this.#append(message), known),
    };
  }

  /** Stores a call's result, then publishes `tool_call_finished` after the call's progress (§8.3). */
  async #finishCall(call: RecordableToolCall, turnId: string | null, result: ToolResult): Promise<StoredToolMessage> {
    let message: StoredToolMessage;
    try {
      message = (await this.#append({ role: 'tool', toolCallId: call.id, toolId: call.toolId, result })) as StoredToolMessage;
    } catch (error) {
      this.#publishFinished(call, turnId, result, null);
      throw error;
    }
    this.#publishFinished(call, turnId, result, message);
    return message;
  }

  #publishFinished(call: RecordableToolCall, turnId: string | null, result: ToolResult, message: StoredToolMessage | null): null {
    this.#updates.publish({ type: 'tool_call_finished', sessionId: this.id, turnId, callId: call.id, toolId: call.toolId, result, message });
    return null;
  }

  async #append(message: NewMessage): Promise<StoredMessage> {
    return this.#services.store.appendMessage(this.id, message);
  }

  /** Tool call ids used in this session so far (from the store, once; then kept here). */
  async #callIds(): Promise<Set<string>> {
    if (this.#takenCallIds === undefined) {
      const ids = new Set<string>();
      for (const message of await this.#services.store.loadMessages(this.id)) {
        if (message.role === 'assistant') for (const call of message.toolCalls) ids.add(call.id);
      }
      this.#takenCallIds ??= ids;
    }
    return this.#takenCallIds;
  }

  #buildContext(workspaceRoots: readonly string[], role: AgentRole = this.#role): ToolSessionContext {
    const services = this.#services;
    const [workingDirectory] = workspaceRoots;
    if (workingDirectory === undefined) throw new CoreError('invalid_argument', `Session ${JSON.stringify(this.#record.id)} has no workspace root.`);
    return new ToolSessionContext({
      workingDirectory,
      workspaceRoots,
      homeDirectory: services.homeDirectory,
      openworkHome: services.home,
      skillRoots: services.skillRoots,
      sandbox: services.sandbox,
      environment: services.environment,
      filesystem: services.filesystem,
      processBackend: services.processBackend,
      // Core asks its approver about dangerous commands before it calls bash (prepare → needs_approval).
      dangerousCommands: 'caller',
      spill: this.#spill,
      observations: this.#observations,
      writeLocks: this.#writeLocks,
      backgroundTasks: this.#backgroundTasks,
      agentRole: role,
    });
  }

  #buildToolset(): FinalizedToolset<ToolSessionContext, SandboxPolicy> {
    return buildSessionToolset({
      context: this.#context,
      role: this.#role,
      escalationAvailable: this.#services.escalationAvailable,
      history: () => this.#services.store.loadMessages(this.id),
    });
  }

  #buildControls(): FinalizedToolset<ControlContext, SandboxPolicy> {
    const { supervisor, depth } = this.#agents;
    const context: ControlContext = {
      sessionId: this.id,
      setPlan: (plan: NewSessionPlan) => this.#setPlan(plan),
      agents: supervisor.mayDelegate(depth) ? supervisor.forSession(this, depth, () => this.#turnApprover ?? this.#services.approver) : undefined,
    };
    return buildControlToolset(context, this.#spill.sink());
  }

  async #setPlan(plan: NewSessionPlan): Promise<SessionPlan> {
    const stored = await this.#services.store.setPlan(this.id, plan);
    this.#updates.publish({ type: 'plan_updated', sessionId: this.id, plan: stored });
    return stored;
  }

  #checkUsable(): void {
    this.#services.checkOpen();
    if (this.#deleted) throw new CoreError('session_not_found', `Session ${JSON.stringify(this.id)} was deleted.`);
  }
}

function checkTurnOptions(options: TurnOptions): void {
  if (typeof options !== 'object' || options === null) throw new CoreError('invalid_argument', 'Session.runTurn needs { input, model }.');
  if (typeof options.input !== 'string') throw new CoreError('invalid_argument', 'TurnOptions.input must be the user\'s message as a string.');
  if (typeof options.model?.stream !== 'function') throw new CoreError('invalid_argument', 'TurnOptions.model must be a LanguageModel: an object with stream(request, { signal }).');
  if (options.maxSteps !== undefined && (!Number.isSafeInteger(options.maxSteps) || options.maxSteps < 1)) {
    throw new CoreError('invalid_argument', `TurnOptions.maxSteps must be a positive integer, got ${String(options.maxSteps)}.`);
  }
}
