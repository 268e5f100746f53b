import { createRequire } from 'node:module';

/** The part of `rregex` (Rust's `regex` crate built to WebAssembly) grep uses. */
export interface RustRegex {
  isMatch(text: string): boolean;
}

export type RustRegexConstructor = new (pattern: string) => RustRegex;

let loaded: RustRegexConstructor | undefined;

/**
 * Rust's own regex engine (§7.6 names its syntax), as WebAssembly: no compiler, no native build,
 * linear time like RE2. It decides only the lines RE2 cannot judge exactly (Unicode `\b`, `\B`,
 * `\W`/`\S` inside a class, search performance), so it is loaded the first time such a pattern comes.
 */
export function loadRustRegex(): RustRegexConstructor {
  loaded ??= (createRequire(import.meta.url)('rregex') as { RRegex: RustRegexConstructor }).RRegex;
  return loaded;
}
