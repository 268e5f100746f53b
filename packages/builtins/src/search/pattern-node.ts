/**
 * The shape of a grep pattern, as far as the literal analysis needs it (`requiredLiterals`): what
 * is a plain character, what is anything else. Built by `translateSearchPattern` while it
 * rewrites the pattern for RE2.
 */
export type PatternNode =
  /** One character (a code point), matched case-sensitively unless `caseInsensitive`. */
  | { readonly kind: 'char'; readonly text: string; readonly caseInsensitive: boolean }
  /** Anything that matches one of many characters: a class, `.`, `\d`, `\p{L}`. */
  | { readonly kind: 'class' }
  /** Matches the empty string under a condition: `^`, `$`, `\b`, `\B`, `\A`, `\z`. */
  | { readonly kind: 'assertion' }
  /** Alternatives, each a sequence; a plain pattern is a group with one alternative. */
  | { readonly kind: 'group'; readonly alternatives: readonly (readonly PatternNode[])[] }
  /** `node` repeated `min` to `max` times (`max` undefined: no bound). */
  | { readonly kind: 'repeat'; readonly node: PatternNode; readonly min: number; readonly max: number | undefined };
