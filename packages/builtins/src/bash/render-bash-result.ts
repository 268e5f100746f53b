import { formatStatusLine, type ProcessOutcome } from '@openwork/process-backend';
import { detectRunnerFailure, type SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError, type ToolOutput } from '@openwork/tools-contract';
import { bashDenialMarker } from './bash-denial.js';
import { bashNetworkNote } from './bash-network-hint.js';
import { bashTimeoutHint, type TimeoutFacts } from './bash-timeout-hint.js';
import { fitResultBudget } from './fit-result-budget.js';

/** Everything the result of one run depends on. */
export interface BashRun {
  readonly outcome: ProcessOutcome;
  readonly policy: SandboxPolicy;
  /** Where the command started; relative paths in denial lines are taken from here. */
  readonly cwd: string;
  readonly timeout: TimeoutFacts;
  /** What the sandbox did after the command (staged writes it refused to apply): lines after the status line. */
  readonly notices?: readonly string[];
  /** Staged writes the rules refused (architecture §3.10): a denial of the sandbox, so the call is `sandboxDenied`. */
  readonly refusedWrites?: number;
}

/**
 * The §7.9 outcome table, one branch per row. The text is always the merged output (head + marker
 * + tail above 16 KiB) and then the status line, byte for byte as §7.9 shows it; what follows the
 * status line depends on the row:
 *
 * | outcome | result |
 * |---|---|
 * | exited (any exit code) | `succeeded`; with a kernel denial, `sandboxDenied` and the denial marker |
 * | the runner (bwrap, sandbox-exec) reported its own failure | `sandbox_unavailable` (never a denial, 10e) |
 * | timed out | `failed`/`timeout`, the output so far, then how to recover |
 * | cancelled | `cancelled`, the output so far |
 * | start or pipe failure | `execution_failed` |
 * | termination not confirmed | `outcome_unknown` |
 */
export function renderBashResult(run: BashRun): ToolOutput {
  const { outcome } = run;
  const status = [formatStatusLine(outcome), ...(run.notices ?? [])].join('\n');
  switch (outcome.status) {
    case 'exited':
      return renderExit(run, status);
    case 'timed_out': {
      const network = bashNetworkNote(run.policy, { output: outcome.output, timedOut: true });
      return new ToolExecutionError('timeout', fitResultBudget(outcome.output, `${status}\n${bashTimeoutHint(run.timeout)}${network === undefined ? '' : `\n${network}`}`));
    }
    case 'cancelled':
      return new ToolExecutionError('cancelled', fitResultBudget(outcome.output, status));
    case 'outcome_unknown': {
      const group = outcome.pid === undefined ? '' : ` (process group ${outcome.pid})`;
      const note = `The command was to be stopped, but its processes${group} could not be confirmed gone: they may still be running and changing files.`;
      return new ToolExecutionError('outcome_unknown', fitResultBudget(outcome.output, `${status}\n${note}`));
    }
    case 'failed':
      // The process backend discarded the output (and the spill file) of a failed execution (§8.2).
      return new ToolExecutionError(
        'execution_failed',
        `bash could not run the command: ${outcome.error ?? 'the process could not be started or read'}. Nothing of its output was kept. Run it again; if it fails the same way, the host cannot start processes right now.\n${status}`,
      );
  }
}

function renderExit(run: BashRun, status: string): ToolOutput {
  const { outcome } = run;
  // 10e: bwrap or sandbox-exec failing before the command started is the sandbox being
  // unavailable here — not a denial, whatever kernel words its message holds.
  const runnerFailure = detectRunnerFailure({ exitCode: outcome.exitCode, output: outcome.output });
  if (runnerFailure !== undefined) {
    return new ToolExecutionError(
      'sandbox_unavailable',
      `bash did not run the command: the kernel sandbox failed to start (${runnerFailure.reason}). This is a problem of this machine's sandbox, not of the command, and running it again fails the same way; nothing was run outside the sandbox.\n${status}`,
    );
  }
  const refused = (run.refusedWrites ?? 0) > 0;
  const marker = outcome.exitCode === 0 ? undefined : bashDenialMarker(outcome.exitCode, outcome.output, run.policy, run.cwd);
  const network = bashNetworkNote(run.policy, { exitCode: outcome.exitCode, output: outcome.output, timedOut: false });
  const after = [status, ...(marker === undefined ? [] : [marker]), ...(network === undefined ? [] : [network])].join('\n');
  if (marker === undefined) return refused ? { text: fitResultBudget(outcome.output, after), sandboxDenied: true } : fitResultBudget(outcome.output, after);
  return { text: fitResultBudget(outcome.output, after), sandboxDenied: true };
}
