import type { LetterCase, PathScope } from '../policy/sandbox-policy.js';

const metacharacters = /[\\^$.|?*+()[\]{}]/g;

/**
 * A Seatbelt `(regex …)` pattern for one canonical path, passed as a `-D` parameter (paths are
 * never inlined, §3.4). `insensitive` turns every ASCII letter into a class (`.git` →
 * `\.[gG][iI][tT]`), the letter-case rule (docs/decisions/0044-sandbox-letter-case.md); other characters are escaped. `exact` matches the
 * path only; `subtree` the path and everything below it — `(/|$)` after the path, which also stops
 * `mkdir` of a missing protected folder, and needs no `.` (whose meaning for a newline in a name
 * differs between regex engines).
 */
export function seatbeltPathPattern(path: string, scope: PathScope, letterCase: LetterCase): string {
  if (path === '/' && scope === 'subtree') return '^/';
  let body = '';
  for (const char of path) {
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    if (letterCase === 'insensitive' && /^[A-Za-z]$/.test(char) && lower !== upper) body += `[${lower}${upper}]`;
    else body += char.replace(metacharacters, '\\$&');
  }
  return scope === 'exact' ? `^${body}$` : `^${body}(/|$)`;
}
