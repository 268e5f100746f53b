import type { FileChangeArtifact } from '../file-change-artifact.js';
import type { NewMessage } from '../new-message.js';
import type { SessionStore } from '../session-store.js';
import type { StoredMessage } from '../stored-message.js';
import { completeToolTurn } from './complete-tool-turn.js';

/** How every group of the contract suite gets its stores (made by the harness, closed after each test). */
export interface ContractStores {
  create(): Promise<SessionStore>;
  /** Another handle on the same data (another process, in real use). */
  peer(store: SessionStore): Promise<SessionStore>;
  /** The same data opened again after `store` was closed. */
  reopen(store: SessionStore): Promise<SessionStore>;
}

export const ROOT = '/home/me/example-project';

/** A store holding one session with one complete tool turn (user, assistant with a call, tool result). */
export async function storeWithTurn(stores: ContractStores): Promise<{ store: SessionStore; sessionId: string; turn: NewMessage[]; stored: StoredMessage[] }> {
  const store = await stores.create();
  const { id: sessionId } = await store.createSession({ workspaceRoots: [ROOT] });
  const turn = completeToolTurn();
  const stored: StoredMessage[] = [];
  for (const message of turn) stored.push(await store.appendMessage(sessionId, message));
  return { store, sessionId, turn, stored };
}

/** What the store must return for `message` appended as number `sequence`. */
export function expectedStored(message: NewMessage, sessionId: string, sequence: number, createdAt: string): StoredMessage {
  const head = { sessionId, id: message.id ?? '', sequence, createdAt };
  const metadata = message.metadata === undefined ? {} : { metadata: message.metadata };
  switch (message.role) {
    case 'user':
      return { ...head, role: 'user', text: message.text, ...metadata };
    case 'assistant':
      return { ...head, role: 'assistant', text: message.text, toolCalls: message.toolCalls ?? [], ...metadata };
    case 'tool':
      return { ...head, role: 'tool', toolCallId: message.toolCallId, toolId: message.toolId, result: message.result, ...metadata };
  }
}

export function fileChange(changeId: string, path: string): FileChangeArtifact {
  return { kind: 'file_change', change: { changeId, path, kind: 'created', additions: 1, deletions: 0, undone: false } };
}

export function markUndone(artifact: FileChangeArtifact): FileChangeArtifact {
  return { ...artifact, change: { ...artifact.change, undone: true } };
}
