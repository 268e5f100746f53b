/**
 * One line of a hand-assembled program: its machine code beside the assembly it encodes, so a
 * reviewer can check each instruction on its own (`landlock-scope-listing.ts`).
 */
export interface ListingLine {
  /** A name other lines refer to (a jump target, a piece of data). */
  readonly label?: string;
  /** The bytes in hex, space-separated; a `relative` field follows them. */
  readonly bytes: string;
  /** What the bytes encode, in Intel syntax (GNU `as` with `.intel_syntax noprefix`). */
  readonly assembly: string;
  /** Why the line is there. */
  readonly comment?: string;
  /**
   * A displacement to `target`, appended after `bytes` (1 or 4 bytes, little-endian) and counted
   * from the end of this line: how x86-64 encodes `jcc rel8/rel32` and `lea reg, [rip + disp32]`.
   */
  readonly relative?: { readonly target: string; readonly size: 1 | 4 };
}

function parseHex(line: ListingLine): Buffer {
  const text = line.bytes.trim();
  if (text === '') return Buffer.alloc(0);
  const parts = text.split(/\s+/);
  for (const part of parts) {
    if (!/^[0-9a-f]{2}$/.test(part)) throw new Error(`listing line "${line.assembly}": ${JSON.stringify(part)} is not a byte in hex`);
  }
  return Buffer.from(parts.join(''), 'hex');
}

function lengthOf(line: ListingLine): number {
  return parseHex(line).length + (line.relative?.size ?? 0);
}

/** The offset of each label from the start of the listing. */
function labelOffsets(listing: readonly ListingLine[]): Map<string, number> {
  const offsets = new Map<string, number>();
  let offset = 0;
  for (const line of listing) {
    if (line.label !== undefined) {
      if (offsets.has(line.label)) throw new Error(`listing label ${line.label} appears twice`);
      offsets.set(line.label, offset);
    }
    offset += lengthOf(line);
  }
  return offsets;
}

function displacement(line: ListingLine, end: number, offsets: ReadonlyMap<string, number>): Buffer {
  const relative = line.relative as NonNullable<ListingLine['relative']>;
  const target = offsets.get(relative.target);
  if (target === undefined) throw new Error(`listing line "${line.assembly}" refers to the unknown label ${relative.target}`);
  const value = target - end;
  const field = Buffer.alloc(relative.size);
  if (relative.size === 1) {
    if (value < -128 || value > 127) throw new Error(`listing line "${line.assembly}": ${relative.target} is ${value} bytes away, beyond a rel8`);
    field.writeInt8(value);
  } else {
    field.writeInt32LE(value);
  }
  return field;
}

/**
 * The machine code of `listing`: each line's bytes, with its displacement (if any) resolved
 * against the labels. Position-independent: displacements are relative, so the code may be loaded
 * anywhere.
 */
export function assembleListing(listing: readonly ListingLine[]): Buffer {
  const offsets = labelOffsets(listing);
  const parts: Buffer[] = [];
  let offset = 0;
  for (const line of listing) {
    const bytes = parseHex(line);
    offset += lengthOf(line);
    parts.push(bytes);
    if (line.relative !== undefined) parts.push(displacement(line, offset, offsets));
  }
  return Buffer.concat(parts);
}

/** `value` as the hex bytes of a little-endian 32-bit immediate (`mov edx, imm32`). */
export function imm32(value: number): string {
  const field = Buffer.alloc(4);
  field.writeUInt32LE(value);
  return [...field].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
}

/** The bytes of an ASCII text, in hex (`.ascii` data). */
export function asciiBytes(text: string): string {
  if (!/^[\x20-\x7e\n]*$/.test(text)) throw new Error('listing text must be printable ASCII');
  return [...Buffer.from(text, 'ascii')].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
}
