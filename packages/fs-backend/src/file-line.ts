/**
 * One line delivered by `readLines`. Content never includes the terminator: `\n`, or `\r\n`
 * (a `\r` directly before `\n` belongs to the terminator, §7.1 "行尾的 \r 被去掉"). A lone `\r`
 * elsewhere, including one at the very end of a file without a final `\n`, is content.
 */
export interface FileLine {
  /** 1-based line number in the file. */
  readonly number: number;
  /**
   * The first `min(byteLength, maxLineBytes)` bytes of the content, cut at exactly that byte even
   * inside a multi-byte character (§7.1 "每行只保留前 8,000 字节"). Owned by the receiver.
   */
  readonly bytes: Uint8Array;
  /** Byte length of the whole content, however much of it was discarded. */
  readonly byteLength: number;
  /** `byteLength > bytes.length`: the rest of the line was dropped while streaming. */
  readonly truncated: boolean;
  /** The whole line (not only the kept bytes) contains a NUL byte. */
  readonly hasNul: boolean;
  /** The whole line (not only the kept bytes) is valid UTF-8. */
  readonly isValidUtf8: boolean;
  readonly terminator: 'lf' | 'crlf' | 'none';
  /**
   * `bytes` decoded as UTF-8, ending at the last whole character when the cut split one, so text
   * never ends in a replacement character the file does not have. Invalid sequences inside the kept
   * bytes decode to U+FFFD; check `isValidUtf8` first. Decoded on first access.
   */
  readonly text: string;
}

/** What `readLines` learned about the whole file in its single pass (§7.1). */
export interface LinesSummary {
  /** Every line, counted to the end of the file: `"a\nb"` and `"a\nb\n"` both have 2, `""` has 0. */
  readonly lineCount: number;
  /** Bytes read, i.e. the file size at the time of reading. */
  readonly byteLength: number;
  /** Lowercase hex SHA-256 of exactly the bytes read (the whole file). */
  readonly sha256: string;
}
