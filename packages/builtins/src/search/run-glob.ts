import type { SandboxPolicy } from '@openwork/sandbox';
import type { CheckedPath } from '../context/checked-path.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import type { SpillWriter } from '../spill/spill-writer.js';
import type { IgnoreRules } from './ignore-rules.js';
import { NewestFiles, type DatedFile } from './newest-files.js';
import type { ScanLimit } from './scan-limit.js';
import { GLOB_MAX_RESULTS } from './search-limits.js';
import { walkSearchTree } from './walk-search-tree.js';

/** `lstat` calls in flight at once (they overlap in libuv's thread pool). */
const STATS_IN_FLIGHT = 64;

export interface GlobRun {
  readonly session: ToolSessionContext;
  readonly policy: SandboxPolicy;
  readonly root: CheckedPath;
  readonly rules: IgnoreRules;
  readonly accept: (relativePath: string) => boolean;
  readonly limit: ScanLimit;
  readonly signal: AbortSignal;
  readonly list: SpillWriter | undefined;
}

/** The bounded result of a glob. */
export interface GlobTally {
  /** The newest files (at most 100), newest first. */
  readonly newest: readonly DatedFile[];
  /** Every matching file the walk reached. */
  readonly total: number;
}

/**
 * §7.7: walks like grep, keeps the newest 100 matching files in a heap of 100 (each matching file
 * is `lstat`ed for its time; files whose time cannot be read rank last) and writes every match to
 * the full list in walk order, so memory does not grow with the number of matches.
 */
export async function runGlob(run: GlobRun): Promise<GlobTally> {
  const newest = new NewestFiles(GLOB_MAX_RESULTS);
  const stats = new Set<Promise<void>>();
  let total = 0;
  let listing: Promise<void> = Promise.resolve();
  await walkSearchTree({
    session: run.session,
    policy: run.policy,
    root: run.root,
    rules: run.rules,
    shouldStop: () => run.limit.reached(),
    signal: run.signal,
    accept: run.accept,
    onFile: async (file) => {
      const seq = total;
      total += 1;
      const list = run.list;
      if (list !== undefined) listing = listing.then(() => list.write(`${file.displayPath}\n`));
      const stat: Promise<void> = run.session.filesystem.lstat(file.path).then(
        (found) => newest.offer({ displayPath: file.displayPath, mtimeMs: Number.isFinite(found.mtimeMs) ? found.mtimeMs : undefined, seq }),
        () => newest.offer({ displayPath: file.displayPath, mtimeMs: undefined, seq }),
      );
      stats.add(stat);
      void stat.finally(() => stats.delete(stat));
      if (stats.size >= STATS_IN_FLIGHT) await Promise.race(stats);
      if (total % 256 === 0) await listing;
    },
  });
  await Promise.all(stats);
  await listing;
  return { newest: newest.sorted(), total };
}
