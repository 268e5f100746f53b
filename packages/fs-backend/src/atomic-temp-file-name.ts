import { randomBytes } from 'node:crypto';

/** Room left for `.<pid>.<random>.tmp` and the leading dot within the usual 255-byte NAME_MAX. */
const maxPrefixBytes = 200;

/** The target name, shortened at a character boundary if needed, that starts every temp name for it. */
function prefixFor(targetName: string): string {
  if (Buffer.byteLength(targetName) <= maxPrefixBytes) return targetName;
  let prefix = '';
  let bytes = 0;
  for (const character of targetName) {
    const size = Buffer.byteLength(character);
    if (bytes + size > maxPrefixBytes) break;
    prefix += character;
    bytes += size;
  }
  return prefix;
}

/**
 * A fresh temp name for writing `targetName` atomically: `.<target>.<pid>.<12 hex>.tmp`, hidden,
 * in the target's own directory (§6.2), carrying the writer's pid so a later writer can tell a
 * crashed writer's leftover from a live one's temp file.
 */
export function atomicTempFileName(targetName: string): string {
  return `.${prefixFor(targetName)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** The writer's pid if `entryName` is one of our temp names for `targetName`, else `undefined`. */
export function matchAtomicTempFileName(entryName: string, targetName: string): number | undefined {
  const head = `.${prefixFor(targetName)}.`;
  if (!entryName.startsWith(head) || !entryName.endsWith('.tmp')) return undefined;
  const match = /^(\d{1,10})\.[0-9a-f]{12}$/.exec(entryName.slice(head.length, -'.tmp'.length));
  if (match === null) return undefined;
  const pid = Number(match[1]);
  return pid > 0 ? pid : undefined;
}
