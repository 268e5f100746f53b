import { BoundedCapture, ProcessStdin, type ProcessOutcome } from '@openwork/process-backend';
import type { StagedApplyReport, WrappedCommand } from '@openwork/sandbox';
import type { BuiltinAgent } from '../../registry/builtin-agent.js';
import { cleanTerminalOutput, unfinishedTerminalSequenceLength } from '../../text/clean-terminal-output.js';
import type { SpillLocation } from '../../spill/spill-location.js';
import type { BackgroundTaskArtifact, BackgroundTaskState } from './background-task-state.js';
import { EMPTY_TYPED_LINE, type TypedLine } from './typed-line.js';

/** How often a running task's staged writes are applied to the host (architecture §3.10). */
export const SANDBOX_SYNC_MS = 1000;

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
  /** `tty: true`: it runs on a pseudo-terminal; reads are cleaned of terminal control sequences. */
  readonly tty?: boolean;
  /** Where it runs (absolute): `bash_input`'s command analysis resolves paths against it. */
  readonly cwd?: string;
  /** The agent role whose call started it: an explorer reaches only its own tasks. Default `default`. */
  readonly agentRole?: BuiltinAgent;
  /** Called once when it ends (its state is final), e.g. to store how it ended. */
  readonly onEnd?: (task: BackgroundTask) => void;
}

/** The end of the output kept for the record of how a task ended (§9 tail size). */
const RECENT_OUTPUT_BYTES = 16 * 1024;

/**
 * One background bash (docs/decisions/0032-background-bash-tasks.md): its state and the output nobody has read yet. Memory holds at
 * most head + tail of the unread part (a `BoundedCapture` per part), whatever the task prints; the
 * whole output goes to the task's spill file through the process backend.
 */
export class BackgroundTask {
  readonly id: string;
  readonly command: string;
  readonly description: string | undefined;
  readonly startedAt = new Date();
  readonly spill: SpillLocation | undefined;
  readonly tty: boolean;
  readonly cwd: string | undefined;
  readonly agentRole: BuiltinAgent;
  /** Its stdin: a pipe (or, with `tty`, the terminal's input) that `bash_input` writes to. */
  readonly stdin = new ProcessStdin();
  /** The line typed into it since the last Enter, as its shell will run it (`typeInto`); `bash_input` keeps it. */
  typedLine: TypedLine = EMPTY_TYPED_LINE;
  readonly #onEnd: ((task: BackgroundTask) => void) | undefined;
  readonly #controller = new AbortController();
  /** A tty's escape sequence (or `\r`) cut at the end of a chunk waits for the rest, so no read shows half of one. */
  #held: Buffer = Buffer.alloc(0);
  #recent: Buffer = Buffer.alloc(0);
  #endedAt: Date | undefined;
  #state: BackgroundTaskState = 'running';
  #exitCode: number | null = null;
  #problem: string | undefined;
  #killRequested = false;
  #unread = new BoundedCapture();
  #totalBytes = 0;
  readonly #listeners = new Set<() => void>();
  #ended: Promise<void> = Promise.resolve();
  #sandbox: WrappedCommand | undefined;
  #syncTimer: NodeJS.Timeout | undefined;

  constructor(start: BackgroundTaskStart) {
    this.id = start.id;
    this.command = start.command;
    this.description = start.description;
    this.spill = start.spill;
    this.tty = start.tty ?? false;
    this.cwd = start.cwd;
    this.agentRole = start.agentRole ?? 'default';
    this.#onEnd = start.onEnd;
  }

  /** When it ended, once it did. */
  get endedAt(): Date | undefined {
    return this.#endedAt;
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

  /**
   * Binds the task's sandbox: where it stages writes, what the task wrote is applied to the host
   * every `SANDBOX_SYNC_MS` while it runs (one pass at a time), and `reflect` shows it the file
   * tools' writes.
   */
  attachSandbox(wrapped: WrappedCommand): void {
    this.#sandbox = wrapped;
    const sync = wrapped.sync?.bind(wrapped);
    if (sync === undefined) return;
    let running = false;
    this.#syncTimer = setInterval(() => {
      if (running || this.#state !== 'running') return;
      running = true;
      sync()
        .then((report) => {
          const staged = report !== undefined && 'staged' in report ? (report as { staged: StagedApplyReport }).staged : undefined;
          if (staged !== undefined) this.#keepStaged(staged);
          // What a pass could not apply (conflicts with the host's own changes, a failed pass) is
          // part of what the task printed, as the refusals are at its end.
          for (const notice of report?.notices ?? []) if (this.#state === 'running') this.receive(Buffer.from(`\n${notice}\n`));
        })
        .catch(() => undefined)
        .finally(() => (running = false));
    }, SANDBOX_SYNC_MS);
    this.#syncTimer.unref();
  }

  #staged: StagedApplyReport[] = [];

  #keepStaged(report: StagedApplyReport): void {
    const total = report.counts.created + report.counts.modified + report.counts.deleted;
    if (total > 0) this.#staged.push(report);
  }

  /** What the task's staged writes applied to the host since the last call (sync passes, then its release): to be recorded as file changes. */
  takeStagedReports(): StagedApplyReport[] {
    const taken = this.#staged;
    this.#staged = [];
    return taken;
  }

  /** Host paths the file tools just wrote, shown to the running task (its watchers see them). */
  async reflect(paths: readonly string[]): Promise<void> {
    if (this.#state !== 'running') return;
    await this.#sandbox?.reflect?.(paths).catch(() => undefined);
  }

  /** Binds the run: `ended` settles once the process is gone and its sandbox claim released. */
  attach(ended: Promise<void>): void {
    this.#ended = ended;
  }

  /** A chunk of merged output (the process backend's `onOutput`). */
  receive(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    let part = chunk;
    if (this.tty) {
      part = this.#held.length === 0 ? chunk : Buffer.concat([this.#held, chunk]);
      const hold = heldBackBytes(part);
      this.#held = Buffer.from(part.subarray(part.length - hold));
      part = part.subarray(0, part.length - hold);
    }
    if (part.length === 0) return;
    this.#remember(part);
    this.#unread.push(part);
    this.#notify();
  }

  /** The end of what it printed that nobody read (cleaned for a tty), at most 16 KiB: what a record of its end keeps. */
  unreadTail(): string {
    const bytes = Math.min(this.unreadBytes, this.#recent.length);
    const text = this.#recent.subarray(this.#recent.length - bytes).toString('utf8');
    return this.tty ? cleanTerminalOutput(text) : text;
  }

  /** The process is gone: its state from the outcome (`killed` when we killed it). */
  settle(outcome: ProcessOutcome, runnerFailure: string | undefined, notices: readonly string[] = [], staged?: StagedApplyReport): void {
    this.#exitCode = outcome.exitCode;
    if (staged !== undefined) this.#keepStaged(staged);
    // What the sandbox kept from the host (refused staged writes) is part of what the task printed.
    for (const notice of notices) this.receive(Buffer.from(`\n${notice}\n`));
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

  /**
   * Waits until it has printed something and then been quiet for `quietMs` (what a program prints
   * in answer to input), at most `maxMs` in all; returns early when it ends or `signal` aborts.
   */
  async waitForAnswer(maxMs: number, quietMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + maxMs;
    let seen = this.#totalBytes;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || this.#state !== 'running' || signal?.aborted === true) return;
      const changed = await this.#nextChange(seen === this.#totalBytes && this.unreadBytes === 0 ? left : Math.min(quietMs, left), signal);
      if (!changed && this.unreadBytes > 0) return;
      seen = this.#totalBytes;
    }
  }

  /** Takes the unread part: the next read starts after it. A tty's part is cleaned of control sequences. */
  async read(): Promise<TaskRead> {
    const part = this.#unread;
    this.#unread = new BoundedCapture();
    const captured = await part.finish();
    return { text: this.tty ? cleanTerminalOutput(captured.text) : captured.text, newBytes: captured.totalBytes, omittedBytes: captured.omittedBytes };
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
    if (this.#syncTimer !== undefined) clearInterval(this.#syncTimer);
    this.#syncTimer = undefined;
    if (this.#state !== 'running') return;
    if (this.#held.length > 0) {
      this.#remember(this.#held);
      this.#unread.push(this.#held);
      this.#held = Buffer.alloc(0);
    }
    this.#state = state;
    this.#problem = problem;
    this.#endedAt = new Date();
    this.#notify();
    try {
      this.#onEnd?.(this);
    } catch {
      // Recording the end must not change it.
    }
  }

  #remember(part: Buffer): void {
    const joined = this.#recent.length === 0 ? part : Buffer.concat([this.#recent, part]);
    this.#recent = Buffer.from(joined.subarray(Math.max(0, joined.length - RECENT_OUTPUT_BYTES)));
  }

  /** `true` on new output or the end within `ms`, `false` when the time passed (or `signal` aborted). */
  #nextChange(ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const done = (changed: boolean): void => {
        clearTimeout(timer);
        this.#listeners.delete(onChange);
        signal?.removeEventListener('abort', onAbort);
        resolve(changed);
      };
      const onChange = (): void => done(true);
      const onAbort = (): void => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.#listeners.add(onChange);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

/**
 * Bytes at the end of `chunk` to hold back for the next one: an unfinished escape sequence or a
 * final `\r` (it may be half of `\r\n`). Scanned as bytes: ESC is ASCII, and a C1 CSI (0x9b) byte
 * in UTF-8 output is a continuation byte, so only ESC starts a sequence here.
 */
function heldBackBytes(chunk: Buffer): number {
  const start = chunk.lastIndexOf(0x1b);
  if (start !== -1 && chunk.length - start <= 256) {
    const tail = chunk.subarray(start).toString('latin1').replaceAll('\x9b', ' ');
    const held = unfinishedTerminalSequenceLength(tail);
    if (held > 0) return held;
  }
  return chunk.at(-1) === 0x0d ? 1 : 0;
}
