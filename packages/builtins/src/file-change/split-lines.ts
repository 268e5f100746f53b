/**
 * The lines of a text as diff tokens: each keeps its `\n` (and a `\r` before it), the last one may
 * have none. So `"a\nb"` and `"a\nb\n"` differ in their last line, as in `git diff`, and a CRLF
 * file diffed against its LF twin shows every line changed (§8.4: the diff is exact).
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) break;
    lines.push(text.slice(start, newline + 1));
    start = newline + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}
