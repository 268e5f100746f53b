import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { findTask } from './find-task.js';
import { recordedTaskOutput } from './recorded-task-output.js';
import { withTaskFileChanges } from './task-file-changes.js';
import { renderTaskRead } from './render-task.js';
import { taskIdSchema } from './wait-input.js';

const inputSchema = z.strictObject({ taskId: taskIdSchema });

/**
 * `bash_kill`: ends a background task's whole process group through the same terminate
 * path as a timeout (§5: SIGKILL to the group, bounded wait), waits until its sandbox claim is
 * released, and returns its last unread output with the state `killed`. A task that already ended
 * (here or in an earlier process) is reported as it ended. An explorer reaches only its own tasks.
 */
export const bashKillTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'bash_kill',
  description: 'Stop a background task and every process it started. Returns what it printed since the last read and its final state.',
  risk: 'process_execution',
  inputSchema,
  async execute(input, session, call) {
    const found = await findTask(session, input.taskId);
    if (found.kind === 'unknown') return found.error;
    if (found.kind === 'recorded') return recordedTaskOutput(session, found.entry);
    await found.task.kill('by bash_kill');
    return withTaskFileChanges(renderTaskRead(found.task, await found.task.read()), found.task, session, call.callId);
  },
});
