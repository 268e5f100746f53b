import {
  MAX_BACKGROUND_TASK_COMMAND,
  MAX_BACKGROUND_TASK_TAIL,
  STORED_BACKGROUND_TASK_STATES,
  type BackgroundTaskRecord,
  type NewBackgroundTaskRecord,
} from './background-task-record.js';
import { checkColumnText, checkRecordId, describeValue } from './check-record-id.js';
import { InvalidRecordError } from './invalid-record-error.js';
import { StoreCorruptError } from './store-corrupt-error.js';

/**
 * The rules of a background task record (background bash), once for every store: a valid id and state,
 * an integer or null exit code, ISO times, and texts cut to their bounds (a long command or
 * output never grows the database without end).
 */
export const BackgroundTaskRules = Object.freeze({
  prepare(sessionId: string, input: NewBackgroundTaskRecord, timestamp: string): BackgroundTaskRecord {
    if (typeof input !== 'object' || input === null) throw new InvalidRecordError(`a background task record must be an object, got ${describeValue(input)}`);
    const taskId = checkRecordId(input.taskId, 'task id');
    if (!STORED_BACKGROUND_TASK_STATES.includes(input.state)) {
      throw new InvalidRecordError(`task state is ${describeValue(input.state)}; use running, exited, killed or failed`);
    }
    if (input.exitCode !== null && !Number.isSafeInteger(input.exitCode)) throw new InvalidRecordError(`exitCode must be an integer or null, got ${describeValue(input.exitCode)}`);
    const startedAt = isoTime(input.startedAt, 'startedAt');
    const endedAt = input.endedAt === undefined ? null : isoTime(input.endedAt, 'endedAt');
    return Object.freeze({
      sessionId,
      taskId,
      command: cut(checkColumnText(input.command, 'command'), MAX_BACKGROUND_TASK_COMMAND),
      description: input.description === undefined ? null : cut(checkColumnText(input.description, 'description'), 1_000),
      state: input.state,
      exitCode: input.exitCode,
      problem: input.problem === undefined ? null : cut(checkColumnText(input.problem, 'problem'), 1_000),
      startedAt,
      endedAt,
      // The end matters most (peers.md): a long tail keeps its last characters.
      outputTail: lastCharacters(checkColumnText(input.outputTail ?? '', 'outputTail'), MAX_BACKGROUND_TASK_TAIL),
      agentRole: checkRecordId(input.agentRole, 'agent role'),
      updatedAt: timestamp,
    });
  },

  /** The JSON text a store keeps (without the ids and times it keeps in columns). */
  encode(record: BackgroundTaskRecord): string {
    const { sessionId: _session, taskId: _task, startedAt: _started, updatedAt: _updated, ...body } = record;
    return JSON.stringify(body);
  },

  decode(sessionId: string, taskId: string, body: string, startedAt: string, updatedAt: string): BackgroundTaskRecord {
    let value: Partial<BackgroundTaskRecord>;
    try {
      value = JSON.parse(body) as Partial<BackgroundTaskRecord>;
    } catch (error) {
      throw new StoreCorruptError(`background task ${JSON.stringify(taskId)} of session ${JSON.stringify(sessionId)} is not valid JSON`, { cause: error });
    }
    if (typeof value?.command !== 'string' || !STORED_BACKGROUND_TASK_STATES.includes(value.state as never)) {
      throw new StoreCorruptError(`background task ${JSON.stringify(taskId)} of session ${JSON.stringify(sessionId)} has no command or state`);
    }
    return Object.freeze({
      sessionId,
      taskId,
      command: value.command,
      description: value.description ?? null,
      state: value.state as BackgroundTaskRecord['state'],
      exitCode: value.exitCode ?? null,
      problem: value.problem ?? null,
      startedAt,
      endedAt: value.endedAt ?? null,
      outputTail: value.outputTail ?? '',
      agentRole: value.agentRole ?? 'default',
      updatedAt,
    });
  },
});

function isoTime(value: unknown, what: string): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    throw new InvalidRecordError(`${what} must be an ISO 8601 time, got ${describeValue(value)}`);
  }
  return new Date(value).toISOString();
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

function lastCharacters(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let start = text.length - limit;
  // Never start inside a surrogate pair (checkColumnText refuses broken UTF-16).
  if (/[\udc00-\udfff]/.test(text[start] ?? '')) start += 1;
  return text.slice(start);
}
