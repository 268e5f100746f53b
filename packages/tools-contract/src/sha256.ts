import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The SHA-256 digest of `data` (a string is hashed as UTF-8), as lowercase hex.
 *
 * Synchronous and free of Node built-ins: the contract runs in any JS runtime, and
 * `crypto.subtle` is promise-only, which would make `FinalizedToolset.digest` a promise. The hash
 * itself is @noble/hashes (audited, no dependencies) — a security-adjacent library does not keep
 * its own SHA-256.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data));
}
