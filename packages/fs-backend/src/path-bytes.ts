/**
 * File names are bytes on Linux; JavaScript strings are UTF-16. A path string here may hold the
 * lone low surrogates U+DC80–U+DCFF, each standing for one byte 0x80–0xFF that is not part of
 * valid UTF-8 in the name (Python's "surrogateescape", PEP 383). Valid UTF-8 never decodes to a
 * lone surrogate, so the mapping bytes ⇄ string is one to one, and every path keeps `/`, `.` and
 * NUL where the bytes have them (raw bytes are all ≥ 0x80): the fence's checks of a string hold
 * for the bytes it names (docs/decisions/0003-exact-file-names-and-the-xnn-spelling.md).
 */

/** A lone U+DC80–U+DCFF (the `u` flag keeps a surrogate pair from matching). */
const RAW_BYTE = /[\uDC80-\uDCFF]/u;

/** Whether `path` holds a byte that is not UTF-8 (then Node must get it as bytes, `toNodePath`). */
export function hasRawBytes(path: string): boolean {
  return RAW_BYTE.test(path);
}

/** Length of the valid UTF-8 sequence at `index` (Unicode Table 3-7), or 0 when it is not one. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index]!;
  const at = (offset: number, low = 0x80, high = 0xbf): boolean => {
    const byte = bytes[index + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return at(1) ? 2 : 0;
  if (lead === 0xe0) return at(1, 0xa0) && at(2) ? 3 : 0;
  if (lead === 0xed) return at(1, 0x80, 0x9f) && at(2) ? 3 : 0;
  if (lead >= 0xe1 && lead <= 0xef) return at(1) && at(2) ? 3 : 0;
  if (lead === 0xf0) return at(1, 0x90) && at(2) && at(3) ? 4 : 0;
  if (lead >= 0xf1 && lead <= 0xf3) return at(1) && at(2) && at(3) ? 4 : 0;
  if (lead === 0xf4) return at(1, 0x80, 0x8f) && at(2) && at(3) ? 4 : 0;
  return 0;
}

/**
 * The path string of a file name or path as bytes: UTF-8 decoded, each byte that is not part of
 * valid UTF-8 as U+DC00 + byte. All-UTF-8 bytes cost one `toString` (a U+FFFD in the result is
 * the only reason to look closer).
 */
export function pathFromBytes(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoded = buffer.toString('utf8');
  if (!decoded.includes('\uFFFD')) return decoded;
  let result = '';
  let start = 0;
  let index = 0;
  while (index < buffer.length) {
    const length = sequenceLength(buffer, index);
    if (length > 0) {
      index += length;
      continue;
    }
    result += buffer.toString('utf8', start, index) + String.fromCharCode(0xdc00 + buffer[index]!);
    index += 1;
    start = index;
  }
  return result + buffer.toString('utf8', start);
}

/** The bytes a path string names: UTF-8, with each U+DC80–U+DCFF as its raw byte. */
export function pathToBytes(path: string): Buffer {
  if (!hasRawBytes(path)) return Buffer.from(path, 'utf8');
  const parts: Buffer[] = [];
  let start = 0;
  for (let index = 0; index < path.length; index += 1) {
    const unit = path.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = path.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1; // a pair: an ordinary character
      continue;
    }
    if (unit < 0xdc80 || unit > 0xdcff) continue;
    parts.push(Buffer.from(path.slice(start, index), 'utf8'), Buffer.of(unit - 0xdc00));
    start = index + 1;
  }
  parts.push(Buffer.from(path.slice(start), 'utf8'));
  return Buffer.concat(parts);
}

/** What to hand `node:fs` for a path string: the string itself, or its bytes when it holds raw ones. */
export function toNodePath(path: string): string | Buffer {
  return hasRawBytes(path) ? pathToBytes(path) : path;
}
