import type { Runtime, Session } from '@openwork/core';

type FileChangeRecord = Awaited<ReturnType<Session['fileChanges']>>[number];

/**
 * The file changes of one session, or of every stored session (most recently updated first,
 * each in the order its changes were made).
 */
export async function listStoredFileChanges(runtime: Runtime, sessionId: string | undefined): Promise<FileChangeRecord[]> {
  if (sessionId !== undefined) return (await runtime.openSession(sessionId)).fileChanges();
  const changes: FileChangeRecord[] = [];
  for (const record of await runtime.listSessions()) {
    changes.push(...(await runtime.store.listFileChanges(record.id)));
  }
  return changes;
}

/**
 * The short form of an id that `openwork changes` shows: 8 characters after a leading `word_`
 * (core's change ids are `call_<uuid>`), so `call_a6708172`; any unique prefix names it.
 */
export function shortId(id: string): string {
  return id.slice(0, id.indexOf('_') + 1 + 8);
}

/**
 * The change `id` names: the one with exactly that id, else the only one whose id starts with it
 * (the short ids `openwork changes` prints). `undefined` for none; several for an ambiguous prefix.
 */
export function findChange(changes: readonly FileChangeRecord[], id: string): FileChangeRecord | FileChangeRecord[] | undefined {
  const exact = changes.find((change) => change.changeId === id);
  if (exact !== undefined) return exact;
  const matches = id === '' ? [] : changes.filter((change) => change.changeId.startsWith(id));
  if (matches.length === 0) return undefined;
  return matches.length === 1 ? matches[0] : matches;
}

/** Change ids grouped by the session that holds them; ids no session holds are returned apart. */
export async function groupChangesBySession(
  runtime: Runtime,
  changeIds: readonly string[],
  sessionId: string | undefined,
): Promise<{ bySession: Map<string, string[]>; unknown: string[] }> {
  const all = await listStoredFileChanges(runtime, sessionId);
  const bySession = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const changeId of changeIds) {
    const record = findChange(all, changeId);
    if (record === undefined || Array.isArray(record)) {
      unknown.push(changeId);
      continue;
    }
    const ids = bySession.get(record.sessionId) ?? [];
    ids.push(record.changeId);
    bySession.set(record.sessionId, ids);
  }
  return { bySession, unknown };
}
