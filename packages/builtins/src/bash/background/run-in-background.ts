import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError, type ToolOutput, type ToolProgress } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { describe, renderTaskRead } from './render-task.js';
import { MAX_RUNNING_TASKS } from './background-limits.js';
import { taskSpillName } from './recorded-task-output.js';
import { startBackgroundBash } from './start-background-bash.js';
import { findTerminalProgram } from './terminal-program.js';
import { withNote } from '../with-note.js';

/** What `bash { runInBackground: true }` starts. */
export interface BackgroundStart {
  readonly command: string;
  readonly description: string | undefined;
  readonly policy: SandboxPolicy;
  readonly cwd: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Already clamped to 0–30,000. */
  readonly yieldMs: number;
  /** `tty: true`: a pseudo-terminal, made inside the sandbox by `script`. */
  readonly tty: boolean;
  /** The call's cancel: it ends the wait for the first output, never the task. */
  readonly signal: AbortSignal;
  /** The call's progress (§8.3): the first yield is reported there too (MCP progress). */
  readonly reportProgress: (progress: ToolProgress) => void;
}

/**
 * Admits a task (at most 8 running per session), starts it in the sandbox under this
 * call's policy, waits up to `yieldMs` (less if it ends), and returns what it printed so far with
 * `task <id>` and how to read more. The call's own cancel does not reach the task: it outlives the
 * call by design, and only bash_kill or the session's end stops it.
 */
export async function runInBackground(session: ToolSessionContext, start: BackgroundStart): Promise<ToolOutput> {
  const terminal = start.tty ? await findTerminalProgram() : undefined;
  if (terminal?.available === false) {
    return new ToolExecutionError('execution_failed', `Nothing was started: tty: true needs a pseudo-terminal program, and ${terminal.reason}. Run the command without tty (bash_input still writes to its stdin), or ask the user to install it.`);
  }
  const tasks = session.backgroundTasks;
  const id = tasks.newId();
  const spill = session.spill?.location(taskSpillName(id));
  const task = tasks.admit({
    id,
    command: start.command,
    ...(start.description === undefined ? {} : { description: start.description }),
    ...(spill === undefined ? {} : { spill }),
    tty: start.tty,
    cwd: start.cwd,
    agentRole: session.agentRole,
  });
  if ('kind' in task) {
    if (task.kind === 'closed') return new ToolExecutionError('execution_failed', 'This session is closing; no background task can start now. Nothing was run.');
    const names = task.running.map((running) => `${running.id} (${describe(running)})`).join(', ');
    return new ToolExecutionError(
      'execution_failed',
      `Nothing was started: this session already runs ${MAX_RUNNING_TASKS} background tasks, the most it may: ${names}. Stop one with bash_kill {"taskId": …} (or wait until one ends: bash_output shows its state), then start this one again.`,
    );
  }
  // The session's spill files stay within their total (oldest removed first, said in the result).
  const pruned = await session.spill?.makeRoom(taskSpillName(id));
  startBackgroundBash(session, task, {
    command: start.command,
    callId: taskSpillName(id),
    policy: start.policy,
    cwd: start.cwd,
    environment: start.environment,
    ...(terminal?.available === true ? { terminal } : {}),
  });
  start.reportProgress({ kind: 'message', message: `started task ${id}: ${describe(task)}` });
  await task.waitForEnd(start.yieldMs, start.signal);
  await tasks.startRecorded(id);
  const read = await task.read();
  // Hosts (MCP progress) hear of the first yield as it happens, before the result.
  start.reportProgress({ kind: 'message', message: `task ${id} ${task.state === 'running' ? 'is running' : `ended (${task.state})`} after the first yield; ${read.newBytes} bytes of output so far` });
  const output = renderTaskRead(task, read, { usage: true });
  return pruned === undefined ? output : withNote(output, pruned.note);
}
