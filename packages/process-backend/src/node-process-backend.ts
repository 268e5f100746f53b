import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { stdioWithoutInheritedDescriptors } from './inherited-descriptors.js';
import type { Readable, Writable } from 'node:stream';
import { BoundedCapture } from './bounded-capture.js';
import type { CapturedOutput } from './bounded-capture.js';
import { MAX_SPILL_BYTES, PIPE_DRAIN_LIMIT_MS, PIPE_DRAIN_MS, TERMINATE_WAIT_MS } from './capture-limits.js';
import type { ProcessBackend, ProcessProgress, ProcessSpawnOptions } from './process-backend.js';
import { InvalidSpawnRequestError } from './process-backend-error.js';
import { registerLiveProcessGroup, unregisterLiveProcessGroup } from './process-group-reaper.js';
import type { ProcessOutcome, ProcessStatus } from './process-outcome.js';
import { ProgressRateLimit, type RateLimitedProgress } from './progress-rate-limit.js';
import { terminateProcessGroup } from './terminate-process-group.js';
import type { KillProcessGroup } from './terminate-process-group.js';

/** Knobs of `NodeProcessBackend`. The defaults are the spec's; the others exist for tests and embedders. */
export interface NodeProcessBackendOptions {
  /** How process groups are signalled (default `process.kill`). Tests inject failures here. */
  readonly killProcessGroup?: KillProcessGroup;
  /** Bounded wait for the leader's exit after SIGKILL (default `TERMINATE_WAIT_MS`). */
  readonly terminateWaitMs?: number;
  /** After the process exits, stop reading pipes that stay quiet this long (default `PIPE_DRAIN_MS`). */
  readonly pipeDrainMs?: number;
  /** After the process exits, stop reading pipes after this long in all (default `PIPE_DRAIN_LIMIT_MS`). */
  readonly pipeDrainLimitMs?: number;
  /** Spill file cap (default `MAX_SPILL_BYTES`, 64 MiB). */
  readonly maxSpillBytes?: number;
}

/** Why the wait for the process ended first. */
type Ending = 'exit' | 'timeout' | 'cancel' | 'pipe_failed';

/**
 * `ProcessBackend` on Node's `child_process` (§4, §5, §7.9). Each child gets its own process group
 * (`detached`), stdin from /dev/null (or the caller's `ProcessStdin` pipe), exactly the given environment and no shell. Output is read
 * continuously as buffers into a `BoundedCapture`; timeout and cancellation both go through
 * `terminateProcessGroup`. The call finishes on the child's `exit`, after a bounded pipe drain, so
 * a background child that keeps stdout open cannot hang it (peers.md "Processes").
 */
export class NodeProcessBackend implements ProcessBackend {
  readonly #kill: KillProcessGroup;
  readonly #terminateWaitMs: number;
  readonly #pipeDrainMs: number;
  readonly #pipeDrainLimitMs: number;
  readonly #maxSpillBytes: number;

  constructor(options: NodeProcessBackendOptions = {}) {
    this.#kill = options.killProcessGroup ?? ((pid, signal) => process.kill(pid, signal));
    this.#terminateWaitMs = positiveInteger(options.terminateWaitMs ?? TERMINATE_WAIT_MS, 'terminateWaitMs', true);
    this.#pipeDrainMs = positiveInteger(options.pipeDrainMs ?? PIPE_DRAIN_MS, 'pipeDrainMs', true);
    this.#pipeDrainLimitMs = positiveInteger(options.pipeDrainLimitMs ?? PIPE_DRAIN_LIMIT_MS, 'pipeDrainLimitMs', true);
    this.#maxSpillBytes = positiveInteger(options.maxSpillBytes ?? MAX_SPILL_BYTES, 'maxSpillBytes', false);
  }

  async spawn(argv: readonly string[], options: ProcessSpawnOptions): Promise<ProcessOutcome> {
    validateRequest(argv, options);
    const startedAt = performance.now();
    const capture = new BoundedCapture({ ...(options.spill === undefined ? {} : { spill: options.spill }), maxSpillBytes: this.#maxSpillBytes });
    const finishWith = async (status: ProcessStatus, facts: OutcomeFacts): Promise<ProcessOutcome> => {
      const captured = status === 'failed' ? await abandonCapture(capture) : await capture.finish();
      return outcomeOf(status, captured, facts, options.timeoutMs, startedAt);
    };

    // A call cancelled before it starts never runs.
    if (options.signal?.aborted === true) return finishWith('cancelled', {});

    const [program = '', ...args] = argv;
    let subprocess: ChildProcessByStdio<Writable | null, Readable, Readable>;
    // Background bash: a pipe when the caller types into the process, else /dev/null (§7.9).
    const stdin = options.stdin === undefined ? 'ignore' : 'pipe';
    try {
      subprocess = spawn(program, args, {
        cwd: options.cwd,
        env: { ...options.env },
        shell: false,
        // Its own process group (setsid), so one kill reaches everything it starts (§5).
        detached: true,
        // §3.7: no descriptor this process inherited reaches the command (only 0, 1, 2).
        stdio: stdioWithoutInheritedDescriptors([stdin, 'pipe', 'pipe'] as const) as ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      return finishWith('failed', { error: await describeStartFailure(program, options.cwd, error) });
    }
    const pid = subprocess.pid;
    if (pid === undefined) {
      // A failed start (ENOENT, EACCES, E2BIG, a missing cwd) is reported on the next tick.
      const failure = await new Promise<unknown>((resolve) => subprocess.once('error', resolve));
      return finishWith('failed', { error: await describeStartFailure(program, options.cwd, failure) });
    }
    // After the start only a failed kill can raise 'error', and terminate reports that itself.
    subprocess.on('error', () => undefined);

    registerLiveProcessGroup(pid);
    if (subprocess.stdin !== null) options.stdin?.attach(subprocess.stdin);
    try {
      return await this.#supervise(pid, subprocess, capture, options, finishWith);
    } finally {
      options.stdin?.detach();
      unregisterLiveProcessGroup(pid);
    }
  }

  async #supervise(
    pid: number,
    subprocess: ChildLike,
    capture: BoundedCapture,
    options: ProcessSpawnOptions,
    finishWith: (status: ProcessStatus, facts: OutcomeFacts) => Promise<ProcessOutcome>,
  ): Promise<ProcessOutcome> {
    let exit: { code: number | null; signal: string | null } | undefined;
    const exited = new Promise<void>((resolve) => {
      subprocess.once('exit', (code: number | null, signal: string | null) => {
        exit = { code, signal };
        resolve();
      });
    });

    let settleEnding: (ending: Ending) => void = () => undefined;
    const ending = new Promise<Ending>((resolve) => {
      settleEnding = resolve;
    });
    void exited.then(() => settleEnding('exit'));

    const reader = new MergedOutputReader(
      [
        { stream: subprocess.stdout, kind: 'stdout' },
        { stream: subprocess.stderr, kind: 'stderr' },
      ],
      capture,
      options.onProgress,
      () => settleEnding('pipe_failed'),
      options.onOutput,
    );

    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => settleEnding('timeout'), options.timeoutMs);
    const onAbort = (): void => settleEnding('cancel');
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const first = await ending;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);

    let status: ProcessStatus;
    let error: string | undefined;
    if (first === 'exit') {
      status = 'exited';
    } else {
      // §5: the same terminate for timeout, cancel and a broken pipe while the process may still run.
      const termination = await terminateProcessGroup(pid, { exited, kill: this.#kill, waitMs: this.#terminateWaitMs });
      if (termination.kind === 'unknown') {
        reader.stop();
        return finishWith('outcome_unknown', { pid, error: termination.reason, exit, pipeError: reader.error });
      }
      status = first === 'timeout' ? 'timed_out' : first === 'cancel' ? 'cancelled' : 'failed';
    }
    if (reader.error === undefined) await reader.drain(this.#pipeDrainMs, this.#pipeDrainLimitMs);
    reader.stop();
    if (reader.error !== undefined) {
      status = 'failed';
      error = `reading the output of ${subprocess.spawnfile ?? 'the process'} failed: ${describeError(reader.error)}`;
    }
    return finishWith(status, { pid, exit, ...(error === undefined ? {} : { error }) });
  }
}

/** The part of a child process this file uses. */
interface ChildLike {
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly spawnfile?: string;
  once(event: 'exit', listener: (code: number | null, signal: string | null) => void): unknown;
}

interface OutcomeFacts {
  readonly pid?: number;
  readonly exit?: { code: number | null; signal: string | null } | undefined;
  readonly error?: string;
  readonly pipeError?: unknown;
}

/**
 * Reads stdout and stderr continuously into one capture, in arrival order (§7.9), reports each
 * stream separately as progress (§8.3), and pauses both pipes while the spill file catches up.
 */
class MergedOutputReader {
  error: unknown;
  readonly #sources: ReadonlyArray<{ readonly stream: Readable; readonly kind: ProcessProgress['kind']; readonly onData: (chunk: Buffer) => void; readonly ended: Promise<void> }>;
  readonly #capture: BoundedCapture;
  readonly #onProgress: ProcessSpawnOptions['onProgress'];
  readonly #onOutput: ProcessSpawnOptions['onOutput'];
  readonly #progress = new Map<ProcessProgress['kind'], ProgressRateLimit>();
  #paused = false;
  #stopped = false;
  #lastActivity = 0;

  constructor(
    streams: ReadonlyArray<{ readonly stream: Readable; readonly kind: ProcessProgress['kind'] }>,
    capture: BoundedCapture,
    onProgress: ProcessSpawnOptions['onProgress'],
    onError: () => void,
    onOutput?: ProcessSpawnOptions['onOutput'],
  ) {
    this.#capture = capture;
    this.#onProgress = onProgress;
    this.#onOutput = onOutput;
    this.#sources = streams.map(({ stream, kind }) => {
      const onData = (chunk: Buffer): void => this.#receive(kind, chunk);
      const ended = new Promise<void>((resolve) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
      });
      stream.on('data', onData);
      stream.on('error', (error: unknown) => {
        if (this.#stopped) return;
        this.error ??= error;
        onError();
      });
      return { stream, kind, onData, ended };
    });
  }

  /**
   * After the exit: reads on until both pipes reach end of file, but stops once they have been
   * quiet for `idleMs` (a background child holds them open without writing) or after `limitMs`
   * in all (it keeps writing). Time spent paused for the spill file counts as activity, so a slow
   * disk does not cost the end of the output — the part that matters most (peers.md).
   */
  async drain(idleMs: number, limitMs: number): Promise<void> {
    const deadline = performance.now() + limitMs;
    const allEnded = Promise.all(this.#sources.map((source) => source.ended));
    let ended = false;
    void allEnded.then(() => {
      ended = true;
    });
    this.#lastActivity = performance.now();
    while (!ended) {
      const now = performance.now();
      if (this.#paused) this.#lastActivity = now;
      const wait = Math.min(deadline - now, this.#lastActivity + idleMs - now);
      if (wait <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        allEnded,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.ceil(wait));
        }),
      ]);
      clearTimeout(timer);
    }
  }

  /** Stops reading for good and closes our ends of the pipes. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const { stream, kind, onData } of this.#sources) {
      stream.off('data', onData);
      stream.destroy();
      const rest = this.#progress.get(kind)?.end();
      if (rest !== undefined) this.#report(kind, rest);
    }
  }

  #receive(kind: ProcessProgress['kind'], chunk: Buffer): void {
    this.#lastActivity = performance.now();
    this.#capture.push(chunk);
    if (this.#onOutput !== undefined) {
      try {
        this.#onOutput(chunk);
      } catch {
        // Dropped, like progress: an observer must not change the outcome.
      }
    }
    if (this.#onProgress !== undefined) {
      let limit = this.#progress.get(kind);
      if (limit === undefined) {
        limit = new ProgressRateLimit(this.#lastActivity);
        this.#progress.set(kind, limit);
      }
      const update = limit.accept(chunk, this.#lastActivity);
      if (update !== undefined) this.#report(kind, update);
    }
    if (!this.#paused && this.#capture.needsBackpressure) {
      this.#paused = true;
      for (const { stream } of this.#sources) stream.pause();
      void this.#capture.whenDrained().then(() => {
        this.#paused = false;
        if (!this.#stopped) for (const { stream } of this.#sources) stream.resume();
      });
    }
  }

  /** §8.3: progress is best effort — a throwing or rejecting callback is dropped, never awaited. */
  #report(kind: ProcessProgress['kind'], update: RateLimitedProgress): void {
    const progress: ProcessProgress = update.skippedBytes === 0 ? { kind, chunk: update.text } : { kind, chunk: update.text, skippedBytes: update.skippedBytes };
    try {
      const returned: unknown = this.#onProgress?.(progress);
      if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') {
        (returned as PromiseLike<unknown>).then(undefined, () => undefined);
      }
    } catch {
      // Dropped: progress must not change the outcome.
    }
  }
}

async function abandonCapture(capture: BoundedCapture): Promise<CapturedOutput> {
  const totalBytes = capture.totalBytes;
  await capture.abandon();
  return { text: '', totalBytes, omittedBytes: totalBytes };
}

function outcomeOf(
  status: ProcessStatus,
  captured: CapturedOutput,
  facts: OutcomeFacts,
  timeoutMs: number | undefined,
  startedAt: number,
): ProcessOutcome {
  let error = facts.error;
  if (facts.pipeError !== undefined) error = `${error ?? ''}${error === undefined ? '' : '; '}reading the output failed: ${describeError(facts.pipeError)}`;
  return {
    status,
    exitCode: facts.exit?.code ?? null,
    signal: facts.exit?.signal ?? null,
    output: captured.text,
    totalBytes: captured.totalBytes,
    omittedBytes: captured.omittedBytes,
    ...(captured.spill === undefined ? {} : { spill: captured.spill }),
    ...(captured.spillError === undefined ? {} : { spillError: captured.spillError }),
    durationMs: Math.round(performance.now() - startedAt),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(facts.pid === undefined ? {} : { pid: facts.pid }),
    ...(error === undefined ? {} : { error }),
  };
}

/** A start failure in words a model can act on: which program, and whether the program or the directory is missing. */
async function describeStartFailure(program: string, cwd: string, failure: unknown): Promise<string> {
  const cause = (failure as { cause?: unknown } | null)?.cause ?? failure;
  const code = (cause as { code?: unknown } | null)?.code ?? (failure as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    const cwdKind = await stat(cwd).then(
      (stats) => (stats.isDirectory() ? 'directory' : 'other'),
      () => 'missing',
    );
    if (cwdKind === 'missing') return `could not start ${program}: the working directory ${cwd} does not exist`;
    if (cwdKind === 'other') return `could not start ${program}: the working directory ${cwd} is not a directory`;
    if (code === 'ENOENT') return `could not start ${program}: no such file or program (ENOENT)`;
  }
  if (code === 'EACCES') return `could not start ${program}: permission denied (EACCES)`;
  return `could not start ${program}: ${describeError(cause)}`;
}

function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

function positiveInteger(value: number, name: string, allowZero: boolean): number {
  if (!Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new InvalidSpawnRequestError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(value)}`);
  }
  return value;
}

/** Programmer mistakes are thrown, never turned into outcomes. */
function validateRequest(argv: readonly string[], options: ProcessSpawnOptions): void {
  if (!Array.isArray(argv) || argv.length === 0) throw new InvalidSpawnRequestError('argv must name a program');
  if (typeof argv[0] !== 'string' || argv[0].length === 0) throw new InvalidSpawnRequestError('argv[0] must be a non-empty program name');
  for (const argument of argv) {
    if (typeof argument !== 'string') throw new InvalidSpawnRequestError('every argv entry must be a string');
    if (argument.includes('\0')) throw new InvalidSpawnRequestError('argv entries must not contain NUL bytes');
  }
  // A relative cwd would silently resolve against the Node process's cwd, not the session's (peers.md "Paths").
  if (typeof options.cwd !== 'string' || !isAbsolute(options.cwd) || options.cwd.includes('\0')) {
    throw new InvalidSpawnRequestError(`cwd must be an absolute path, got ${JSON.stringify(options.cwd)}; resolve it against the session's working directory first`);
  }
  if (typeof options.env !== 'object' || options.env === null) throw new InvalidSpawnRequestError('env must be an object of strings (the complete environment)');
  for (const [name, value] of Object.entries(options.env)) {
    if (typeof value !== 'string') throw new InvalidSpawnRequestError(`environment variable ${name} must be a string`);
    if (name.includes('=') || name.includes('\0') || value.includes('\0')) {
      throw new InvalidSpawnRequestError(`environment variable ${JSON.stringify(name)} cannot be passed to a process`);
    }
  }
  // setTimeout fires immediately above 2^31-1 ms, so a larger value is a mistake too.
  if (options.timeoutMs !== undefined && (!Number.isSafeInteger(options.timeoutMs) || options.timeoutMs < 1 || options.timeoutMs > 2_147_483_647)) {
    throw new InvalidSpawnRequestError(`timeoutMs must be an integer from 1 to 2147483647, got ${String(options.timeoutMs)}`);
  }
}
