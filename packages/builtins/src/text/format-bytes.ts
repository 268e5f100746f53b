/** `1048576` → `1,048,576`: byte counts in messages, grouped so they are easy to compare. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
