import type { SandboxPolicy } from '@openwork/sandbox';
import type { ProcessProgress } from '@openwork/process-backend';
import { ToolExecutionError, type ToolExecutionContext, type ToolOutput } from '@openwork/tools-contract';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { clampWait } from './background/wait-input.js';
import { runInBackground } from './background/run-in-background.js';
import { bashEnvironment } from './bash-environment.js';
import { bashFileChanges } from './bash-file-changes.js';
import { resolveWorkdir } from './resolve-workdir.js';
import { clampTimeout, effectiveTimeout } from './effective-timeout.js';
import { withNote } from './with-note.js';
import { withArtifacts } from './with-artifacts.js';
import { renderBashResult } from './render-bash-result.js';
import { runSandboxedBash } from './run-sandboxed-bash.js';
import type { BashInput } from './bash-tool.js';

/** One `bash` call (§7.9), loaded on first use. */
export async function runBashCall(input: BashInput, session: ToolSessionContext, call: ToolExecutionContext<SandboxPolicy>): Promise<ToolOutput> {
  const policy = requireCallPolicy(call.sandboxPolicy, 'bash');
  if (ToolExecutionError.isInstance(policy)) return policy;
  // 10d: no kernel sandbox, no command — there is no other way to start bash.
  const availability = await session.sandboxAvailability();
  if (!availability.available) return sandboxUnavailable(availability.reason);

  const cwd = input.workdir === undefined ? session.workingDirectory : await resolveWorkdir(session, input.workdir, policy);
  if (ToolExecutionError.isInstance(cwd)) return cwd;
  // The description is what a person watching progress reads.
  if (input.description !== undefined) call.reportProgress({ kind: 'message', message: input.description });
  if (input.runInBackground) {
    return runInBackground(session, {
      command: input.command,
      description: input.description,
      policy,
      cwd,
      environment: bashEnvironment(session, policy),
      yieldMs: clampWait(input.yieldMs),
      tty: input.tty,
      signal: call.signal,
      reportProgress: (progress) => call.reportProgress(progress),
    });
  }

  const timeout = effectiveTimeout(input.timeoutMs, call.deadline, Date.now());
  if (timeout.kind === 'expired') {
    return new ToolExecutionError(
      'timeout',
      "[timed out after 0 ms; duration 0 ms]\nThe command did not run: this call's deadline had already passed when it was to start. A larger timeoutMs does not help.",
    );
  }
  // The session's spill files stay within their total (oldest removed first, said in the result).
  const pruned = await session.spill?.makeRoom(call.callId);
  const run = await runSandboxedBash(session, {
    command: input.command,
    callId: call.callId,
    policy,
    cwd,
    environment: bashEnvironment(session, policy),
    timeoutMs: timeout.timeoutMs,
    signal: call.signal,
    onProgress: (progress) => reportLiveOutput(call, progress),
    spill: session.spill?.location(call.callId),
  });
  if (run.kind === 'unavailable') return sandboxUnavailable(run.reason);
  if (run.releaseError !== undefined) {
    call.reportProgress({ kind: 'message', message: `sandbox clean-up after the command failed: ${run.releaseError}` });
  }
  const rendered = renderBashResult({
    outcome: run.outcome,
    policy,
    cwd,
    timeout: { timeoutMs: timeout.timeoutMs, requestedMs: clampTimeout(input.timeoutMs), limitedBy: timeout.limitedBy },
    notices: run.notices,
    refusedWrites: run.staged?.refused.length ?? 0,
  });
  const output = pruned === undefined ? rendered : withNote(rendered, pruned.note);
  // Spec §8.4 / architecture §3.10: what the command changed on the host, for the host and UI only.
  if (run.staged === undefined) return output;
  const artifacts = await bashFileChanges(run.staged, { callId: call.callId, filesystem: session.filesystem, displayPath: (path) => session.displayPath(path) });
  return withArtifacts(output, artifacts);
}

/**
 * §8.3: stdout and stderr stay two kinds of progress, though the result merges them. Output too
 * fast to follow live is left out of progress by the process backend; a message says how much.
 */
function reportLiveOutput(call: ToolExecutionContext<SandboxPolicy>, progress: ProcessProgress): void {
  if (progress.skippedBytes !== undefined) {
    call.reportProgress({
      kind: 'message',
      message: `${progress.skippedBytes} bytes of ${progress.kind} were too fast to show live; the result keeps the first 2 KiB, the last 14 KiB and the full output file.`,
    });
  }
  if (progress.chunk !== '') call.reportProgress({ kind: progress.kind, chunk: progress.chunk });
}

/** 10d: the text of `sandbox_unavailable` — nothing ran, and retrying cannot help. */
function sandboxUnavailable(reason: string): ToolExecutionError {
  return new ToolExecutionError(
    'sandbox_unavailable',
    `bash cannot run commands here: the kernel sandbox is unavailable (${reason}). Nothing was run — commands never run outside the sandbox, so calling bash again fails the same way. Use the other tools instead, and tell the user the sandbox does not work on this machine.`,
  );
}
