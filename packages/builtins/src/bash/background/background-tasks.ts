import { randomBytes } from 'node:crypto';
import { BackgroundTask, type BackgroundTaskStart } from './background-task.js';
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
  #closed = false;

  /** Every task of the session, oldest first. */
  list(): readonly BackgroundTask[] {
    return [...this.#tasks.values()];
  }

  running(): readonly BackgroundTask[] {
    return this.list().filter((task) => task.state === 'running');
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
    const task = new BackgroundTask(start);
    this.#tasks.set(task.id, task);
    return task;
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
  }
}
