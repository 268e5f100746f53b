import { hasRawBytes, pathFromBytes, pathToBytes } from './path-bytes.js';

/**
 * The text form of a path for a model or a person (docs/decisions/0003-exact-file-names-and-the-xnn-spelling.md): a file name that is valid UTF-8 is
 * shown as it is; in a name (one `/`-separated component) that holds bytes that are not part of
 * valid UTF-8, each such byte is shown as `\xNN` (two uppercase hex digits) and each backslash of
 * the name as `\\`, so the spelling names exactly one byte string. Names without such bytes are
 * never changed — a literal `\x41` in one stays as it is (`unescapePath` tries literal first).
 */
export function escapePath(path: string): string {
  if (!hasRawBytes(path)) return path;
  return path.split('/').map(escapeName).join('/');
}

function escapeName(name: string): string {
  if (!hasRawBytes(name)) return name;
  let shown = '';
  for (let index = 0; index < name.length; index += 1) {
    const unit = name.charCodeAt(index);
    if (unit === 0x5c) shown += '\\\\';
    else if (unit >= 0xdc80 && unit <= 0xdcff && !isPairEnd(name, index)) shown += `\\x${(unit - 0xdc00).toString(16).toUpperCase()}`;
    else shown += name[index]!;
  }
  return shown;
}

function isPairEnd(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  return index > 0 && before >= 0xd800 && before <= 0xdbff;
}

/**
 * The path an escaped spelling stands for, or `undefined` when `text` holds none. Each name is
 * decoded on its own, and only when it is exactly the spelling `escapePath` shows for the decoded
 * name (hex digits in either case): so `\x2E\x2E`, `\x2F`, `\x00`, `\xC3\xA9` (valid UTF-8) or a
 * single `\` in such a name are never decoded — such a name stays literal, and a decoded name always
 * holds at least one byte ≥ 0x80 and never `/`, NUL, `.` or `..` alone.
 */
export function unescapePath(text: string): string | undefined {
  if (!text.includes('\\x')) return undefined;
  let changed = false;
  const names = text.split('/').map((name) => {
    const decoded = name.includes('\\x') ? unescapeName(name) : undefined;
    if (decoded === undefined) return name;
    changed = true;
    return decoded;
  });
  return changed ? names.join('/') : undefined;
}

function unescapeName(name: string): string | undefined {
  let raw = '';
  let canonical = '';
  for (let index = 0; index < name.length; ) {
    const hex = name.startsWith('\\x', index) ? name.slice(index + 2, index + 4) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      const byte = Number.parseInt(hex, 16);
      raw += byte >= 0x80 ? String.fromCharCode(0xdc00 + byte) : String.fromCharCode(byte);
      canonical += `\\x${hex.toUpperCase()}`;
      index += 4;
    } else if (name.startsWith('\\\\', index)) {
      raw += '\\';
      canonical += '\\\\';
      index += 2;
    } else {
      raw += name[index]!;
      canonical += name[index]!;
      index += 1;
    }
  }
  // Bytes that form valid UTF-8 together become characters here, and then show differently.
  const decoded = pathFromBytes(pathToBytes(raw));
  return hasRawBytes(decoded) && escapeName(decoded) === canonical ? decoded : undefined;
}
