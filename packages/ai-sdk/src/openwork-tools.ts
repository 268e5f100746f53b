import { hasCoreErrorCode, type Session, type ToolCallOptions, type ToolCallOutcome } from '@openwork/core';
import { ToolResult, type ToolDefinition } from '@openwork/tools-contract';
import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolSet } from 'ai';
import { modelToolOutput } from './model-tool-output.js';
import type { OpenworkToolOutput } from './openwork-tool-output.js';
import type { OpenworkToolsOptions } from './openwork-tools-options.js';
import { userApproval, type ApprovalHistoryMessage } from './user-approval.js';

/** One AI SDK tool of an OpenWork session: input is the model's arguments, output the full result. */
export type OpenworkTool = Tool<unknown, OpenworkToolOutput>;

/**
 * The fields of the SDK's tool execution options this adapter reads. Declared here because `ai` 7
 * made `ToolExecutionOptions` generic (a tool context) where 6 was not: the peer range admits both.
 */
interface ToolExecution {
  readonly toolCallId: string;
  readonly messages?: readonly ApprovalHistoryMessage[] | undefined;
  readonly abortSignal?: AbortSignal | undefined;
}

/**
 * The tools of `session`'s role as an AI SDK `ToolSet` (the AI SDK adapter): one entry per tool, with the
 * tool's own description and the JSON Schema core derives from its zod schema (no second schema).
 *
 * - `needsApproval` asks core's prepare step (architecture §4): `true` exactly when core would ask
 *   the user — an escalation or a dangerous command. A tier-1 target is denied without asking.
 * - `execute` runs the call through the session under the SDK's abort signal. When core asks
 *   for approval, `execute` approves only what the user's `tool-approval-response` in the SDK's
 *   messages approved (`userApproval`): `ai` 7's `toolApproval` can make the SDK skip asking.
 *   The grants widen that one call's policy (§3.3); the next call runs under the session's again.
 * - `toModelOutput` is the result's text, and its images as `image-data` parts; artifacts stay with the host (§8.1).
 * - A failure is a result the model reads; only cancellation throws (the signal's reason), as the
 *   SDK expects of an aborted call.
 */
export function openworkTools(session: Session, options: OpenworkToolsOptions = {}): ToolSet {
  const tools: Record<string, OpenworkTool> = {};
  for (const definition of session.definitions) {
    tools[definition.id] = openworkTool(session, definition, options);
  }
  return tools;
}

function openworkTool(session: Session, definition: ToolDefinition, options: OpenworkToolsOptions): OpenworkTool {
  // No type arguments: `tool`'s differ between ai 6 (input, output) and 7 (input, output, context).
  // The tool-level `needsApproval` is what both majors honour (7 also offers generateText's `toolApproval`).
  const definitionTool: OpenworkTool = tool({
    description: definition.description,
    inputSchema: jsonSchema<unknown>(definition.inputSchema as JSONSchema7),
    needsApproval: (input: unknown) => session.prepare(definition.id, input).status === 'needs_approval',
    execute: (input: unknown, execution: ToolExecution) => runCall(session, definition.id, input, execution, options),
    toModelOutput: ({ output }: { output: OpenworkToolOutput }) => modelToolOutput(output),
  });
  return definitionTool;
}

async function runCall(
  session: Session,
  toolId: string,
  input: unknown,
  execution: ToolExecution,
  options: OpenworkToolsOptions,
): Promise<OpenworkToolOutput> {
  const signal = execution.abortSignal;
  signal?.throwIfAborted();
  const callOptions: ToolCallOptions = {
    // Core asks only for a call that needs approval: the user's answer is in the SDK's messages.
    approver: () => userApproval(execution.messages ?? [], { toolCallId: execution.toolCallId, toolName: toolId, input }),
    record: options.record ?? true,
    ...(signal === undefined ? {} : { signal }),
    ...(options.onProgress === undefined ? {} : { onProgress: (progress) => options.onProgress?.(execution.toolCallId, progress) }),
  };
  const outcome = await callWithId(session, toolId, input, execution.toolCallId, callOptions);
  // The SDK's abort semantics: an aborted call rejects with the signal's reason. Bash has already
  // killed its process group and core has stored the `cancelled` result (§5).
  if (outcome.result.status === 'cancelled') signal?.throwIfAborted();
  return Object.freeze({ callId: outcome.callId, result: outcome.result, text: ToolResult.text(outcome.result) });
}

/**
 * Stores the call under the SDK's id, so the host can match both records; a model that reuses ids
 * (`call_0` every turn) or sends ones core cannot store gets a fresh id from core instead.
 */
async function callWithId(session: Session, toolId: string, input: unknown, toolCallId: string, callOptions: ToolCallOptions): Promise<ToolCallOutcome> {
  try {
    return await session.callTool(toolId, input, { ...callOptions, callId: toolCallId });
  } catch (error) {
    if (!hasCoreErrorCode(error, 'invalid_argument')) throw error;
    return session.callTool(toolId, input, callOptions);
  }
}
