import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { forEachChunk } from './for-each-chunk.js';

/** Lowercase hex SHA-256 of an open file from its start, streamed through two reused buffers. */
export async function hashOpenFile(
  handle: FileHandle,
  chunkBytes: number,
  context: { readonly signal: AbortSignal | undefined; readonly operation: string; readonly path: string },
): Promise<string> {
  const hash = createHash('sha256');
  await forEachChunk(handle, chunkBytes, (chunk) => hash.update(chunk), context);
  return hash.digest('hex');
}
