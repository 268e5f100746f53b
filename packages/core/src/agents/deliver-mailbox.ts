import type { MailboxEntry, NewMessage, SessionStore, StoredMessage } from '@openwork/session-store';
import { MAILBOX_TEXT_CHARS } from './agent-limits.js';

/**
 * The completion mailbox (architecture §4): each child result not yet delivered becomes one user
 * message of the parent — id `agent-result-<agent>-<round>`, so a retry after a crash appends it
 * at most once — and is then marked delivered. Called at the start of every model request of the
 * parent; returns the messages newly added to the conversation, in mailbox order.
 */
export async function deliverMailbox(
  store: SessionStore,
  sessionId: string,
  append: (message: NewMessage) => Promise<StoredMessage>,
  known: (messageId: string) => boolean,
): Promise<StoredMessage[]> {
  const entries = await store.listMailbox(sessionId, { undelivered: true });
  const delivered: StoredMessage[] = [];
  for (const entry of entries) {
    const id = `agent-result-${entry.agentId}-${entry.round}`;
    const message = await append({ id, role: 'user', text: renderEntry(entry), metadata: { origin: 'agent_mailbox', agentId: entry.agentId, round: entry.round, state: entry.state } });
    await store.markMailboxDelivered(sessionId, [entry.sequence]);
    if (!known(message.id)) delivered.push(message);
  }
  return delivered;
}

function renderEntry(entry: MailboxEntry): string {
  const points = Array.from(entry.result.text);
  const shown =
    points.length > MAILBOX_TEXT_CHARS
      ? `${points.slice(0, MAILBOX_TEXT_CHARS).join('')}…\n[${points.length - MAILBOX_TEXT_CHARS} more characters: agent_await {"agentIds":["${entry.agentId}"],"timeoutMs":0} shows the whole result]`
      : entry.result.text;
  const error = entry.result.error === undefined ? '' : `\nerror: ${entry.result.error}`;
  return `[mailbox] Child agent ${entry.agentId} ${entry.state} (round ${entry.round}).${error}\n${shown === '' ? '(no text)' : shown}`;
}
