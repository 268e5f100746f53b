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
 * (core's change ids are `call_<uuid>`), so `call_a6708172`, keeping the `.<n>` of a bash call's
 * n-th change (`call_a6708172.3`); any unique prefix names it, and the short id of a bash call
 * names all its changes.
 */
export function shortId(id: string): string {
  const numbered = /^(.+)(\.\d+)$/u.exec(id);
  if (numbered !== null) return `${shortId(numbered[1] as string)}${numbered[2] as string}`;
  return id.slice(0, id.indexOf('_') + 1 + 8);
}

/** The call that made a change when it made several (a bash call), from the stored artifact. */
export function callIdOf(change: FileChangeRecord): string | undefined {
  const callId = (change.artifact.change as { callId?: unknown }).callId;
  return typeof callId === 'string' ? callId : undefined;
}

/** What an id on the command line names: one change, or every change of one bash call. */
export type NamedChanges = { readonly kind: 'change'; readonly change: FileChangeRecord } | { readonly kind: 'call'; readonly callId: string; readonly changes: FileChangeRecord[] };

/**
 * The change `id` names: the one with exactly that id, else the only one whose id starts with it
 * (the short ids `openwork changes` prints); or the changes of the one bash call whose id is (or
 * starts with) `id`. `undefined` for none; several for an ambiguous prefix.
 */
export function findChange(changes: readonly FileChangeRecord[], id: string): NamedChanges | FileChangeRecord[] | undefined {
  const exact = changes.find((change) => change.changeId === id);
  if (exact !== undefined) return { kind: 'change', change: exact };
  const matches = id === '' ? [] : changes.filter((change) => change.changeId.startsWith(id));
  if (matches.length === 0) return undefined;
  if (matches.length === 1) return { kind: 'change', change: matches[0] as FileChangeRecord };
  const calls = new Set(matches.map(callIdOf));
  const [callId] = calls;
  if (calls.size === 1 && callId !== undefined && callId.startsWith(id)) {
    const sessions = new Set(matches.map((change) => change.sessionId));
    if (sessions.size === 1) return { kind: 'call', callId, changes: matches };
  }
  return matches;
}

/** Change ids (or bash call ids) grouped by the session that holds them; ids no session holds are returned apart. */
export async function groupChangesBySession(
  runtime: Runtime,
  changeIds: readonly string[],
  sessionId: string | undefined,
): Promise<{ bySession: Map<string, string[]>; unknown: string[] }> {
  const all = await listStoredFileChanges(runtime, sessionId);
  const bySession = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const changeId of changeIds) {
    const named = findChange(all, changeId);
    if (named === undefined || Array.isArray(named)) {
      unknown.push(changeId);
      continue;
    }
    // A bash call's id goes to core as it is: it stands for all the call's changes there too.
    const [sessionOf, id] = named.kind === 'change' ? [named.change.sessionId, named.change.changeId] : [(named.changes[0] as FileChangeRecord).sessionId, named.callId];
    const ids = bySession.get(sessionOf) ?? [];
    ids.push(id);
    bySession.set(sessionOf, ids);
  }
  return { bySession, unknown };
}
