import { BoundedCapture, type ProcessOutcome } from '@openwork/process-backend';
import type { SpillLocation } from '../../spill/spill-location.js';
import type { BackgroundTaskArtifact, BackgroundTaskState } from './background-task-state.js';

/** What one read of a task returns: the output since the previous read, bounded like bash (§7.9). */
export interface TaskRead {
  /** Head 2 KiB + marker + tail 14 KiB of the new part (all of it up to 16 KiB). */
  readonly text: string;
  readonly newBytes: number;
  readonly omittedBytes: number;
}

/** How a task was started. */
export interface BackgroundTaskStart {
  readonly id: string;
  readonly command: string;
  readonly description?: string;
  /** The task's whole output, up to 64 MiB, once it passes 16 KiB (§8.2). */
  readonly spill?: SpillLocation;
}

/**
 * One background bash (issue 26): its state and the output nobody has read yet. Memory holds at
 * most head + tail of the unread part (a `BoundedCapture` per part), whatever the task prints; the
 * whole output goes to the task's spill file through the process backend.
 */
export class BackgroundTask {
  readonly id: string;
  readonly command: string;
  readonly description: string | undefined;
  readonly startedAt = new Date();
  readonly spill: SpillLocation | undefined;
  readonly #controller = new AbortController();
  #state: BackgroundTaskState = 'running';
  #exitCode: number | null = null;
  #problem: string | undefined;
  #killRequested = false;
  #unread = new BoundedCapture();
  #totalBytes = 0;
  readonly #listeners = new Set<() => void>();
  #ended: Promise<void> = Promise.resolve();

  constructor(start: BackgroundTaskStart) {
    this.id = start.id;
    this.command = start.command;
    this.description = start.description;
    this.spill = start.spill;
  }

  get state(): BackgroundTaskState {
    return this.#state;
  }

  get exitCode(): number | null {
    return this.#exitCode;
  }

  /** Why it failed, or a note on how it ended (`killed: the session closed`). */
  get problem(): string | undefined {
    return this.#problem;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  get unreadBytes(): number {
    return this.#unread.totalBytes;
  }

  /** Aborting it kills the task's process group through the process backend's one terminate path (§5). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Binds the run: `ended` settles once the process is gone and its sandbox claim released. */
  attach(ended: Promise<void>): void {
    this.#ended = ended;
  }

  /** A chunk of merged output (the process backend's `onOutput`). */
  receive(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    this.#unread.push(chunk);
    this.#notify();
  }

  /** The process is gone: its state from the outcome (`killed` when we killed it). */
  settle(outcome: ProcessOutcome, runnerFailure: string | undefined): void {
    this.#exitCode = outcome.exitCode;
    if (outcome.status === 'failed') this.#end('failed', outcome.error ?? 'the process could not be started or read');
    else if (outcome.status === 'outcome_unknown') this.#end('failed', `it was to be stopped, but its processes could not be confirmed gone: ${outcome.error ?? 'unknown'}`);
    else if (runnerFailure !== undefined) this.#end('failed', `the kernel sandbox failed to start (${runnerFailure}); nothing ran`);
    else if (this.#killRequested || outcome.status === 'cancelled') this.#end('killed', this.#problem);
    else this.#end('exited', undefined);
  }

  /** Starting it failed before a process existed. */
  fail(reason: string): void {
    this.#end('failed', reason);
  }

  /** Kills the whole process group (no-op once it ended) and waits until it is gone. */
  async kill(reason?: string): Promise<void> {
    if (this.#state === 'running' && !this.#killRequested) {
      this.#killRequested = true;
      this.#problem = reason;
      this.#controller.abort();
    }
    await this.#ended;
  }

  /**
   * Waits at most `ms` for new output or the end; returns at once if there is either already, and
   * when `signal` (the waiting call's cancel) aborts — the task itself goes on.
   */
  async waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || this.#state !== 'running' || this.unreadBytes > 0 || signal?.aborted === true) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#listeners.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#listeners.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Waits at most `ms` for the end only (bash's first yield), or until `signal` aborts. */
  async waitForEnd(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      this.#ended,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, ms));
        onAbort = resolve;
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }

  /** Takes the unread part: the next read starts after it. */
  async read(): Promise<TaskRead> {
    const part = this.#unread;
    this.#unread = new BoundedCapture();
    const captured = await part.finish();
    return { text: captured.text, newBytes: captured.totalBytes, omittedBytes: captured.omittedBytes };
  }

  artifact(): BackgroundTaskArtifact {
    return {
      kind: 'background_task',
      taskId: this.id,
      command: this.command,
      ...(this.description === undefined ? {} : { description: this.description }),
      state: this.#state,
      exitCode: this.#exitCode,
      startedAt: this.startedAt.toISOString(),
    };
  }

  #end(state: BackgroundTaskState, problem: string | undefined): void {
    if (this.#state !== 'running') return;
    this.#state = state;
    this.#problem = problem;
    this.#notify();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
