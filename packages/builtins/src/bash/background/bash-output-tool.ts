import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { MAX_WAIT_MS } from './background-limits.js';
import { findTask } from './find-task.js';
import { recordedTaskOutput } from './recorded-task-output.js';
import { withTaskFileChanges } from './task-file-changes.js';
import { renderTaskList, renderTaskRead } from './render-task.js';
import { clampWait, taskIdSchema } from './wait-input.js';

const inputSchema = z.strictObject({
  taskId: taskIdSchema.optional(),
  waitMs: z
    .number()
    .default(0)
    .describe(`Milliseconds to wait for new output or the end (at most ${MAX_WAIT_MS})`),
});

/**
 * `bash_output`: what a background task printed since the last read (merged streams,
 * bounded like bash), its state and exit code; `waitMs` waits for new output or the end. Without
 * `taskId`, the session's tasks. Reads only tasks the calling agent may reach (an explorer its
 * own), so it is read-only; after a restart it says how a recorded task ended.
 */
export const bashOutputTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'bash_output',
  description: `Read what a background task printed since the last read, with its state (running, exited, killed, failed) and exit code. Above 16 KB of new output you see the first 2 KB and the last 14 KB; the whole output is in the task's file. Without taskId, lists this session's tasks (also those of an earlier openwork process, with how they ended).`,
  risk: 'read_only',
  inputSchema,
  async execute(input, session, call) {
    const tasks = session.backgroundTasks;
    if (input.taskId === undefined) return renderTaskList(tasks.visibleTo(session.agentRole), await tasks.recorded(session.agentRole));
    const found = await findTask(session, input.taskId);
    if (found.kind === 'unknown') return found.error;
    if (found.kind === 'recorded') return recordedTaskOutput(session, found.entry);
    await found.task.waitForChange(clampWait(input.waitMs), call.signal);
    return withTaskFileChanges(renderTaskRead(found.task, await found.task.read()), found.task, session, call.callId);
  },
});
