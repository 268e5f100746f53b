import { ToolExecutionError } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import type { BackgroundTask } from './background-task.js';
import type { BackgroundTaskJournalEntry } from './background-task-journal.js';

/** What a task id names for the calling agent: a task of this process, one an earlier host recorded, or nothing. */
export type TaskLookup =
  | { readonly kind: 'live'; readonly task: BackgroundTask }
  | { readonly kind: 'recorded'; readonly entry: BackgroundTaskJournalEntry }
  | { readonly kind: 'unknown'; readonly error: ToolExecutionError };

/**
 * Finds `taskId` among the tasks the calling agent may reach (an explorer only its own),
 * then among those the session's journal recorded in an earlier process, so that after a restart
 * `bash_output` says how a task ended instead of "unknown task".
 */
export async function findTask(session: ToolSessionContext, taskId: string): Promise<TaskLookup> {
  const visible = session.backgroundTasks.visibleTo(session.agentRole);
  const task = visible.find((candidate) => candidate.id === taskId);
  if (task !== undefined) return { kind: 'live', task };
  const recorded = await session.backgroundTasks.recorded(session.agentRole);
  const entry = recorded.find((candidate) => candidate.taskId === taskId);
  if (entry !== undefined) return { kind: 'recorded', entry };
  const known = [...visible.map((live) => `${live.id} (${live.state})`), ...recorded.map((old) => `${old.taskId} (${recordedState(old)})`)];
  const list = known.length === 0 ? 'This session has no background tasks you can reach.' : `Its tasks: ${known.join(', ')}.`;
  return {
    kind: 'unknown',
    error: new ToolExecutionError('invalid_arguments', `No background task ${JSON.stringify(taskId)} in this session. ${list} Call bash_output without taskId to list them.`),
  };
}

/** A recorded task still `running` ran when its host stopped: it was killed with it (no task outlives its owner). */
export function recordedState(entry: BackgroundTaskJournalEntry): BackgroundTaskJournalEntry['state'] {
  return entry.state === 'running' ? 'killed' : entry.state;
}
