import type { ToolOutput } from '@openwork/tools-contract';
import type { BackgroundTask, TaskRead } from './background-task.js';
import { MAX_WAIT_MS } from './background-limits.js';

/** `[task bg-1a2b3c: running]`, `…: exited 0]`, `…: killed]`, `…: failed]` — the status line of a task. */
export function taskStatusLine(task: BackgroundTask): string {
  switch (task.state) {
    case 'running':
      return `[task ${task.id}: running]`;
    case 'exited':
      return `[task ${task.id}: exited ${task.exitCode ?? 'by a signal'}]`;
    case 'killed':
      return `[task ${task.id}: killed${task.problem === undefined ? '' : ` ${task.problem}`}]`;
    case 'failed':
      return `[task ${task.id}: failed: ${task.problem ?? 'unknown'}]`;
  }
}

/**
 * One part of a task's output for the model: the new output (bounded like bash, §7.9), the status
 * line, then what to do next — how to read more while it runs (`task <id>`, issue 26).
 */
export function renderTaskRead(task: BackgroundTask, read: TaskRead): ToolOutput {
  const lines = [read.newBytes === 0 ? '(no new output)' : read.text.replace(/\n$/, ''), taskStatusLine(task)];
  if (read.omittedBytes > 0 && task.spill !== undefined) {
    lines.push(`The whole output of task ${task.id} so far (up to 64 MiB) is saved at ${task.spill.displayPath}; use read with offset/limit, or grep, to look at it.`);
  }
  if (task.state === 'running') {
    lines.push(
      `task ${task.id} keeps running in the background. Read what it prints next with bash_output {"taskId":"${task.id}"} (waitMs up to ${MAX_WAIT_MS} waits for new output); stop it with bash_kill {"taskId":"${task.id}"}.`,
    );
  }
  return { text: lines.join('\n'), artifacts: [task.artifact()] };
}

/** bash_output without a task id: one line per task of the session. */
export function renderTaskList(tasks: readonly BackgroundTask[]): ToolOutput {
  if (tasks.length === 0) return 'This session has no background tasks. Start one with bash {"command": …, "runInBackground": true}.';
  const lines = tasks.map((task) => `${taskStatusLine(task)} ${describe(task)} — started ${task.startedAt.toISOString()}, ${task.unreadBytes} bytes unread`);
  return { text: lines.join('\n'), artifacts: tasks.map((task) => task.artifact()) };
}

/** The description when there is one, else the command's first line (at most 80 characters). */
export function describe(task: BackgroundTask): string {
  if (task.description !== undefined) return task.description;
  const first = task.command.split('\n', 1)[0] ?? '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}
