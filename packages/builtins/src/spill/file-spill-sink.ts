import type { SpillSink } from '@openwork/tools-contract';
import { openSpillFile, removeSpillFile } from './open-spill-file.js';
import type { SpillLocation } from './spill-location.js';
import { utf8PrefixLength } from './utf8-prefix.js';

/**
 * The file `SpillSink` for `finalize` (§8.2): the fallback cut of `FinalizedToolset.call` saves
 * the whole text of an oversized result to `<openwork home>/spill/<session-id>/<tool-call-id>.txt`
 * and shows the returned path. At most `maxBytes` are written (the cut already passes at most
 * 64 MiB and says so). A failure deletes whatever was written and rejects, so the result never
 * names a file that does not exist.
 */
export class FileSpillSink implements SpillSink {
  readonly #locate: (callId: string) => SpillLocation;
  readonly #maxBytes: number;

  constructor(locate: (callId: string) => SpillLocation, maxBytes: number) {
    this.#locate = locate;
    this.#maxBytes = maxBytes;
  }

  async save(callId: string, text: string): Promise<string> {
    const location = this.#locate(callId);
    const encoded = new TextEncoder().encode(text);
    const bytes = encoded.subarray(0, utf8PrefixLength(encoded, this.#maxBytes));
    let written = false;
    try {
      const handle = await openSpillFile(location.path);
      try {
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
      written = true;
    } finally {
      if (!written) await removeSpillFile(location.path);
    }
    return location.displayPath;
  }
}
