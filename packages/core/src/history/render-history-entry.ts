import type { StoredMessage } from '@openwork/session-store';
import { ToolResult } from '@openwork/tools-contract';
import { HISTORY_ARGUMENTS_CHARS } from './history-limits.js';

/** One message in a history listing: its header and text, before any cut. */
export interface HistoryEntry {
  readonly sequence: number;
  /** `#4 assistant`, `#5 tool read (call_1, failed)`. */
  readonly header: string;
  /** The message text, then one line per tool call. Never artifacts (§8.1). */
  readonly body: string;
}

/** What the model sees of a stored message when it looks back. */
export function historyEntry(message: StoredMessage): HistoryEntry {
  switch (message.role) {
    case 'user':
      return { sequence: message.sequence, header: `#${message.sequence} user`, body: message.text };
    case 'assistant': {
      const calls = message.toolCalls.map((call) => {
        const input = typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
        return `[called ${call.toolId} (${call.id}) with ${shorten(input, HISTORY_ARGUMENTS_CHARS)}]`;
      });
      return { sequence: message.sequence, header: `#${message.sequence} assistant`, body: [message.text, ...calls].filter((part) => part !== '').join('\n') };
    }
    case 'tool': {
      const status = message.result.status === 'succeeded' ? '' : `, ${message.result.status}`;
      return { sequence: message.sequence, header: `#${message.sequence} tool ${message.toolId} (${message.toolCallId}${status})`, body: ToolResult.text(message.result) };
    }
  }
}

/** `text` cut to `chars` code points, with `…` when cut. */
export function shorten(text: string, chars: number): string {
  const points = Array.from(text);
  return points.length <= chars ? text : `${points.slice(0, chars).join('')}…`;
}
