import { checkRecordId } from '@openwork/session-store';
import type { JsonValue } from '@openwork/tools-contract';

/** A tool call as core records and runs it. */
export interface RecordableToolCall {
  /** Unique in the session (the store's rule, the spill file's and the change's name, §8.2, §8.4). */
  readonly id: string;
  /** The tool name as recorded: the model's, unless a store could not keep it. */
  readonly toolId: string;
  /** The arguments: the parsed object when the model sent JSON text of one, else the text itself. */
  readonly input: JsonValue;
}

/**
 * Makes a streamed call storable and unambiguous. Some models reuse ids (`call_0` every turn) or
 * send none; a call whose id is empty, unusable or already taken in the session gets a fresh
 * `call_<uuid>` — in the assistant message and its tool message alike, so providers still pair
 * them. Arguments are kept as JSON; what cannot be JSON is kept as text.
 */
export function recordableToolCall(streamed: { readonly id: string; readonly toolId: string; readonly input: unknown }, takenIds: ReadonlySet<string>): RecordableToolCall {
  const id = usableId(streamed.id) && !takenIds.has(streamed.id) ? streamed.id : `call_${globalThis.crypto.randomUUID()}`;
  return Object.freeze({ id, toolId: recordableToolId(streamed.toolId), input: jsonInput(streamed.input) });
}

function usableId(id: string): boolean {
  try {
    checkRecordId(id, 'tool call id');
    return true;
  } catch {
    return false;
  }
}

/** A name no tool has still gets `tool_not_found`; the record keeps a printable, bounded form of it. */
function recordableToolId(toolId: string): string {
  if (usableId(toolId)) return toolId;
  // Control characters and broken surrogates become `?`; at most 200 code points are kept.
  const printable = Array.from(toolId, (point) => (/^[\u0000-\u001f\u007f\ud800-\udfff]$/.test(point) ? '?' : point));
  const kept = printable.slice(0, 200).join('');
  return kept === '' ? '?' : kept.length > 200 ? Array.from(kept).slice(0, 100).join('') : kept;
}

function jsonInput(input: unknown): JsonValue {
  if (input === undefined || input === null) return {};
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as JsonValue;
    } catch {
      // Not JSON: kept as the text the model sent; the call gets `invalid_arguments`.
    }
    return input;
  }
  try {
    const text = JSON.stringify(input);
    return text === undefined ? {} : (JSON.parse(text) as JsonValue);
  } catch {
    return String(input);
  }
}
