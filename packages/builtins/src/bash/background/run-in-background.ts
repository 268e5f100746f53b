import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError, type ToolOutput } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { describe, renderTaskRead } from './render-task.js';
import { MAX_RUNNING_TASKS } from './background-limits.js';
import { startBackgroundBash } from './start-background-bash.js';

/** What `bash { runInBackground: true }` starts. */
export interface BackgroundStart {
  readonly command: string;
  readonly description: string | undefined;
  readonly policy: SandboxPolicy;
  readonly cwd: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Already clamped to 0–30,000. */
  readonly yieldMs: number;
  /** The call's cancel: it ends the wait for the first output, never the task. */
  readonly signal: AbortSignal;
}

/**
 * Issue 26: admits a task (at most 8 running per session), starts it in the sandbox under this
 * call's policy, waits up to `yieldMs` (less if it ends), and returns what it printed so far with
 * `task <id>` and how to read more. The call's own cancel does not reach the task: it outlives the
 * call by design, and only bash_kill or the session's end stops it.
 */
export async function runInBackground(session: ToolSessionContext, start: BackgroundStart): Promise<ToolOutput> {
  const tasks = session.backgroundTasks;
  const id = tasks.newId();
  const spill = session.spill?.location(`background-${id}`);
  const task = tasks.admit({ id, command: start.command, ...(start.description === undefined ? {} : { description: start.description }), ...(spill === undefined ? {} : { spill }) });
  if ('kind' in task) {
    if (task.kind === 'closed') return new ToolExecutionError('execution_failed', 'This session is closing; no background task can start now. Nothing was run.');
    const names = task.running.map((running) => `${running.id} (${describe(running)})`).join(', ');
    return new ToolExecutionError(
      'execution_failed',
      `Nothing was started: this session already runs ${MAX_RUNNING_TASKS} background tasks, the most it may: ${names}. Stop one with bash_kill {"taskId": …} (or wait until one ends: bash_output shows its state), then start this one again.`,
    );
  }
  startBackgroundBash(session, task, { command: start.command, callId: `background-${id}`, policy: start.policy, cwd: start.cwd, environment: start.environment });
  await task.waitForEnd(start.yieldMs, start.signal);
  return renderTaskRead(task, await task.read());
}
