import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where Debian, Fedora and Arch install bubblewrap; the answer when `PATH` has none. */
export const DEFAULT_BWRAP_PATH = '/usr/bin/bwrap';

/**
 * The bwrap executable a user means: the first `bwrap` in `PATH` that is an executable regular
 * file (a Homebrew-on-Linux or `/usr/local` build comes before the distribution's, as in their
 * shell), looked up once when the backend is made, from the host's own `PATH` — never a sandboxed
 * command's. Relative and empty `PATH` entries are skipped: they would name a folder relative to
 * whatever the current directory is. Without one, `/usr/bin/bwrap`, so the self-check reports the
 * missing program with its install hint.
 */
export function findBubblewrap(searchPath: string | undefined): string {
  for (const folder of (searchPath ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, 'bwrap');
    try {
      const stats = fs.statSync(candidate);
      if (!stats.isFile()) continue;
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here (or not executable): the next folder.
    }
  }
  return DEFAULT_BWRAP_PATH;
}
