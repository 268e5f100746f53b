/** One place in the file to replace: `[start, end)` in the current content, and the text that goes there. */
export interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * How `oldString` was found (reported so a model and a log can tell), in the order they are tried:
 * `exact` — as given; `line-endings` — CRLF and LF line breaks taken as the same (read strips `\r`
 * from what it shows, §7.1, so a model cannot copy them); then the tolerant levels, each also
 * allowing what the ones before it allow: `trailing-whitespace` — spaces and tabs at line ends
 * ignored; `indentation` — the whole block indented consistently more or less than the file;
 * `typography` — typographic quotes, dashes and spaces taken as their plain ASCII forms.
 */
export type MatchStrategy = 'exact' | 'line-endings' | 'trailing-whitespace' | 'indentation' | 'typography';

/** The outcome of the matching step of edit (§7.3). */
export type EditMatch =
  | { readonly ok: true; readonly strategy: MatchStrategy; readonly replacements: readonly Replacement[] }
  | { readonly ok: false; readonly reason: 'not_found' }
  | { readonly ok: false; readonly reason: 'ambiguous'; readonly occurrences: number };

/** What the matching step needs. `oldString` is non-empty and differs from `newString`. */
export interface EditMatchRequest {
  readonly content: string;
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}
