import type { ToolSessionContext } from '../context/tool-session-context.js';
import { SNIFF_BYTES } from './image/sniff-image-type.js';

/** The first bytes of a regular file (fewer when it is shorter), to tell its kind by content. */
export async function readHead(session: ToolSessionContext, path: string, signal: AbortSignal): Promise<Uint8Array> {
  for await (const chunk of session.filesystem.readChunks(path, { chunkBytes: SNIFF_BYTES, signal })) {
    // One chunk is enough; leaving the loop closes the file.
    return chunk;
  }
  return new Uint8Array(0);
}
