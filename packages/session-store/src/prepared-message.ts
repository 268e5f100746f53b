import {
  resultImageProblem,
  type ResultImageType,
  TOOL_ERROR_CODES,
  TOOL_RESULT_STATUSES,
  type ToolArtifact,
  type ToolErrorCode,
  type ToolResultContent,
  type ToolResultStatus,
} from '@openwork/tools-contract';
import { checkColumnText, checkRecordId, describeValue } from './check-record-id.js';
import { FILE_CHANGE_ARTIFACT_KIND } from './file-change-artifact.js';
import { InvalidRecordError } from './invalid-record-error.js';
import { toJsonText } from './json-text.js';
import type { NewMessage } from './new-message.js';
import type { MessageRole } from './stored-message.js';

/** A tool call as a store indexes it. */
export interface PreparedToolCall {
  readonly id: string;
  readonly toolId: string;
}

/** A file-change artifact as a store indexes it (§8.4). */
export interface PreparedFileChange {
  readonly changeId: string;
  readonly path: string;
  readonly undone: boolean;
  /** Index in the tool result's `artifacts`. */
  readonly artifactIndex: number;
}

/**
 * A checked `NewMessage`, ready for a store to write: the JSON text it keeps (`body`) and the
 * facts it indexes to enforce the rules of the log (tool calls made, the call answered, file
 * changes). Every store prepares messages with `prepareMessage`, so that they all accept the same
 * input, reject bad input with the same message, and return the same records.
 */
export interface PreparedMessage {
  readonly id: string;
  readonly role: MessageRole;
  /** The role's fields (text, tool calls, tool result, metadata) as JSON text. */
  readonly body: string;
  /** Calls made by an assistant message; empty for other roles. */
  readonly toolCalls: readonly PreparedToolCall[];
  /** The call a tool message answers; `null` for other roles. */
  readonly answeredCall: PreparedToolCall | null;
  /** File changes among a tool message's artifacts; empty for other roles. */
  readonly fileChanges: readonly PreparedFileChange[];
}

/** Checks `message` and prepares it for writing. Throws `InvalidRecordError` naming the first problem. */
export function prepareMessage(message: NewMessage): PreparedMessage {
  if (typeof message !== 'object' || message === null) throw new InvalidRecordError(`a message must be an object, got ${describeValue(message)}`);
  const id = message.id === undefined ? globalThis.crypto.randomUUID() : checkRecordId(message.id, 'message id');
  const metadata = checkMetadata(message.metadata);
  switch (message.role) {
    case 'user':
      return prepared(id, 'user', { text: checkText(message.text, 'user message text'), metadata }, [], null, []);
    case 'assistant': {
      const toolCalls = checkToolCalls(message.toolCalls);
      const body = { text: checkText(message.text, 'assistant message text'), toolCalls, metadata };
      return prepared(id, 'assistant', body, toolCalls.map((call) => ({ id: call.id, toolId: call.toolId })), null, []);
    }
    case 'tool': {
      const toolCallId = checkRecordId(message.toolCallId, 'toolCallId');
      const toolId = checkRecordId(message.toolId, 'toolId');
      const result = checkToolResult(message.result);
      const fileChanges = findFileChanges(result.artifacts);
      return prepared(id, 'tool', { toolCallId, toolId, result, metadata }, [], { id: toolCallId, toolId }, fileChanges);
    }
    default:
      throw new InvalidRecordError(
        `message role must be user, assistant or tool; got ${describeValue((message as { role?: unknown }).role)}`,
      );
  }
}

function prepared(
  id: string,
  role: MessageRole,
  body: object,
  toolCalls: readonly PreparedToolCall[],
  answeredCall: PreparedToolCall | null,
  fileChanges: readonly PreparedFileChange[],
): PreparedMessage {
  return Object.freeze({ id, role, body: toJsonText(body, 'message'), toolCalls, answeredCall, fileChanges });
}

function checkText(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new InvalidRecordError(`${what} must be a string, got ${describeValue(value)}`);
  return value;
}

function checkMetadata(metadata: unknown): object | undefined {
  if (metadata === undefined) return undefined;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new InvalidRecordError(`message metadata must be a JSON object, got ${describeValue(metadata)}`);
  }
  toJsonText(metadata, 'metadata');
  return metadata;
}

interface CheckedToolCall {
  readonly id: string;
  readonly toolId: string;
  readonly input: unknown;
}

function checkToolCalls(toolCalls: unknown): CheckedToolCall[] {
  if (toolCalls === undefined) return [];
  if (!Array.isArray(toolCalls)) throw new InvalidRecordError(`toolCalls must be an array, got ${describeValue(toolCalls)}`);
  const seen = new Set<string>();
  return toolCalls.map((call: unknown, index) => {
    if (typeof call !== 'object' || call === null) throw new InvalidRecordError(`toolCalls[${index}] must be an object, got ${describeValue(call)}`);
    const { id, toolId, input } = call as Record<string, unknown>;
    const checkedId = checkRecordId(id, `toolCalls[${index}].id`);
    if (seen.has(checkedId)) throw new InvalidRecordError(`toolCalls[${index}].id ${JSON.stringify(checkedId)} appears twice in the message`);
    seen.add(checkedId);
    if (input === undefined) throw new InvalidRecordError(`toolCalls[${index}].input is missing; store the arguments as the model sent them`);
    toJsonText(input, `toolCalls[${index}].input`);
    return { id: checkedId, toolId: checkRecordId(toolId, `toolCalls[${index}].toolId`), input };
  });
}

interface CheckedToolResult {
  readonly status: ToolResultStatus;
  readonly content: readonly ToolResultContent[];
  readonly artifacts: readonly ToolArtifact[];
  readonly error: { readonly code: ToolErrorCode; readonly message: string; readonly retryable: boolean } | null;
  readonly sandboxDenied: boolean;
}

/** §8.1: status, text content, artifacts, error (present exactly when not succeeded), sandboxDenied. */
function checkToolResult(result: unknown): CheckedToolResult {
  if (typeof result !== 'object' || result === null) throw new InvalidRecordError(`result must be a ToolResult object, got ${describeValue(result)}`);
  const { status, content, artifacts, error, sandboxDenied } = result as Record<string, unknown>;
  if (!TOOL_RESULT_STATUSES.includes(status as ToolResultStatus)) {
    throw new InvalidRecordError(`result.status must be one of ${TOOL_RESULT_STATUSES.join(', ')}; got ${describeValue(status)}`);
  }
  if (!Array.isArray(content)) throw new InvalidRecordError(`result.content must be an array of text and image parts, got ${describeValue(content)}`);
  const checkedContent = content.map((part: unknown, index): ToolResultContent => {
    const { type, text, mimeType, data } = (typeof part === 'object' && part !== null ? part : {}) as Record<string, unknown>;
    if (type === 'image') {
      const problem = resultImageProblem(part);
      if (problem !== undefined) throw new InvalidRecordError(`result.content[${index}] is not a valid image part: ${problem}`);
      return { type: 'image', mimeType: mimeType as ResultImageType, data: data as string };
    }
    if (type !== 'text' || typeof text !== 'string') {
      throw new InvalidRecordError(`result.content[${index}] must be { type: 'text', text: string } or { type: 'image', mimeType, data } (§8.1)`);
    }
    return { type: 'text', text };
  });
  if (!Array.isArray(artifacts)) throw new InvalidRecordError(`result.artifacts must be an array, got ${describeValue(artifacts)}`);
  artifacts.forEach((artifact: unknown, index) => {
    if (typeof artifact !== 'object' || artifact === null || Array.isArray(artifact)) {
      throw new InvalidRecordError(`result.artifacts[${index}] must be an object, got ${describeValue(artifact)}`);
    }
    const kind = (artifact as Record<string, unknown>)['kind'];
    if (typeof kind !== 'string' || kind.length === 0) {
      throw new InvalidRecordError(`result.artifacts[${index}].kind must be a non-empty string, got ${describeValue(kind)}`);
    }
    toJsonText(artifact, `result.artifacts[${index}]`);
  });
  if (typeof sandboxDenied !== 'boolean') throw new InvalidRecordError(`result.sandboxDenied must be a boolean, got ${describeValue(sandboxDenied)}`);
  return { status: status as ToolResultStatus, content: checkedContent, artifacts: artifacts as ToolArtifact[], error: checkToolError(status as ToolResultStatus, error), sandboxDenied };
}

function checkToolError(status: ToolResultStatus, error: unknown): CheckedToolResult['error'] {
  if (status === 'succeeded') {
    if (error !== null && error !== undefined) throw new InvalidRecordError('result.error must be null when result.status is succeeded (§8.1)');
    return null;
  }
  if (typeof error !== 'object' || error === null) {
    throw new InvalidRecordError(`result.error must be { code, message, retryable } when result.status is ${status} (§8.1), got ${describeValue(error)}`);
  }
  const { code, message, retryable } = error as Record<string, unknown>;
  if (!TOOL_ERROR_CODES.includes(code as ToolErrorCode)) {
    throw new InvalidRecordError(`result.error.code must be one of ${TOOL_ERROR_CODES.join(', ')}; got ${describeValue(code)}`);
  }
  if (typeof message !== 'string') throw new InvalidRecordError(`result.error.message must be a string, got ${describeValue(message)}`);
  if (typeof retryable !== 'boolean') throw new InvalidRecordError(`result.error.retryable must be a boolean, got ${describeValue(retryable)}`);
  return { code: code as ToolErrorCode, message, retryable };
}

/** §8.4: a file_change artifact needs a `change` with a change id (unique in the message), a path and `undone`. */
function findFileChanges(artifacts: readonly ToolArtifact[]): PreparedFileChange[] {
  const changes: PreparedFileChange[] = [];
  const seen = new Set<string>();
  artifacts.forEach((artifact, artifactIndex) => {
    if (artifact.kind !== FILE_CHANGE_ARTIFACT_KIND) return;
    const where = `result.artifacts[${artifactIndex}].change`;
    const change = artifact['change'];
    if (typeof change !== 'object' || change === null || Array.isArray(change)) {
      throw new InvalidRecordError(`${where} must be an object with changeId, path and undone (§8.4), got ${describeValue(change)}`);
    }
    const facts = change as Record<string, unknown>;
    const changeId = checkRecordId(facts['changeId'], `${where}.changeId`);
    if (seen.has(changeId)) throw new InvalidRecordError(`${where}.changeId ${JSON.stringify(changeId)} appears twice in the result`);
    seen.add(changeId);
    const path = checkColumnText(facts['path'], `${where}.path`);
    const undone = facts['undone'];
    if (typeof undone !== 'boolean') throw new InvalidRecordError(`${where}.undone must be a boolean (§8.4), got ${describeValue(undone)}`);
    changes.push({ changeId, path, undone, artifactIndex });
  });
  return changes;
}
