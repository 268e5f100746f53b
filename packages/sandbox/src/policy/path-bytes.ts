/**
 * Paths are strings whose lone U+DC80–U+DCFF stand for bytes 0x80–0xFF that are not part of valid
 * UTF-8 (PEP 383's "surrogateescape"; docs/decisions/0003-exact-file-names-and-the-xnn-spelling.md) — the convention of `@openwork/fs-backend`'s
 * `path-bytes.ts`, kept here in the two directions canonicalisation needs, since the package graph
 * (architecture §1) gives the sandbox no dependency. builtins' tests run both on the same files.
 * Such a byte is never `/`, `.` or NUL, so every textual rule of the fence holds for the bytes.
 */

const RAW_BYTE = /[\uDC80-\uDCFF]/u;

/** What to hand `node:fs`: the string itself, or its bytes when it holds a raw byte. */
export function toNodePath(path: string): string | Buffer {
  if (!RAW_BYTE.test(path)) return path;
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

/** Length of the valid UTF-8 sequence at `index` (Unicode Table 3-7), or 0. */
function sequenceLength(bytes: Buffer, index: number): number {
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

/** The path string of a path as bytes: UTF-8, each byte outside a valid sequence as U+DC00 + byte. */
export function pathFromBytes(buffer: Buffer): string {
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
