import type { ToolCallOutcome } from '@openwork/core';

/** The `ToolResult` of `@openwork/tools-contract`, as core hands it out. */
export type CliToolResult = ToolCallOutcome['result'];

/** The model-visible text of a result (§8.1): its text parts joined by newlines (image parts are not text). */
export function resultText(result: CliToolResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * A failed result for input that never reached a tool (a malformed JSON Lines line): the same
 * shape as every other result line, so a reader handles one kind of line.
 */
export function inputFailure(message: string): CliToolResult {
  return {
    status: 'failed',
    content: [{ type: 'text', text: message }],
    artifacts: [],
    error: { code: 'invalid_arguments', message, retryable: false },
    sandboxDenied: false,
  };
}

/**
 * `change <id> to <path>; undo with: openwork undo <id>` for each file change of a result; one
 * line for all the changes of a bash call (its call id names them all).
 */
export function changeNotes(result: CliToolResult, sessionId: string): string[] {
  const calls = new Map<string, number>();
  const notes = result.artifacts.flatMap((artifact) => {
    if (artifact.kind !== 'file_change') return [];
    const change = (artifact as { change?: { changeId?: unknown; displayPath?: unknown; callId?: unknown } }).change;
    if (typeof change?.changeId !== 'string') return [];
    if (typeof change.callId === 'string') {
      calls.set(change.callId, (calls.get(change.callId) ?? 0) + 1);
      return [];
    }
    return [`change ${change.changeId} (${String(change.displayPath)}) recorded in session ${sessionId}; undo with: openwork undo ${change.changeId}`];
  });
  for (const [callId, count] of calls) {
    notes.push(`${count} change${count === 1 ? '' : 's'} of call ${callId} recorded in session ${sessionId} (openwork changes --session ${sessionId}); undo all with: openwork undo ${callId}`);
  }
  return notes;
}
