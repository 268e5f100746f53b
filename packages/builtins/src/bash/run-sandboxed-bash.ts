import type { ProcessOutcome, ProcessProgress, ProcessStdin, SpillTarget } from '@openwork/process-backend';
import { SandboxUnavailableError, vanishedMaskTarget, type SandboxPolicy, type StagedApplyReport, type WrappedCommand } from '@openwork/sandbox';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { TERMINAL_ARGV_OVERHEAD_BYTES, TTY_TERM, terminalArgv, type TerminalProgram } from './background/terminal-program.js';
import { bashInvocation, LONGEST_INLINE_COMMAND_BYTES } from './bash-invocation.js';

/** One run of `/bin/bash -c <command>` as the bash tool asks for it. */
export interface SandboxedBashRequest {
  readonly command: string;
  /** Names a command file when the command is too long for one argv string (`bashInvocation`). */
  readonly callId: string;
  /** The policy stamped on this call (§5): the session mode plus the grants approved for it. */
  readonly policy: SandboxPolicy;
  readonly cwd: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Absent for a background task (issue 26): it runs until it ends, bash_kill or its session's end. */
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal;
  readonly onProgress?: (progress: ProcessProgress) => void;
  /** Raw merged output as it is read (a background task's own bounded view). */
  readonly onOutput?: (chunk: Buffer) => void;
  readonly spill: SpillTarget | undefined;
  /** Issue 26: a pipe to type into (background tasks); without it stdin is /dev/null. */
  readonly stdin?: ProcessStdin;
  /** Issue 26 `tty: true`: bash runs on a pseudo-terminal of this program, created inside the sandbox. */
  readonly terminal?: Extract<TerminalProgram, { available: true }>;
  /** Told the wrapped command before it starts (a background task syncs its staged writes and reflects the file tools' through it). */
  readonly onWrapped?: (wrapped: WrappedCommand) => void;
}

/** What came of it: the process outcome, or the sandbox refusing to wrap (nothing was started). */
export type SandboxedBashRun =
  | {
      readonly kind: 'ran';
      readonly outcome: ProcessOutcome;
      readonly notices: readonly string[];
      /** What the command's staged writes did to the host once judged (architecture §3.10); absent where writes are not staged (Seatbelt). */
      readonly staged?: StagedApplyReport;
      readonly releaseError?: string;
    }
  | { readonly kind: 'unavailable'; readonly reason: string };

/**
 * THE one place bash is started (acceptance 10d "代码中不存在不经 Seatbelt 启动 bash 的路径"): the
 * argv goes through `SandboxBackend.wrap` with this call's policy, the process backend spawns
 * exactly the wrapped argv, and `release()` runs after every exit — normal, timeout, cancel or a
 * failed start — so mount points bwrap needed never stay behind (architecture §3.4). A backend
 * that cannot wrap (unavailable) means nothing runs.
 */
export async function runSandboxedBash(session: ToolSessionContext, request: SandboxedBashRequest): Promise<SandboxedBashRun> {
  const invocation = await bashInvocation(request.command, session.spill, request.callId, {
    // A pipe as stdin is a socket pair: without --norc bash would source ~/.bashrc (bash's rshd rule).
    norc: request.stdin !== undefined && request.terminal === undefined,
    // Quoted again into `script`'s one command string, which must fit one argv string too.
    ...(request.terminal === undefined ? {} : { maxInlineBytes: Math.floor((LONGEST_INLINE_COMMAND_BYTES - TERMINAL_ARGV_OVERHEAD_BYTES) / 4) }),
  });
  const argv = request.terminal === undefined ? invocation.argv : terminalArgv(request.terminal, invocation.argv, request.environment['SHELL']);
  try {
    return await runWrapped(session, request, argv);
  } finally {
    await invocation.dispose().catch(() => undefined);
  }
}

/**
 * How often a foreground call is wrapped again when bwrap could not start because a host socket
 * it was to mask went away meanwhile (`vanishedMaskTarget`; nothing of the command ran).
 */
const maximumStarts = 3;

async function runWrapped(session: ToolSessionContext, request: SandboxedBashRequest, argv: readonly string[]): Promise<SandboxedBashRun> {
  // A background task's output and stdin are live from its first byte: it is never started twice.
  const restartable = request.stdin === undefined && request.onOutput === undefined;
  for (let start = 1; ; start += 1) {
    const run = await runWrappedOnce(session, request, argv);
    if (run.kind !== 'ran' || !restartable || start >= maximumStarts || run.vanished === undefined) return run.result;
  }
}

async function runWrappedOnce(
  session: ToolSessionContext,
  request: SandboxedBashRequest,
  argv: readonly string[],
): Promise<{ readonly kind: 'ran'; readonly result: SandboxedBashRun; readonly vanished: string | undefined } | { readonly kind: 'other'; readonly result: SandboxedBashRun }> {
  let wrapped: WrappedCommand;
  try {
    wrapped = session.sandbox.wrap({ argv, cwd: request.cwd }, request.policy);
  } catch (error) {
    if (SandboxUnavailableError.isInstance(error)) return { kind: 'other', result: { kind: 'unavailable', reason: error.reason } };
    throw error;
  }
  request.onWrapped?.(wrapped);
  let outcome: ProcessOutcome;
  try {
    outcome = await session.processBackend.spawn(wrapped.argv, {
      cwd: request.cwd,
      // util-linux script runs its command with $SHELL -c: /bin/sh, which puts the session's SHELL back.
      env: request.terminal === undefined ? request.environment : { ...request.environment, SHELL: '/bin/sh', TERM: TTY_TERM },
      signal: request.signal,
      ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      ...(request.onProgress === undefined ? {} : { onProgress: request.onProgress }),
      ...(request.onOutput === undefined ? {} : { onOutput: request.onOutput }),
      ...(request.spill === undefined ? {} : { spill: request.spill }),
      ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
    });
  } catch (error) {
    await wrapped.release().catch(() => undefined);
    throw error;
  }
  const vanished = request.signal.aborted ? undefined : vanishedMaskTarget(wrapped.argv, outcome);
  try {
    const report = await wrapped.release();
    const staged = report?.staged;
    return { kind: 'ran', result: { kind: 'ran', outcome, notices: report?.notices ?? [], ...(staged === undefined ? {} : { staged }) }, vanished };
  } catch (error) {
    // The command's effects happened; leftover empty mount points do not change its result.
    return { kind: 'ran', result: { kind: 'ran', outcome, notices: [], releaseError: error instanceof Error ? error.message : String(error) }, vanished };
  }
}
