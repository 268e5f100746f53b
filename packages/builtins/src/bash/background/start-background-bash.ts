import { detectRunnerFailure, SandboxUnavailableError, type WrappedCommand } from '@openwork/sandbox';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { bashInvocation } from '../bash-invocation.js';
import type { SandboxedBashRequest } from '../run-sandboxed-bash.js';
import type { BackgroundTask } from './background-task.js';

/** A background run: the request of a foreground one without timeout, signal and progress. */
export type BackgroundBashRequest = Omit<SandboxedBashRequest, 'timeoutMs' | 'signal' | 'onProgress' | 'spill'>;

/**
 * Starts `task` as `/bin/bash -c <command>` in the sandbox, exactly as `runSandboxedBash` does a
 * foreground call (10d: `SandboxBackend.wrap` with this call's policy, the process backend spawns
 * the wrapped argv), but without waiting for it: the wrap's claim is held until the process ends
 * and released then — normal exit, bash_kill, the session closing — so its placeholders live
 * exactly as long as the task (architecture §3.7). The task's signal is its only cancel: the call
 * that started it may end long before. `unavailable` means nothing was started.
 */
export async function startBackgroundBash(
  session: ToolSessionContext,
  task: BackgroundTask,
  request: BackgroundBashRequest,
): Promise<{ readonly kind: 'started' } | { readonly kind: 'unavailable'; readonly reason: string }> {
  const invocation = await bashInvocation(request.command, session.spill, `${task.id}`);
  let wrapped: WrappedCommand;
  try {
    wrapped = session.sandbox.wrap({ argv: invocation.argv, cwd: request.cwd }, request.policy);
  } catch (error) {
    await invocation.dispose().catch(() => undefined);
    if (SandboxUnavailableError.isInstance(error)) return { kind: 'unavailable', reason: error.reason };
    throw error;
  }
  const run = session.processBackend
    .spawn(wrapped.argv, {
      cwd: request.cwd,
      env: request.environment,
      signal: task.signal,
      onOutput: (chunk) => task.receive(chunk),
      ...(task.spill === undefined ? {} : { spill: task.spill }),
    })
    .then(
      (outcome) => task.settle(outcome, detectRunnerFailure({ exitCode: outcome.exitCode, output: outcome.output })?.reason),
      (error: unknown) => task.fail(`the process backend failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  task.attach(
    run.finally(async () => {
      await wrapped.release().catch(() => undefined);
      await invocation.dispose().catch(() => undefined);
    }),
  );
  return { kind: 'started' };
}
