import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of `bytes` (the hash of §7.4 and §8.4). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
