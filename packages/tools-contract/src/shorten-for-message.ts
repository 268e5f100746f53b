/**
 * `text` cut to at most `longest` code points (never inside a surrogate pair), with `…` when cut.
 * Error texts quote what the model sent (tool names, field names, values); quoting it whole would
 * let one call produce a result far over the 32,000 bytes of §8.2, and `prepare`'s results are not
 * cut afterwards.
 */
export function shortenForMessage(text: string, longest: number): string {
  if (text.length <= longest) return text;
  // `longest` code points span at most `2 * longest` UTF-16 units.
  const codePoints = Array.from(text.slice(0, longest * 2 + 1));
  if (codePoints.length <= longest && text.length <= longest * 2) return text;
  return `${codePoints.slice(0, longest).join('')}…`;
}
