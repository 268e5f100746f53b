import { LineMatcher, type LineMatcherSpec } from './line-matcher.js';
import { SearchEngineUnavailableError } from './load-re2.js';
import { requiredLiterals } from './required-literals.js';
import { PATTERN_SYNTAX_HINT, translateSearchPattern } from './translate-search-pattern.js';

/** A usable pattern (its matcher, compiled once here to report errors) or why it is not. */
export type CompiledSearchPattern =
  | { readonly ok: true; readonly spec: LineMatcherSpec; readonly matcher: LineMatcher }
  /** `engineUnavailable`: the engine did not load (no pattern works here), not a bad pattern. */
  | { readonly ok: false; readonly message: string; readonly engineUnavailable?: boolean };

/**
 * §7.6 `pattern`: Rust regex syntax, translated for RE2, analysed for literals and compiled. A
 * refusal says what the syntax allows; the caller reports it as `invalid_arguments`.
 */
export function compileSearchPattern(pattern: string): CompiledSearchPattern {
  if (pattern.length === 0) return { ok: false, message: `The pattern is empty. ${PATTERN_SYNTAX_HINT}` };
  const translated = translateSearchPattern(pattern);
  if (!translated.ok) return { ok: false, message: `The pattern /${pattern}/ cannot be used: ${translated.message}` };
  const literals = requiredLiterals(translated.tree);
  const spec: LineMatcherSpec = {
    source: translated.source,
    exact: translated.needsRustCheck ? undefined : literals.exact,
    required: literals.required,
    caseless: literals.caseless,
    // RE2 finds a superset of the lines: Rust's own engine has the last word on each.
    rust: translated.needsRustCheck ? pattern : undefined,
  };
  try {
    return { ok: true, spec, matcher: LineMatcher.compile(spec) };
  } catch (error) {
    if (error instanceof SearchEngineUnavailableError) return { ok: false, message: error.message, engineUnavailable: true };
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `The pattern /${pattern}/ is not valid: ${reason}. ${PATTERN_SYNTAX_HINT}` };
  }
}
