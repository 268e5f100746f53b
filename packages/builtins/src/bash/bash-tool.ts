import type { SandboxPolicy } from '@openwork/sandbox';
import type { ProcessProgress } from '@openwork/process-backend';
import { defineTool, ToolExecutionError, type ToolExecutionContext } from '@openwork/tools-contract';
import * as z from 'zod';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationInputShape, requireJustification } from '../escalation/escalation-parameters.js';
import { formatCount } from '../text/format-bytes.js';
import { backgroundInputShape } from './background/background-input.js';
import { clampWait } from './background/wait-input.js';
import { runInBackground } from './background/run-in-background.js';
import { bashEnvironment } from './bash-environment.js';
import { resolveWorkdir } from './resolve-workdir.js';
import { DEFAULT_TIMEOUT_MS, MAX_COMMAND_BYTES, MAX_TIMEOUT_MS } from './bash-limits.js';
import { clampTimeout, effectiveTimeout } from './effective-timeout.js';
import { inspectBash } from './inspect-bash.js';
import { renderBashResult } from './render-bash-result.js';
import { runSandboxedBash } from './run-sandboxed-bash.js';

const command = z
  .string()
  .describe('The command, run as /bin/bash -c <command> in the workspace root. At most 1 MiB.')
  .superRefine((value, context) => {
    if (value.trim() === '') context.addIssue({ code: 'custom', message: 'must not be empty; give the shell command to run' });
    if (value.includes('\0')) context.addIssue({ code: 'custom', message: 'contains a NUL byte, which no command line can carry; remove it' });
    const bytes = value.length <= MAX_COMMAND_BYTES / 3 ? value.length : new TextEncoder().encode(value).length;
    if (bytes > MAX_COMMAND_BYTES) {
      context.addIssue({
        code: 'custom',
        message: `is ${formatCount(bytes)} bytes; bash takes at most ${formatCount(MAX_COMMAND_BYTES)} bytes (1 MiB). Write a long script to a file (write) and run the file`,
      });
    }
  });

const inputSchema = z
  .strictObject({
    command,
    timeoutMs: z
      .number()
      .default(DEFAULT_TIMEOUT_MS)
      .describe(`Milliseconds until the command and every process it started are killed: default ${DEFAULT_TIMEOUT_MS}, values outside 1–${MAX_TIMEOUT_MS} are clamped`),
    ...backgroundInputShape,
    ...escalationInputShape,
  })
  .superRefine(requireJustification)
  .superRefine((value, context) => {
    if (value.tty && !value.runInBackground) {
      context.addIssue({ code: 'custom', path: ['tty'], message: 'needs runInBackground: true — a terminal is for a task you type into with bash_input; leave tty out for a foreground command' });
    }
  });

/**
 * §7.9 `bash`: `/bin/bash -c <command>` in the session's working directory, always inside the
 * kernel sandbox with the policy stamped on this call, and through the process backend (§4).
 * A new shell every call; stdin is /dev/null; the environment is the session's (§4) plus the
 * sandbox's additions. The result is the merged output, bounded to head 2 KiB + tail 14 KiB with
 * the rest spilled (§8.2), then the status line; the outcome table is `renderBashResult`'s.
 */
export const bashTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'bash',
  description:
    'Run a shell command with /bin/bash -c in the workspace root, inside the sandbox of this session: it can read files except credentials, and write only where this session may write. Every call is a new shell (cd and variables do not carry over); stdin is empty in the foreground, so use non-interactive options. stdout and stderr come back merged; above 16 KB you see the first 2 KB and the last 14 KB, and the full output is saved to a file whose path the result gives (read or grep it). The last line is the status, e.g. [exit 1; duration 40 ms]; a non-zero exit is a normal result. timeoutMs (default 30000, at most 600000) stops the command and every process it started. workdir runs it in another folder (relative to the workspace root); description says in a few words what it does, for the person. For a server, a watcher or anything longer, set runInBackground: true: the call returns after yieldMs (default 1000, at most 30000) with what it printed so far and a task id; read more with bash_output, type into its stdin with bash_input, stop it with bash_kill (at most 8 running tasks). Add tty: true for a program that needs a terminal (a prompt, a REPL); this needs the script program (util-linux on Linux, part of macOS). Prefer read, grep, glob and list for looking at files.',
  risk: 'process_execution',
  inputSchema,
  inspect: (input, session) => inspectBash(input.command, input, session),
  async execute(input, session, call) {
    const policy = requireCallPolicy(call.sandboxPolicy, 'bash');
    if (ToolExecutionError.isInstance(policy)) return policy;
    // 10d: no kernel sandbox, no command — there is no other way to start bash.
    const availability = await session.sandboxAvailability();
    if (!availability.available) return sandboxUnavailable(availability.reason);

    const cwd = input.workdir === undefined ? session.workingDirectory : await resolveWorkdir(session, input.workdir, policy);
    if (ToolExecutionError.isInstance(cwd)) return cwd;
    // Issue 26: the description is what a person watching progress reads.
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
    return renderBashResult({
      outcome: run.outcome,
      policy,
      cwd,
      timeout: { timeoutMs: timeout.timeoutMs, requestedMs: clampTimeout(input.timeoutMs), limitedBy: timeout.limitedBy },
      notices: run.notices,
    });
  },
});

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
