import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { FileOutcome } from './file-outcome.js';
import { LongLineProbe, RegionAssembler } from './region-assembler.js';
import { MAX_SEARCH_LINE_BYTES } from './search-limits.js';

const CHUNK_BYTES = 8 * 1024 * 1024;
/** files_with_matches reads in pieces of the binary probe's size: its answer may come in the first. */
const EARLY_STOP_CHUNK_BYTES = 64 * 1024;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Reads the file at `path` through the session's `AsyncFileSystem` (§4) and hands its regions
 * to `scan`: what grep does on the calling thread (a single file, a host's own file system, or no
 * worker threads). Same rules as the worker's reader: regular files only, a line over 64 MiB
 * skips the file, anything unreadable is skipped. With `stopsEarly` (files_with_matches) the file
 * is read in 64 KiB pieces, and no further once `scan` wants no more.
 */
export async function scanFileThroughBackend(
  filesystem: AsyncFileSystem,
  path: string,
  scan: (region: Buffer, last: boolean) => boolean,
  signal: AbortSignal,
  stopsEarly = false,
): Promise<FileOutcome> {
  try {
    // The walk saw a plain file here; a link in its place now was put there since: skip it.
    const stat = await filesystem.lstat(path);
    if (stat.kind !== 'file') return 'unreadable';
    if (stat.size > MAX_SEARCH_LINE_BYTES) {
      const probe = new LongLineProbe();
      for await (const chunk of filesystem.readChunks(path, { chunkBytes: CHUNK_BYTES, signal })) {
        if (!probe.push(asBuffer(chunk))) break;
      }
      if (probe.found) return 'long-line';
    }
    const assembler = new RegionAssembler(scan);
    let wanted = true;
    for await (const chunk of filesystem.readChunks(path, { chunkBytes: stopsEarly ? EARLY_STOP_CHUNK_BYTES : CHUNK_BYTES, signal })) {
      wanted = assembler.push(asBuffer(chunk));
      if (!wanted) break;
    }
    if (wanted) assembler.end();
    return assembler.outcome;
  } catch {
    return 'unreadable';
  }
}
