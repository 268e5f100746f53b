import { createRequire } from 'node:module';

/** The part of the `re2` binding grep uses, over bytes (offsets are byte offsets). */
export interface Re2Regex {
  lastIndex: number;
  exec(input: Uint8Array): { readonly index: number; readonly 0: Uint8Array } | null;
  test(input: Uint8Array): boolean;
}

export type Re2Constructor = new (source: string, flags: string) => Re2Regex;

let loaded: Re2Constructor | undefined;

/**
 * grep's engine cannot be loaded here (the `re2` native addon was built for another Node, or is
 * missing): not a problem of the pattern, and no other pattern works either.
 */
export class SearchEngineUnavailableError extends Error {
  override readonly name = 'SearchEngineUnavailableError';
}

/**
 * The RE2 engine (native binding, linear time: no pattern can hang the process, §7.6). Loaded when
 * first used, so importing the package does not load a native addon. A failure to load is a
 * `SearchEngineUnavailableError` saying why and what to do.
 */
export function loadRe2(): Re2Constructor {
  if (loaded !== undefined) return loaded;
  try {
    loaded = createRequire(import.meta.url)('re2') as Re2Constructor;
  } catch (error) {
    throw new SearchEngineUnavailableError(describeEngineLoadFailure(error));
  }
  return loaded;
}

/** What a person (or model) needs to know when the addon does not load. */
export function describeEngineLoadFailure(error: unknown): string {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return `grep cannot search here: its regular-expression engine, the re2 native addon, does not load on this Node ${process.version} (module ABI ${process.versions.modules}): ${reason}. This is not a problem of the pattern. Reinstall with the Node that runs it (npm rebuild re2, or reinstall openwork); openwork doctor shows the grep engine.`;
}

/** Whether grep's engine loads here, for a host's health report (`openwork doctor`). */
export function searchEngineStatus(): { readonly available: true; readonly detail: string } | { readonly available: false; readonly reason: string } {
  try {
    loadRe2();
    return { available: true, detail: `re2 loads on Node ${process.version} (module ABI ${process.versions.modules})` };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
