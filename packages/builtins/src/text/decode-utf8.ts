const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `bytes` as text when they are valid UTF-8 (a BOM is kept as content), else `undefined`. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}
