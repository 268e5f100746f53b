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
 * The RE2 engine (native binding, linear time: no pattern can hang the process, §7.6). Loaded when
 * first used, so importing the package does not load a native addon.
 */
export function loadRe2(): Re2Constructor {
  loaded ??= createRequire(import.meta.url)('re2') as Re2Constructor;
  return loaded;
}
