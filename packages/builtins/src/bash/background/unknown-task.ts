import { ToolExecutionError } from '@openwork/tools-contract';
import type { BackgroundTask } from './background-task.js';

/** A task id this session does not know: say which ids it does know. */
export function unknownTask(taskId: string, tasks: readonly BackgroundTask[]): ToolExecutionError {
  const known = tasks.length === 0 ? 'This session has no background tasks.' : `Its tasks: ${tasks.map((task) => `${task.id} (${task.state})`).join(', ')}.`;
  return new ToolExecutionError('invalid_arguments', `No background task ${JSON.stringify(taskId)} in this session. ${known} Call bash_output without taskId to list them.`);
}
