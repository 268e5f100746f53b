import { detectRunnerFailure } from '@openwork/sandbox';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { runSandboxedBash, type SandboxedBashRequest } from '../run-sandboxed-bash.js';
import type { BackgroundTask } from './background-task.js';

/** A background run: the request of a foreground one without timeout, signal, progress and spill. */
export type BackgroundBashRequest = Omit<SandboxedBashRequest, 'timeoutMs' | 'signal' | 'onProgress' | 'onOutput' | 'spill' | 'stdin' | 'onWrapped'>;

/**
 * Starts `task` through THE one runner of bash (`runSandboxedBash`, acceptance 10d: wrapped with
 * this call's policy, spawned by the process backend, the wrap released after the exit) without
 * waiting for it: the wrap's claim is held until the process ends — normal exit, bash_kill, the
 * session closing — so its staged writes keep reaching the host exactly as long as the task runs (architecture §3.10).
 * The task's own signal is its only cancel: the call that started it ends long before.
 */
export function startBackgroundBash(session: ToolSessionContext, task: BackgroundTask, request: BackgroundBashRequest): void {
  const run = runSandboxedBash(session, {
    ...request,
    timeoutMs: undefined,
    signal: task.signal,
    onOutput: (chunk) => task.receive(chunk),
    spill: task.spill,
    // bash_input: the task's stdin is a pipe (the terminal's input with tty), not /dev/null.
    stdin: task.stdin,
    // Staged writes (architecture §3.10): the task's writes reach the host while it runs, and the
    // file tools' writes reach its watchers.
    onWrapped: (wrapped) => task.attachSandbox(wrapped),
  }).then(
    (result) => {
      if (result.kind === 'unavailable') task.fail(`the kernel sandbox is unavailable (${result.reason}); nothing ran`);
      else task.settle(result.outcome, detectRunnerFailure({ exitCode: result.outcome.exitCode, output: result.outcome.output })?.reason, result.notices, result.staged);
    },
    (error: unknown) => task.fail(`bash could not be started: ${error instanceof Error ? error.message : String(error)}`),
  );
  task.attach(run);
}
