import type { FileHandle } from 'node:fs/promises';
import { throwIfAborted } from './throw-if-aborted.js';
import { toFileSystemError } from './to-file-system-error.js';

/**
 * Reads an open file from the start to EOF with two alternating buffers: the next read is already
 * in flight on the thread pool while `visit` hashes and splits the current chunk on the main
 * thread, so reading and hashing overlap. `visit` must finish with a chunk synchronously (the
 * buffer is reused two reads later). Returns the number of bytes read.
 */
export async function forEachChunk(
  handle: FileHandle,
  chunkBytes: number,
  visit: (chunk: Buffer) => void,
  context: { readonly signal: AbortSignal | undefined; readonly operation: string; readonly path: string },
): Promise<number> {
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)] as const;
  const read = (index: 0 | 1, position: number) =>
    handle.read(buffers[index], 0, chunkBytes, position).then(
      (result) => result.bytesRead,
      (error: unknown) => {
        throw toFileSystemError(error, context.operation, context.path);
      },
    );
  let index: 0 | 1 = 0;
  let position = 0;
  let bytesRead = await read(index, position);
  while (bytesRead > 0) {
    throwIfAborted(context.signal, context.operation, context.path);
    position += bytesRead;
    const next = read(index === 0 ? 1 : 0, position);
    try {
      visit(buffers[index].subarray(0, bytesRead));
    } catch (error) {
      // Never close the handle under a read that is still in flight.
      await next.catch(() => undefined);
      throw error;
    }
    bytesRead = await next;
    index = index === 0 ? 1 : 0;
  }
  return position;
}
