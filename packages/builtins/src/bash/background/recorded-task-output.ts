import { stat } from 'node:fs/promises';
import type { ToolOutput } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import type { BackgroundTaskJournalEntry } from './background-task-journal.js';
import { renderRecordedTask } from './render-task.js';

/** The name of a task's spill file: `background-<id>` in the session's spill folder (§8.2). */
export function taskSpillName(taskId: string): string {
  return `background-${taskId}`;
}

/** What bash_output and bash_kill say of a task an earlier process ran: how it ended, its unread tail, and its output file if one was written. */
export async function recordedTaskOutput(session: ToolSessionContext, entry: BackgroundTaskJournalEntry): Promise<ToolOutput> {
  const spill = session.spill?.location(taskSpillName(entry.taskId));
  const written = spill === undefined ? false : await stat(spill.path).then((found) => found.isFile(), () => false);
  return renderRecordedTask(entry, written ? spill?.displayPath : undefined);
}
