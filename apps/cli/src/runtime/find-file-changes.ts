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
    const record = all.find((change) => change.changeId === changeId);
    if (record === undefined) {
      unknown.push(changeId);
      continue;
    }
    const ids = bySession.get(record.sessionId) ?? [];
    ids.push(changeId);
    bySession.set(record.sessionId, ids);
  }
  return { bySession, unknown };
}
