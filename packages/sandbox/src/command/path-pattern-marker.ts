/**
 * Characters that stand for run-time expansions inside a resolved word's `pattern`. They are
 * control characters, which never occur in a real command argument, so they cannot collide with text.
 */
export const PathPatternMarker = {
  /** An unquoted `*`: any run of characters. */
  anyText: '\u0000',
  /** An unquoted `?` or `[…]`: one character. */
  oneCharacter: '\u0001',
  /** The home directory, from an unquoted leading `~` or `$HOME`, when its value is not known. */
  home: '\u0002',
  /** The working directory, from `$PWD`, when its value is not known. */
  workingDirectory: '\u0003',
  /** An expansion whose value is only known at run time (`$X`, `$(…)`): may be anything, even empty. */
  unknown: '\u0004',
} as const;
