import { checkRecordId, describeValue } from './check-record-id.js';
import type { UndoneUpdate } from './file-change-record.js';
import { InvalidRecordError } from './invalid-record-error.js';
import type { LoadMessagesOptions } from './new-message.js';
import type { ListSessionsOptions } from './session-record.js';

/** Checked `listSessions` options: `limit` is `null` for "all". */
export function checkListSessionsOptions(options: ListSessionsOptions | undefined): { readonly limit: number | null } {
  return { limit: checkLimit(options?.limit) };
}

/** Checked `loadMessages` options: after sequence 0 means from the start, `limit` `null` means all. */
export function checkLoadMessagesOptions(options: LoadMessagesOptions | undefined): {
  readonly afterSequence: number;
  readonly limit: number | null;
} {
  const afterSequence = options?.afterSequence ?? 0;
  if (!Number.isSafeInteger(afterSequence) || afterSequence < 0) {
    throw new InvalidRecordError(`afterSequence must be a whole number >= 0, got ${describeValue(afterSequence)}`);
  }
  return { afterSequence, limit: checkLimit(options?.limit) };
}

/** Checked `setUndone` input: at least one change id, no id twice. */
export function checkUndoneUpdate(update: UndoneUpdate): UndoneUpdate {
  if (typeof update !== 'object' || update === null) throw new InvalidRecordError(`an undone update must be an object, got ${describeValue(update)}`);
  if (typeof update.undone !== 'boolean') throw new InvalidRecordError(`undone must be a boolean, got ${describeValue(update.undone)}`);
  if (!Array.isArray(update.changeIds) || update.changeIds.length === 0) {
    throw new InvalidRecordError(`changeIds must be a non-empty array of change ids, got ${describeValue(update.changeIds)}`);
  }
  const changeIds = update.changeIds.map((changeId: unknown, index) => checkRecordId(changeId, `changeIds[${index}]`));
  const duplicate = changeIds.find((changeId, index) => changeIds.indexOf(changeId) !== index);
  if (duplicate !== undefined) throw new InvalidRecordError(`changeIds lists ${JSON.stringify(duplicate)} twice`);
  return Object.freeze({ changeIds: Object.freeze(changeIds), undone: update.undone });
}

function checkLimit(limit: unknown): number | null {
  if (limit === undefined) return null;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidRecordError(`limit must be a whole number >= 1, got ${describeValue(limit)}`);
  }
  return limit;
}
