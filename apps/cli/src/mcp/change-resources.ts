import type { Session } from '@openwork/core';
import { changeResourceUri } from './mcp-structured-result.js';

/** The resource template of a change's whole artifact (structured content stays compact). */
export const CHANGE_RESOURCE_TEMPLATE = 'openwork://changes/{changeId}';

/** resources/list: one resource per file change of the session, in the order they were made. */
export async function listChangeResources(session: Session): Promise<{ uri: string; name: string; title: string; mimeType: string }[]> {
  const changes = await session.fileChanges();
  return changes.map((change) => ({
    uri: changeResourceUri(change.changeId),
    name: change.changeId,
    title: `${change.undone ? 'undone change' : 'change'} of ${change.path}`,
    mimeType: 'application/json',
  }));
}

/**
 * resources/read of `openwork://changes/<id>`: the whole stored `file_change` artifact as JSON (its
 * contents, hunks and hashes), or `undefined` for a URI that names no change of this session.
 */
export async function readChangeResource(session: Session, uri: string): Promise<{ uri: string; mimeType: string; text: string } | undefined> {
  const prefix = 'openwork://changes/';
  if (!uri.startsWith(prefix)) return undefined;
  let changeId: string;
  try {
    changeId = decodeURIComponent(uri.slice(prefix.length));
  } catch {
    return undefined;
  }
  const change = (await session.fileChanges()).find((candidate) => candidate.changeId === changeId);
  if (change === undefined) return undefined;
  return { uri, mimeType: 'application/json', text: `${JSON.stringify(change.artifact, null, 2)}\n` };
}
