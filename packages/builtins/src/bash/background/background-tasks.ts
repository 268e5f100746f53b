import { randomBytes } from 'node:crypto';
import type { BuiltinAgent } from '../../registry/builtin-agent.js';
import { BackgroundTask, type BackgroundTaskStart } from './background-task.js';
import type { BackgroundTaskJournal, BackgroundTaskJournalEntry } from './background-task-journal.js';
import { MAX_ENDED_TASKS_KEPT, MAX_RUNNING_TASKS } from './background-limits.js';

/** Why a task could not be added. */
export type AdmissionRefusal = { readonly kind: 'limit'; readonly running: readonly BackgroundTask[] } | { readonly kind: 'closed' };

/**
 * The background tasks of one session (issue 26). Shared by every toolset the session builds, like
 * its observation table; `close()` — the session closing, `runtime.close()` — kills every task and
 * waits until each is gone and its sandbox claim released, so no task outlives its owner.
 */
export class BackgroundTasks {
  readonly #tasks = new Map<string, BackgroundTask>();
  readonly #journal: BackgroundTaskJournal | undefined;
  readonly #saving = new Set<Promise<void>>();
  readonly #startsRecorded = new Map<string, Promise<void>>();
  #closed = false;

  /** With a `journal`, every task's start and end are recorded beyond this process (issue 26). */
  constructor(options: { readonly journal?: BackgroundTaskJournal } = {}) {
    this.#journal = options.journal;
  }

  /**
   * The tasks `agent` may reach (issue 26): the default agent every task of the session, an
   * explorer only those its own calls started.
   */
  visibleTo(agent: BuiltinAgent): readonly BackgroundTask[] {
    return agent === 'default' ? this.list() : this.list().filter((task) => task.agentRole === agent);
  }

  /**
   * Recorded tasks that are not alive in this process (an earlier host's), as `agent` may see
   * them: what `bash_output` says of a task after a restart. Empty without a journal, or when
   * reading it fails (the live tasks still answer).
   */
  async recorded(agent: BuiltinAgent): Promise<readonly BackgroundTaskJournalEntry[]> {
    const entries = await this.#journal?.list().catch(() => undefined);
    return (entries ?? []).filter((entry) => !this.#tasks.has(entry.taskId) && (agent === 'default' || entry.agentRole === agent));
  }

  /** Every task of the session, oldest first. */
  list(): readonly BackgroundTask[] {
    return [...this.#tasks.values()];
  }

  running(): readonly BackgroundTask[] {
    return this.list().filter((task) => task.state === 'running');
  }

  /**
   * Host paths a file tool just wrote: every running task whose sandbox stages writes sees them
   * through its overlay (a dev server's or watcher's own inotify fires), architecture §3.10.
   */
  async reflect(paths: readonly string[]): Promise<void> {
    await Promise.all(this.running().map((task) => task.reflect(paths)));
  }

  get(id: string): BackgroundTask | undefined {
    return this.#tasks.get(id);
  }

  /** A fresh id, unique in this session and unlikely to repeat one of an earlier process (spill file names). */
  newId(): string {
    for (;;) {
      const id = `bg-${randomBytes(3).toString('hex')}`;
      if (!this.#tasks.has(id)) return id;
    }
  }

  /** Adds a task unless the session is closed or already runs `MAX_RUNNING_TASKS`. */
  admit(start: BackgroundTaskStart): BackgroundTask | AdmissionRefusal {
    if (this.#closed) return { kind: 'closed' };
    const running = this.running();
    if (running.length >= MAX_RUNNING_TASKS) return { kind: 'limit', running };
    this.#forgetOldEnded();
    const task = new BackgroundTask({ ...start, onEnd: (ended) => void this.#save(ended) });
    this.#tasks.set(task.id, task);
    this.#startsRecorded.set(task.id, this.#save(task));
    return task;
  }

  /**
   * Settles once the start of task `id` is recorded (or recording it failed): bash waits for it
   * before it names the task to the model, so a host killed right after still leaves a record.
   */
  async startRecorded(id: string): Promise<void> {
    await this.#startsRecorded.get(id);
    this.#startsRecorded.delete(id);
  }

  /** Records the task as it is now; a failing journal never changes a task (it is known here still). */
  #save(task: BackgroundTask): Promise<void> {
    if (this.#journal === undefined) return Promise.resolve();
    const entry: BackgroundTaskJournalEntry = {
      taskId: task.id,
      command: task.command,
      ...(task.description === undefined ? {} : { description: task.description }),
      state: task.state,
      exitCode: task.exitCode,
      ...(task.problem === undefined ? {} : { problem: task.problem }),
      startedAt: task.startedAt.toISOString(),
      ...(task.endedAt === undefined ? {} : { endedAt: task.endedAt.toISOString(), outputTail: task.unreadTail() }),
      agentRole: task.agentRole,
    };
    // Saves of one task keep their order: its end never lands before its start.
    const previous = [...this.#saving].at(-1) ?? Promise.resolve();
    const saving: Promise<void> = previous.then(() => this.#journal?.save(entry)).catch(() => undefined).finally(() => this.#saving.delete(saving));
    this.#saving.add(saving);
    return saving;
  }

  /** Keeps at most `MAX_ENDED_TASKS_KEPT - 1` ended tasks before a new one is added (oldest go first). */
  #forgetOldEnded(): void {
    const ended = this.list().filter((task) => task.state !== 'running');
    for (const task of ended.slice(0, Math.max(0, ended.length - (MAX_ENDED_TASKS_KEPT - 1)))) this.#tasks.delete(task.id);
  }

  /** Kills every running task and waits for all of them; later starts are refused. Harmless twice. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.list().map((task) => task.kill('because its session closed')));
    // Their ends are recorded before the host closes its store.
    await Promise.all([...this.#saving]);
  }
}
