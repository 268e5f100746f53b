import type { StoredMessage } from '@openwork/session-store';

/** The text of the last assistant message that has text ('' if none): what a child had said so far. */
export function lastAssistantText(messages: readonly StoredMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'assistant' && message.text !== '') return message.text;
  }
  return '';
}
