import {
  AgentRunNotFoundError,
  SessionNotFoundError,
  isFinalAgentRunState,
  type AgentRunRecord,
  type FinalAgentRunState,
  type SessionMode,
  type SessionStore,
  type StoredMessage,
} from '@openwork/session-store';
import type { Approver } from '../call/approval.js';
import type { Session } from '../session/session.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import { MAX_OPEN_CHILDREN } from './agent-limits.js';
import { lastAssistantText } from './last-assistant-text.js';
import type { AgentOperation, AgentReceipt, AgentStatus, SessionAgents } from './session-agents.js';
import { SUB_AGENT_DEFAULTS, type AgentModelSource, type SubAgentOptions } from './sub-agent-options.js';

/** How often `agent_await` looks at the store for children run by other hosts. */
const STORE_POLL_MS = 250;

/** What the supervisor needs from its runtime. */
export interface SupervisorHost {
  readonly store: SessionStore;
  readonly models: AgentModelSource | undefined;
  readonly options: SubAgentOptions;
  readonly approver: Approver | undefined;
  open(sessionId: string): Promise<Session>;
  /** The session if this runtime has it open, without opening it. */
  opened(sessionId: string): Session | undefined;
  deleteSession(sessionId: string): Promise<boolean>;
}

/** A child round this runtime executes. */
interface LocalRun {
  readonly controller: AbortController;
  readonly done: Promise<void>;
  waitingForApproval: boolean;
  /** Another host took the run, or it ended elsewhere (a cancel): do not record an outcome. */
  leaseLost: boolean;
}

/**
 * Runs a runtime's child agents (architecture §4). Runs live in the store; this runtime executes
 * those it holds a lease on — at most `maxRunning` at once — renewing the lease every third of its
 * length. It takes runs nobody holds (new ones, and those of a host that stopped renewing), so
 * several runtimes on one database share the work and a dead host's runs go on elsewhere. Each
 * round ends with one `finishAgentRun`, which puts the result in the parent's mailbox.
 */
export class AgentSupervisor {
  readonly hostId: string;
  readonly #host: SupervisorHost;
  readonly #maxRunning: number;
  readonly #leaseMs: number;
  readonly #local = new Map<string, LocalRun>();
  /** The approver of the turn that delegated, while this runtime lives. */
  readonly #approvers = new Map<string, Approver>();
  #waiters = new Set<() => void>();
  #filling: Promise<void> = Promise.resolve();
  #sweep: ReturnType<typeof setInterval> | undefined;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #closing = false;

  constructor(host: SupervisorHost) {
    this.#host = host;
    this.hostId = host.options.hostId ?? globalThis.crypto.randomUUID();
    this.#maxRunning = host.options.maxRunning ?? SUB_AGENT_DEFAULTS.maxRunning;
    this.#leaseMs = host.options.leaseMs ?? SUB_AGENT_DEFAULTS.leaseMs;
  }

  /** Whether children can run here: the host gave a model source. */
  get available(): boolean {
    return this.#host.models !== undefined;
  }

  /** Starts looking for runs without a live lease, every half lease. */
  start(): void {
    if (!this.available || this.#sweep !== undefined) return;
    this.#sweep = setInterval(() => this.fill(), Math.max(50, Math.floor(this.#leaseMs / 2)));
    this.#sweep.unref();
    this.fill();
  }

  /** Whether a session at `depth` (0 = root) may delegate. */
  mayDelegate(depth: number): boolean {
    if (!this.available) return false;
    return depth === 0 || (depth === 1 && this.#host.options.childrenMayDelegate === true);
  }

  /** The children tools of `parent`, whose depth is `depth`. */
  forSession(parent: Session, depth: number, turnApprover: () => Approver | undefined): SessionAgents {
    return {
      send: (operations) => this.#send(parent, depth, operations, turnApprover()),
      wait: (agentIds, timeoutMs, signal) => this.#wait(parent.id, agentIds, timeoutMs, signal),
      markShown: (statuses) => this.#markShown(parent.id, statuses),
      list: () => this.#host.store.listAgentRuns(parent.id),
    };
  }

  /**
   * A parent was opened (after a restart, or on another host): its children are never silently
   * lost. With a model source, runs nobody holds are taken up and resumed; without one, they are
   * marked `interrupted` with what they had, which the mailbox then delivers.
   */
  async adopt(parentSessionId: string): Promise<void> {
    if (this.available) {
      this.fill();
      return;
    }
    let recheck: number | undefined;
    for (const run of await this.#host.store.listAgentRuns(parentSessionId)) {
      if (isFinalAgentRunState(run.state)) continue;
      const held = await this.#host.store.claimAgentRun(run.id, { owner: this.hostId, leaseMs: this.#leaseMs });
      if (held === undefined) {
        // Another host's lease is still live: look again once it has run out (it may be renewed).
        const expires = run.leaseExpiresAt === null ? Date.now() : Date.parse(run.leaseExpiresAt);
        recheck = Math.min(recheck ?? Number.POSITIVE_INFINITY, Math.max(50, expires - Date.now() + 50));
        continue;
      }
      await this.#finish(held, 'interrupted', await this.#whatItHad(held.id), 'the run was cut off and this runtime has no model for child agents to resume it');
    }
    if (recheck !== undefined && !this.#closing) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        void this.adopt(parentSessionId).catch(() => undefined);
      }, recheck);
      timer.unref();
      this.#timers.add(timer);
    }
  }

  /** Takes as many free runs as there are free slots, and starts them. Serialised: never over the limit. */
  fill(): void {
    if (!this.available || this.#closing) return;
    this.#filling = this.#filling.then(async () => {
      const free = this.#maxRunning - this.#local.size;
      if (free <= 0 || this.#closing) return;
      let claimed: AgentRunRecord[];
      try {
        claimed = await this.#host.store.claimAgentRuns({ owner: this.hostId, leaseMs: this.#leaseMs, limit: free });
      } catch {
        return; // The store is away for a moment; the next sweep tries again.
      }
      for (const run of claimed) this.#execute(run);
    });
  }

  /** The parent is being deleted: cancel and delete its children (and theirs) first. */
  async deleteChildren(parentSessionId: string): Promise<void> {
    const runs = await this.#host.store.listAgentRuns(parentSessionId).catch(() => []);
    for (const run of runs) {
      await this.deleteChildren(run.id);
      const local = this.#local.get(run.id);
      if (local !== undefined) {
        local.leaseLost = true;
        local.controller.abort();
        await local.done;
      }
      await this.#host.store.finishAgentRun(run.id, { owner: null, state: 'cancelled', result: { text: '', error: 'the parent session was deleted' } }).catch(() => undefined);
      await this.#host.deleteSession(run.id);
    }
  }

  /** The runtime is closing: nothing new starts, and runs it cancels are not recorded as cancelled. */
  beginClose(): void {
    this.#closing = true;
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  /** After the turns ended: gives up this runtime's leases, so another host (or a restart) takes the runs at once. */
  async close(): Promise<void> {
    this.beginClose();
    await this.#filling;
    const runs = [...this.#local.entries()];
    for (const [, local] of runs) local.controller.abort();
    await Promise.all(runs.map(([, local]) => local.done));
    await Promise.all(runs.map(([id]) => this.#host.store.releaseAgentRun(id, this.hostId).catch(() => false)));
  }

  async #send(parent: Session, depth: number, operations: readonly AgentOperation[], approver: Approver | undefined): Promise<AgentReceipt[]> {
    const receipts: AgentReceipt[] = [];
    for (const operation of operations) {
      try {
        receipts.push(await this.#operate(parent, depth, operation, approver));
      } catch (error) {
        receipts.push({ ok: false, kind: operation.kind, error: error instanceof Error ? error.message : String(error) });
      }
    }
    this.fill();
    return receipts;
  }

  async #operate(parent: Session, depth: number, operation: AgentOperation, approver: Approver | undefined): Promise<AgentReceipt> {
    const store = this.#host.store;
    switch (operation.kind) {
      case 'delegate': {
        if (operation.idempotencyKey === undefined) await this.#checkOpenChildren(parent.id);
        const { run, created } = await store.createAgentRun({
          parentSessionId: parent.id,
          role: operation.role,
          prompt: operation.prompt,
          depth: depth + 1,
          ...(operation.idempotencyKey === undefined ? {} : { idempotencyKey: operation.idempotencyKey }),
          child: { workspaceRoots: parent.workspaceRoots, mode: childMode(operation.role, parent.mode) },
        });
        if (!created) return { ok: true, kind: 'delegate', run, note: `already delegated with idempotencyKey ${JSON.stringify(operation.idempotencyKey)}: no second child was started` };
        if (approver !== undefined) this.#approvers.set(run.id, approver);
        return { ok: true, kind: 'delegate', run, note: 'accepted and stored; it starts as soon as a slot is free' };
      }
      case 'message': {
        const run = await this.#childOf(parent.id, operation.agentId);
        const reopened = await store.reopenAgentRun(run.id, operation.text);
        if (reopened === undefined) {
          return { ok: false, kind: 'message', error: `agent ${JSON.stringify(run.id)} is still ${run.state} (round ${run.round}); agent_await it first, or cancel it` };
        }
        if (approver !== undefined) this.#approvers.set(run.id, approver);
        return { ok: true, kind: 'message', run: reopened, note: `accepted; round ${reopened.round} starts with your message` };
      }
      case 'cancel': {
        const run = await this.#childOf(parent.id, operation.agentId);
        if (isFinalAgentRunState(run.state)) return { ok: true, kind: 'cancel', run, note: `it had already ended (${run.state}); nothing to cancel` };
        const local = this.#local.get(run.id);
        if (local !== undefined) {
          local.controller.abort();
          await local.done;
          return { ok: true, kind: 'cancel', run: (await store.getAgentRun(run.id)) ?? run, note: 'cancelled' };
        }
        // Queued, or running on another host: end it in the store; that host sees it at its next renewal.
        const ended = await this.#finish(run, 'cancelled', await this.#whatItHad(run.id), 'cancelled by the parent', null);
        return { ok: true, kind: 'cancel', run: ended ?? (await store.getAgentRun(run.id)) ?? run, note: 'cancelled' };
      }
    }
  }

  /** At most `MAX_OPEN_CHILDREN` children of a parent that have not ended. */
  async #checkOpenChildren(parentSessionId: string): Promise<void> {
    const open = (await this.#host.store.listAgentRuns(parentSessionId)).filter((run) => !isFinalAgentRunState(run.state)).length;
    if (open >= MAX_OPEN_CHILDREN) {
      throw new Error(`this session already has ${open} children that have not ended (the limit is ${MAX_OPEN_CHILDREN}); agent_await or cancel some first`);
    }
  }

  async #childOf(parentSessionId: string, agentId: string): Promise<AgentRunRecord> {
    const run = await this.#host.store.getAgentRun(agentId);
    if (run === undefined || run.parentSessionId !== parentSessionId) {
      throw new Error(`no child agent ${JSON.stringify(agentId)} of this session; agent_list shows the ids`);
    }
    return run;
  }

  async #wait(parentSessionId: string, agentIds: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<AgentStatus[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Listen before reading, so a change between the read and the wait is not missed.
      const changed = this.#nextChange();
      const statuses = await Promise.all(agentIds.map((id) => this.#status(parentSessionId, id)));
      const remaining = deadline - Date.now();
      if (statuses.every((status) => status.ready) || remaining <= 0 || signal.aborted) {
        changed.cancel();
        return statuses;
      }
      await changed.wait(Math.min(STORE_POLL_MS, remaining), signal);
    }
  }

  async #status(parentSessionId: string, agentId: string): Promise<AgentStatus> {
    const run = await this.#host.store.getAgentRun(agentId);
    if (run === undefined || run.parentSessionId !== parentSessionId) return { agentId, run: undefined, state: 'unknown', ready: true };
    if (isFinalAgentRunState(run.state)) return { agentId, run, state: run.state, ready: true };
    if (this.#local.get(agentId)?.waitingForApproval === true) return { agentId, run, state: 'waiting_for_approval', ready: true };
    return { agentId, run, state: run.state, ready: false };
  }

  async #markShown(parentSessionId: string, statuses: readonly AgentStatus[]): Promise<void> {
    const shown = new Set(statuses.flatMap((status) => (status.run !== undefined && isFinalAgentRunState(status.run.state) ? [`${status.run.id}\u0000${status.run.round}`] : [])));
    if (shown.size === 0) return;
    const entries = await this.#host.store.listMailbox(parentSessionId, { undelivered: true });
    const sequences = entries.filter((entry) => shown.has(`${entry.agentId}\u0000${entry.round}`)).map((entry) => entry.sequence);
    if (sequences.length > 0) await this.#host.store.markMailboxDelivered(parentSessionId, sequences);
  }

  /** Executes a round this runtime holds the lease of, renewing it until the round ends. */
  #execute(run: AgentRunRecord): void {
    const controller = new AbortController();
    let finished: () => void = () => undefined;
    const local: LocalRun = { controller, done: new Promise<void>((resolve) => (finished = resolve)), waitingForApproval: false, leaseLost: false };
    this.#local.set(run.id, local);
    const renew = setInterval(() => void this.#renew(run.id, local), Math.max(20, Math.floor(this.#leaseMs / 3)));
    renew.unref();
    void this.#runRound(run, local)
      .catch(() => undefined)
      .finally(() => {
        clearInterval(renew);
        this.#local.delete(run.id);
        finished();
        this.#notify();
        this.fill();
      });
  }

  async #runRound(run: AgentRunRecord, local: LocalRun): Promise<void> {
    const maxAttempts = this.#host.options.maxAttempts ?? SUB_AGENT_DEFAULTS.maxAttempts;
    if (run.attempts > maxAttempts) {
      await this.#finish(run, 'interrupted', await this.#whatItHad(run.id), `the round was cut off ${run.attempts - 1} times; it is not tried again`);
      return;
    }
    let outcome: TurnOutcome;
    try {
      const child = await this.#host.open(run.id);
      const roundMessageId = `agent-round-${run.round}`;
      const started = (await child.messages()).some((message) => message.id === roundMessageId);
      const role = child.role;
      const instructions = this.#host.options.instructions?.(role);
      outcome = await child.runAgentTurn(
        {
          input: run.prompt,
          model: (this.#host.models as AgentModelSource)(role),
          signal: local.controller.signal,
          maxSteps: this.#host.options.maxSteps ?? SUB_AGENT_DEFAULTS.maxSteps,
          ...(instructions === undefined ? {} : { instructions }),
          ...this.#childApprover(run, local),
        },
        started ? { resume: true } : { inputMessageId: roundMessageId },
      );
    } catch (error) {
      if (this.#closing || local.leaseLost) return;
      await this.#finish(run, 'failed', await this.#whatItHad(run.id), `the child could not run: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    // Closing: the lease is released and the round goes on after a restart or on another host.
    if (this.#closing || local.leaseLost) return;
    const state: FinalAgentRunState = outcome.status === 'completed' ? 'finished' : outcome.status === 'cancelled' ? 'cancelled' : 'failed';
    const error =
      outcome.status === 'completed'
        ? undefined
        : outcome.status === 'cancelled'
          ? 'cancelled by the parent'
          : outcome.status === 'max_steps'
            ? `the child used all of its ${this.#host.options.maxSteps ?? SUB_AGENT_DEFAULTS.maxSteps} model requests without finishing`
            : (outcome.error ?? 'the child failed');
    await this.#finish(run, state, outcome.text, error);
  }

  /** Every approval a child needs goes to the delegating turn's approver (else the runtime's), naming the child. */
  #childApprover(run: AgentRunRecord, local: LocalRun): { approver?: Approver } {
    const base = this.#approvers.get(run.id) ?? this.#host.approver;
    if (base === undefined) return {};
    return {
      approver: async (card, context) => {
        local.waitingForApproval = true;
        this.#notify();
        try {
          return await base(card, {
            ...context,
            agent: { agentId: run.id, parentSessionId: run.parentSessionId, role: run.role, depth: run.depth, prompt: run.prompt },
          });
        } finally {
          local.waitingForApproval = false;
          this.#notify();
        }
      },
    };
  }

  async #renew(agentId: string, local: LocalRun): Promise<void> {
    if (local.controller.signal.aborted) return;
    let held: AgentRunRecord | undefined;
    try {
      held = await this.#host.store.claimAgentRun(agentId, { owner: this.hostId, leaseMs: this.#leaseMs });
    } catch (error) {
      if (!AgentRunNotFoundError.isInstance(error)) return; // The store is away for a moment: try at the next renewal.
    }
    if (held === undefined) {
      // Cancelled in the store, deleted, or taken by another host after this one stalled.
      local.leaseLost = true;
      local.controller.abort();
    }
  }

  /** Ends the round with its result (one mailbox entry) and tells the parent's subscribers here. */
  async #finish(run: AgentRunRecord, state: FinalAgentRunState, text: string, error: string | undefined, owner: string | null = this.hostId): Promise<AgentRunRecord | undefined> {
    const ended = await this.#host.store
      .finishAgentRun(run.id, { owner, state, result: error === undefined ? { text } : { text, error } })
      .catch((caught: unknown) => {
        if (AgentRunNotFoundError.isInstance(caught) || SessionNotFoundError.isInstance(caught)) return undefined;
        throw caught;
      });
    this.#approvers.delete(run.id);
    this.#notify();
    if (ended?.result !== null && ended !== undefined) {
      this.#host.opened(ended.parentSessionId)?.publishUpdate({
        type: 'agent_finished',
        sessionId: ended.parentSessionId,
        agentId: ended.id,
        role: ended.role,
        round: ended.round,
        state: state,
        result: ended.result,
      });
    }
    return ended;
  }

  /** The child's last assistant text: what an interrupted or cancelled child had. */
  async #whatItHad(agentId: string): Promise<string> {
    const messages: readonly StoredMessage[] = await this.#host.store.loadMessages(agentId).catch(() => []);
    return lastAssistantText(messages);
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const wake of waiters) wake();
  }

  #nextChange(): { wait(ms: number, signal: AbortSignal): Promise<void>; cancel(): void } {
    let wake: () => void = () => undefined;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.#waiters.add(wake);
    return {
      wait: async (ms, signal) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const onAbort = (): void => wake();
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          await Promise.race([woken, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
        } finally {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          this.#waiters.delete(wake);
        }
      },
      cancel: () => this.#waiters.delete(wake),
    };
  }
}

/** A child's mode is never wider than its parent's; an explorer only reads (architecture §3.1). */
function childMode(role: 'explorer' | 'default', parent: SessionMode): SessionMode {
  return role === 'explorer' ? 'read-only' : parent;
}
