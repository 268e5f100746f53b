import type { ToolOutput } from '@openwork/tools-contract';
import type { BackgroundTask, TaskRead } from './background-task.js';
import type { BackgroundTaskJournalEntry } from './background-task-journal.js';
import type { BackgroundTaskArtifact } from './background-task-state.js';
import { recordedState } from './find-task.js';
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
 * line, and where the whole output is when this part was cut. The usage paragraph — how to read,
 * type into and stop the task — is said once, in the result that starts it (`usage: true`); every
 * later read carries the status line alone, so a session polling a task does not pay for the same
 * paragraph on every call (the task tools' own descriptions say the same).
 */
export function renderTaskRead(task: BackgroundTask, read: TaskRead, options: { readonly usage?: boolean } = {}): ToolOutput {
  const lines = [read.newBytes === 0 ? '(no new output)' : read.text.replace(/\n$/, ''), taskStatusLine(task)];
  if (read.omittedBytes > 0 && task.spill !== undefined) {
    lines.push(`The whole output of task ${task.id} so far (up to 64 MiB) is saved at ${task.spill.displayPath}; use read with offset/limit, or grep, to look at it.`);
  }
  if (options.usage === true && task.state === 'running') {
    const input = task.tty ? ' (on a terminal: \\u0003 is Ctrl-C, \\u0004 Ctrl-D)' : '';
    lines.push(
      `task ${task.id} keeps running in the background. Read what it prints next with bash_output {"taskId":"${task.id}"} (waitMs up to ${MAX_WAIT_MS} waits for new output); type into it with bash_input {"taskId":"${task.id}","input":"…\\n"}${input}; stop it with bash_kill {"taskId":"${task.id}"}.`,
    );
  }
  return { text: lines.join('\n'), artifacts: [task.artifact()] };
}

/** bash_output without a task id: one line per task of the session, then those an earlier process recorded. */
export function renderTaskList(tasks: readonly BackgroundTask[], recorded: readonly BackgroundTaskJournalEntry[] = []): ToolOutput {
  if (tasks.length === 0 && recorded.length === 0) return 'This session has no background tasks. Start one with bash {"command": …, "runInBackground": true}.';
  const lines = [
    ...recorded.map((entry) => `${recordedStatusLine(entry)} ${describeCommand(entry.description, entry.command)} — started ${entry.startedAt} in an earlier openwork process`),
    ...tasks.map((task) => `${taskStatusLine(task)} ${describe(task)} — started ${task.startedAt.toISOString()}, ${task.unreadBytes} bytes unread`),
  ];
  return { text: lines.join('\n'), artifacts: [...recorded.map(recordedArtifact), ...tasks.map((task) => task.artifact())] };
}

/**
 * A task an earlier openwork process ran: how it ended — `killed: the host stopped`
 * when that process stopped while the task ran — and the end of what it printed that nobody read.
 */
export function renderRecordedTask(entry: BackgroundTaskJournalEntry, spillPath: string | undefined): ToolOutput {
  const tail = entry.outputTail ?? '';
  const lines = [tail === '' ? '(no unread output was kept)' : tail.replace(/\n$/, ''), recordedStatusLine(entry)];
  if (entry.state === 'running') {
    lines.push(`task ${entry.taskId} ran in an earlier openwork process, which stopped while the task ran; no task outlives its host, so it was killed then. What it printed after the last read is not known.`);
  } else {
    lines.push(`task ${entry.taskId} ran in an earlier openwork process and ended there; it takes no input now. Start the command again with bash to run it again.`);
  }
  if (spillPath !== undefined) lines.push(`Its whole output (up to 64 MiB) is saved at ${spillPath}; use read with offset/limit, or grep, to look at it.`);
  return { text: lines.join('\n'), artifacts: [recordedArtifact(entry)] };
}

function recordedStatusLine(entry: BackgroundTaskJournalEntry): string {
  switch (entry.state) {
    case 'running':
      return `[task ${entry.taskId}: killed: the host stopped]`;
    case 'exited':
      return `[task ${entry.taskId}: exited ${entry.exitCode ?? 'by a signal'}]`;
    case 'killed':
      return `[task ${entry.taskId}: killed${entry.problem === undefined ? '' : ` ${entry.problem}`}]`;
    case 'failed':
      return `[task ${entry.taskId}: failed: ${entry.problem ?? 'unknown'}]`;
  }
}

function recordedArtifact(entry: BackgroundTaskJournalEntry): BackgroundTaskArtifact {
  return {
    kind: 'background_task',
    taskId: entry.taskId,
    command: entry.command,
    ...(entry.description === undefined ? {} : { description: entry.description }),
    state: recordedState(entry),
    exitCode: entry.exitCode,
    startedAt: entry.startedAt,
  };
}

/** The description when there is one, else the command's first line (at most 80 characters). */
export function describe(task: BackgroundTask): string {
  return describeCommand(task.description, task.command);
}

function describeCommand(description: string | undefined, command: string): string {
  if (description !== undefined) return description;
  const first = command.split('\n', 1)[0] ?? '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}
