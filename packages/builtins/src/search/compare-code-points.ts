/**
 * Orders names by Unicode code point (the order of their UTF-8 bytes, like `list`, §7.8), so the
 * walk order is the same on every machine. JavaScript's `<` compares UTF-16 units, which agrees
 * except where a surrogate pair meets a character from U+E000 up; only then is the slow path used.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) continue;
    if (a >= 0xd800 && b >= 0xd800) return (left.codePointAt(index) ?? 0) - (right.codePointAt(index) ?? 0) || a - b;
    return a - b;
  }
  return left.length - right.length;
}
