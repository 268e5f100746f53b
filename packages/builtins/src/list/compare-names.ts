/**
 * §7.8 "条目按名称排序": by Unicode code point (the order of the UTF-8 bytes), the same on every
 * machine and locale, so pages of one directory never overlap or skip (acceptance: stable paging).
 */
export function compareNames(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
}
