/** The largest length ≤ `limit` that does not end inside a multi-byte UTF-8 character of `bytes`. */
export function utf8PrefixLength(bytes: Uint8Array, limit: number): number {
  let length = Math.min(limit, bytes.length);
  while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length -= 1;
  return length;
}
