// grep's byte loops as WebAssembly SIMD (docs/decisions/0018-grep-search-workers-and-byte-kernel.md): finding a literal, finding line ends and
// counting them, 16 bytes at a time. `Buffer.indexOf` costs a native call per match plus a
// Boyer-Moore-Horspool scan; a search with many matches spent most of its time in those calls
// and in counting line ends four bytes at a time in JavaScript. The module is assembled here from
// the instructions below (no binary is checked in); files are read straight into its memory, so
// nothing is copied. Where WebAssembly SIMD is missing, or for bytes that are not in the kernel's
// memory, callers use their JavaScript loops: the answers are the same (`byte-kernel.test.ts`).

/** Bytes reserved at the start of the memory for the literals of the search in progress. */
export const NEEDLE_BYTES = 64 * 1024;
const PAGE_BYTES = 64 * 1024;

// Instruction encoding (WebAssembly core 2.0 with fixed-width SIMD).
const I32 = 0x7f;
const V128 = 0x7b;
const EMPTY = 0x40;
const op = {
  block: [0x02, EMPTY],
  loop: [0x03, EMPTY],
  if: [0x04, EMPTY],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  return: [0x0f],
  call: (index: number) => [0x10, index],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  i32: (value: number) => [0x41, ...signedLeb(value)],
  load8: [0x2d, 0x00, 0x00],
  eqz: [0x45],
  eq: [0x46],
  ne: [0x47],
  ltS: [0x48],
  gtS: [0x4a],
  leS: [0x4c],
  geS: [0x4e],
  clz: [0x67],
  ctz: [0x68],
  add: [0x6a],
  sub: [0x6b],
  and: [0x71],
  or: [0x72],
  shl: [0x74],
  ltU: [0x49],
  v128load: [0xfd, 0x00, 0x00, 0x00],
  v128zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  i8x16splat: [0xfd, 0x0f],
  i32x4lane: (lane: number) => [0xfd, 0x1b, lane],
  i8x16eq: [0xfd, 0x23],
  v128and: [0xfd, 0x4e],
  v128or: [0xfd, 0x50],
  i8x16bitmask: [0xfd, 0x64],
  i8x16sub: [0xfd, 0x71],
  i16x8pairsU: [0xfd, 0x7d],
  i32x4pairsU: [0xfd, 0x7f],
} as const;

function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  do {
    const byte = value & 0x7f;
    value >>>= 7;
    bytes.push(value === 0 ? byte : byte | 0x80);
  } while (value !== 0);
  return bytes;
}

const flat = (...parts: (readonly number[])[]): number[] => parts.flat();
const vector = (items: readonly (readonly number[])[]): number[] => [...unsignedLeb(items.length), ...items.flat()];
const section = (id: number, body: readonly number[]): number[] => [id, ...unsignedLeb(body.length), ...body];
const name = (text: string): number[] => vector([...Buffer.from(text, 'latin1')].map((byte) => [byte]));
/** `local = local + delta` */
const bump = (local: number, delta: number) => flat(op.get(local), op.i32(delta), op.add, op.set(local));
/** `local = splat(byte)` */
const splat = (local: number, byte: readonly number[]) => flat(byte, op.i8x16splat, op.set(local));
/** `mask` = the bitmask of the `\n` bytes (compared with `newlines`, a v128 local) among the 16 at `address`. */
const newlineBits = (address: readonly number[], newlines: number, mask: number) =>
  flat(address, op.v128load, op.get(newlines), op.i8x16eq, op.i8x16bitmask, op.set(mask));
/** Pushes `end - p < 16`. */
const lessThan16Left = (p: number, end: number) => flat(op.get(end), op.get(p), op.sub, op.i32(16), op.ltS);

interface KernelFunction {
  readonly name: string;
  readonly params: number;
  readonly locals: readonly number[];
  readonly body: readonly number[];
}

/** `same(a, b, k)`: whether the `k` bytes at `a` and at `b` are equal. */
const same: KernelFunction = {
  name: 'same',
  params: 3,
  locals: [I32],
  body: flat(
    op.loop,
    op.get(3), op.get(2), op.geS, op.if, op.i32(1), op.return, op.end,
    op.get(0), op.get(3), op.add, op.load8, op.get(1), op.get(3), op.add, op.load8, op.ne, op.if, op.i32(0), op.return, op.end,
    bump(3, 1), op.br(0),
    op.end,
    op.i32(0),
  ),
};

/** Pushes the ASCII lower case of the byte at the address on the stack (local `scratch` is overwritten). */
const lowerByteAt = (scratch: number) =>
  flat(op.load8, op.set(scratch), op.get(scratch), op.get(scratch), op.i32(65), op.sub, op.i32(26), op.ltU, op.i32(5), op.shl, op.or);

/** `sameCaseless(a, b, k)`: whether the `k` bytes at `a`, in ASCII lower case, equal those at `b` (lower case already). */
const sameCaseless: KernelFunction = {
  name: 'sameCaseless',
  params: 3,
  // 3 index, 4 scratch
  locals: [I32, I32],
  body: flat(
    op.loop,
    op.get(3), op.get(2), op.geS, op.if, op.i32(1), op.return, op.end,
    op.get(0), op.get(3), op.add, lowerByteAt(4), op.get(1), op.get(3), op.add, op.load8, op.ne, op.if, op.i32(0), op.return, op.end,
    bump(3, 1), op.br(0),
    op.end,
    op.i32(0),
  ),
};

/**
 * `find(p, end, needle, k)`: the first index ≥ `p` where the `k` (≥ 1) bytes at `needle` occur
 * whole before `end`, or -1. With `caseless`, bytes compare in ASCII lower case (the needle is
 * in lower case): the 16-position filter then compares bytes with bit 5 set, a superset.
 */
function finder(name: string, compare: number, caseless: boolean): KernelFunction {
  const load = caseless ? flat(op.v128load, op.get(9), op.v128or) : op.v128load;
  return {
    name,
    params: 4,
    // 4 first, 5 last (v128); 6 mask, 7 candidate, 8 k - 1; 9 bit 5 in every lane (v128)
    locals: [V128, V128, I32, I32, I32, V128],
    body: flat(
      op.get(3), op.i32(1), op.sub, op.set(8),
      splat(9, op.i32(caseless ? 0x20 : 0)),
      splat(4, flat(op.get(2), op.load8, op.i32(caseless ? 0x20 : 0), op.or)),
      splat(5, flat(op.get(2), op.get(8), op.add, op.load8, op.i32(caseless ? 0x20 : 0), op.or)),
      // 16 candidate positions at a time: the first and the last byte of the needle both in place.
      op.block, op.loop,
      op.get(0), op.get(8), op.add, op.i32(16), op.add, op.get(1), op.gtS, op.brIf(1),
      op.get(0), load, op.get(4), op.i8x16eq,
      op.get(0), op.get(8), op.add, load, op.get(5), op.i8x16eq,
      op.v128and, op.i8x16bitmask, op.set(6),
      op.block, op.loop,
      op.get(6), op.eqz, op.brIf(1),
      op.get(0), op.get(6), op.ctz, op.add, op.set(7),
      op.get(7), op.get(2), op.get(3), op.call(compare), op.if, op.get(7), op.return, op.end,
      op.get(6), op.get(6), op.i32(1), op.sub, op.and, op.set(6),
      op.br(0),
      op.end, op.end,
      bump(0, 16), op.br(0),
      op.end, op.end,
      // The last positions one by one.
      op.loop,
      op.get(0), op.get(3), op.add, op.get(1), op.gtS, op.if, op.i32(-1), op.return, op.end,
      op.get(0), op.get(2), op.get(3), op.call(compare), op.if, op.get(0), op.return, op.end,
      bump(0, 1), op.br(0),
      op.end,
      op.i32(-1),
    ),
  };
}

const find = finder('find', 0, false);
const findCaseless = finder('findCaseless', 1, true);

/** `countLines(p, end)`: the number of `\n` bytes in `[p, end)`. */
const countLines: KernelFunction = {
  name: 'countLines',
  params: 2,
  // 2 total, 3 blocks left before the byte counters could overflow, 4 counters, 5 `\n` x 16 (v128)
  locals: [I32, I32, V128, V128],
  body: flat(
    splat(5, op.i32(10)),
    op.loop,
    op.v128zero, op.set(4), op.i32(255), op.set(3),
    op.block, op.loop,
    lessThan16Left(0, 1), op.brIf(1),
    op.get(4), op.get(0), op.v128load, op.get(5), op.i8x16eq, op.i8x16sub, op.set(4),
    bump(0, 16), bump(3, -1),
    op.get(3), op.brIf(0),
    op.end, op.end,
    op.get(4), op.i16x8pairsU, op.i32x4pairsU, op.set(4),
    op.get(2), op.get(4), op.i32x4lane(0), op.add, op.get(4), op.i32x4lane(1), op.add,
    op.get(4), op.i32x4lane(2), op.add, op.get(4), op.i32x4lane(3), op.add, op.set(2),
    op.get(1), op.get(0), op.sub, op.i32(16), op.geS, op.brIf(0),
    op.end,
    op.block, op.loop,
    op.get(0), op.get(1), op.geS, op.brIf(1),
    op.get(2), op.get(0), op.load8, op.i32(10), op.eq, op.add, op.set(2),
    bump(0, 1), op.br(0),
    op.end, op.end,
    op.get(2),
  ),
};

/** `lineEnd(p, end)`: the index of the first `\n` in `[p, end)`, or `end`. */
const lineEnd: KernelFunction = {
  name: 'lineEnd',
  params: 2,
  // 2 mask, 3 `\n` x 16 (v128)
  locals: [I32, V128],
  body: flat(
    splat(3, op.i32(10)),
    op.block, op.loop,
    lessThan16Left(0, 1), op.brIf(1),
    newlineBits(op.get(0), 3, 2),
    op.get(2), op.if, op.get(0), op.get(2), op.ctz, op.add, op.return, op.end,
    bump(0, 16), op.br(0),
    op.end, op.end,
    op.loop,
    op.get(0), op.get(1), op.geS, op.if, op.get(1), op.return, op.end,
    op.get(0), op.load8, op.i32(10), op.eq, op.if, op.get(0), op.return, op.end,
    bump(0, 1), op.br(0),
    op.end,
    op.get(1),
  ),
};

/** `lineStart(base, p)`: the index after the last `\n` in `[base, p)`, or `base`. */
const lineStart: KernelFunction = {
  name: 'lineStart',
  params: 2,
  // 2 mask, 3 `\n` x 16 (v128)
  locals: [I32, V128],
  body: flat(
    splat(3, op.i32(10)),
    op.block, op.loop,
    op.get(1), op.get(0), op.sub, op.i32(16), op.ltS, op.brIf(1),
    newlineBits(flat(op.get(1), op.i32(16), op.sub), 3, 2),
    // The highest set bit is the last `\n`: it lies at p - 16 + (31 - clz), the line starts after it.
    op.get(2), op.if, op.get(1), op.i32(16), op.add, op.get(2), op.clz, op.sub, op.return, op.end,
    bump(1, -16), op.br(0),
    op.end, op.end,
    op.loop,
    op.get(1), op.get(0), op.leS, op.if, op.get(0), op.return, op.end,
    op.get(1), op.i32(1), op.sub, op.load8, op.i32(10), op.eq, op.if, op.get(1), op.return, op.end,
    bump(1, -1), op.br(0),
    op.end,
    op.get(0),
  ),
};

/** In index order: `same` is function 0 and `sameCaseless` 1 (the finders call them). */
const FUNCTIONS = [same, sameCaseless, find, findCaseless, countLines, lineEnd, lineStart] as const;

function assemble(): Uint8Array {
  const types = vector(FUNCTIONS.map((fn) => [0x60, ...vector(new Array(fn.params).fill([I32])), ...vector([[I32]])]));
  const imports = vector([[...name('env'), ...name('memory'), 0x02, 0x00, ...unsignedLeb(1)]]);
  const functions = vector(FUNCTIONS.map((_, index) => [index]));
  const exports = vector(FUNCTIONS.map((fn, index) => [...name(fn.name), 0x00, index]));
  const code = vector(
    FUNCTIONS.map((fn) => {
      const body = [...vector(fn.locals.map((type) => [1, type])), ...fn.body, ...op.end];
      return [...unsignedLeb(body.length), ...body];
    }),
  );
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, types),
    ...section(2, imports),
    ...section(3, functions),
    ...section(7, exports),
    ...section(10, code),
  ]);
}

/** The few WebAssembly APIs used here (the project's `lib` has no DOM types, where they are declared). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: object };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

interface KernelExports {
  find(p: number, end: number, needle: number, k: number): number;
  findCaseless(p: number, end: number, needle: number, k: number): number;
  countLines(p: number, end: number): number;
  lineEnd(p: number, end: number): number;
  lineStart(base: number, p: number): number;
}

/**
 * The kernel of one thread: its memory holds the literals of the search in progress (the first
 * 64 KiB) and the bytes of the file being searched (after them). Buffers over the memory must be
 * taken again after `reserve` grew it (a grown memory detaches the old `ArrayBuffer`).
 */
export class ByteKernel {
  readonly #memory: WasmMemory;
  readonly #exports: KernelExports;
  #bytes: Buffer;
  /** Where the literals now in the needle area came from (so a region does not copy them again). */
  #needleOwner: object | undefined;

  private constructor(memory: WasmMemory, exports: KernelExports) {
    this.#memory = memory;
    this.#exports = exports;
    this.#bytes = Buffer.from(memory.buffer);
  }

  /** This thread's kernel, or `undefined` where WebAssembly SIMD is not available. */
  static get(): ByteKernel | undefined {
    if (kernel === null) kernel = ByteKernel.#create();
    return kernel;
  }

  static #create(): ByteKernel | undefined {
    try {
      if (wasm === undefined || process.env['OPENWORK_GREP_KERNEL'] === 'off') return undefined;
      const memory = new wasm.Memory({ initial: 1 + 16 });
      const module = new wasm.Module(assemble());
      const instance = new wasm.Instance(module, { env: { memory } });
      return new ByteKernel(memory, instance.exports as unknown as KernelExports);
    } catch {
      return undefined;
    }
  }

  /** A buffer of `length` bytes in the kernel's memory, after the needle area (grows the memory). */
  data(length: number): Buffer {
    const needed = NEEDLE_BYTES + length;
    if (needed > this.#memory.buffer.byteLength) {
      this.#memory.grow(Math.ceil((needed - this.#memory.buffer.byteLength) / PAGE_BYTES));
      this.#bytes = Buffer.from(this.#memory.buffer);
    }
    return this.#bytes.subarray(NEEDLE_BYTES, needed);
  }

  /** Whether `bytes` lie in the kernel's memory (so the kernel can search them). */
  holds(bytes: Uint8Array): boolean {
    return bytes.buffer === this.#memory.buffer && bytes.byteOffset >= NEEDLE_BYTES;
  }

  /**
   * Puts `literals` in the needle area for the next searches (not copied again while the same
   * `owner`, an object that never changes its literals, asks again); their addresses, or `undefined` when they do not fit (search in JavaScript then).
   */
  needles(owner: object, literals: readonly Uint8Array[]): readonly number[] | undefined {
    let total = 0;
    for (const literal of literals) total += literal.length;
    if (total > NEEDLE_BYTES || literals.some((literal) => literal.length === 0)) return undefined;
    const addresses: number[] = [];
    let at = 0;
    for (const literal of literals) {
      if (this.#needleOwner !== owner) this.#bytes.set(literal, at);
      addresses.push(at);
      at += literal.length;
    }
    this.#needleOwner = owner;
    return addresses;
  }

  /** First index of the literal at `needle` (length `k`) in `bytes[from, bytes.length)`, or -1; relative to `bytes`. */
  find(bytes: Uint8Array, from: number, needle: number, k: number): number {
    const base = bytes.byteOffset;
    const index = this.#exports.find(base + from, base + bytes.length, needle, k);
    return index < 0 ? -1 : index - base;
  }

  /** `find` comparing in ASCII lower case (the literal at `needle` is in lower case). */
  findCaseless(bytes: Uint8Array, from: number, needle: number, k: number): number {
    const base = bytes.byteOffset;
    const index = this.#exports.findCaseless(base + from, base + bytes.length, needle, k);
    return index < 0 ? -1 : index - base;
  }

  /** The `\n` bytes in `bytes[from, to)`. */
  countLines(bytes: Uint8Array, from: number, to: number): number {
    const base = bytes.byteOffset;
    return this.#exports.countLines(base + from, base + to);
  }

  /** Index of the first `\n` at or after `from`, or `bytes.length`. */
  lineEnd(bytes: Uint8Array, from: number): number {
    const base = bytes.byteOffset;
    return this.#exports.lineEnd(base + from, base + bytes.length) - base;
  }

  /** Index after the last `\n` before `index`, or 0. */
  lineStart(bytes: Uint8Array, index: number): number {
    const base = bytes.byteOffset;
    return this.#exports.lineStart(base, base + index) - base;
  }
}

let kernel: ByteKernel | undefined | null = null;
