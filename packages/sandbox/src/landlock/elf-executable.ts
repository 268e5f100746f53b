/** Where the file is mapped: the classic x86-64 base of a non-PIE executable. */
const baseAddress = 0x40_0000n;
const elfHeaderSize = 64;
const programHeaderSize = 56;
const programHeaders = 2;
/** File offset (and offset from `baseAddress`) of the first byte of code: right after the headers. */
export const ELF_CODE_OFFSET = elfHeaderSize + programHeaderSize * programHeaders;

const PT_LOAD = 1;
const PT_GNU_STACK = 0x6474_e551;
const PF_X = 1;
const PF_W = 2;
const PF_R = 4;

function elfHeader(entry: bigint): Buffer {
  const header = Buffer.alloc(elfHeaderSize);
  header.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0); // "\x7fELF", 64-bit, little-endian, version 1, System V ABI
  header.writeUInt16LE(2, 16); // e_type ET_EXEC
  header.writeUInt16LE(0x3e, 18); // e_machine EM_X86_64
  header.writeUInt32LE(1, 20); // e_version
  header.writeBigUInt64LE(entry, 24); // e_entry
  header.writeBigUInt64LE(BigInt(elfHeaderSize), 32); // e_phoff: program headers right after this header
  header.writeBigUInt64LE(0n, 40); // e_shoff: no section headers
  header.writeUInt32LE(0, 48); // e_flags
  header.writeUInt16LE(elfHeaderSize, 52); // e_ehsize
  header.writeUInt16LE(programHeaderSize, 54); // e_phentsize
  header.writeUInt16LE(programHeaders, 56); // e_phnum
  header.writeUInt16LE(64, 58); // e_shentsize (no sections: unused)
  header.writeUInt16LE(0, 60); // e_shnum
  header.writeUInt16LE(0, 62); // e_shstrndx
  return header;
}

function programHeader(type: number, flags: number, size: bigint): Buffer {
  const header = Buffer.alloc(programHeaderSize);
  header.writeUInt32LE(type, 0); // p_type
  header.writeUInt32LE(flags, 4); // p_flags
  const loaded = type === PT_LOAD;
  header.writeBigUInt64LE(0n, 8); // p_offset: the whole file from its first byte
  header.writeBigUInt64LE(loaded ? baseAddress : 0n, 16); // p_vaddr
  header.writeBigUInt64LE(loaded ? baseAddress : 0n, 24); // p_paddr
  header.writeBigUInt64LE(loaded ? size : 0n, 32); // p_filesz
  header.writeBigUInt64LE(loaded ? size : 0n, 40); // p_memsz
  header.writeBigUInt64LE(loaded ? 0x1000n : 16n, 48); // p_align
  return header;
}

/**
 * A static x86-64 Linux executable holding `code` (position-independent, entered at its first
 * byte): one read+execute `PT_LOAD` of the whole file, nothing writable, and a `PT_GNU_STACK`
 * without execute, so the kernel maps a non-executable stack and sets no READ_IMPLIES_EXEC
 * personality (which the program it execs would inherit). No interpreter, sections or relocations.
 */
export function elfExecutable(code: Buffer): Buffer {
  const size = BigInt(ELF_CODE_OFFSET + code.length);
  return Buffer.concat([
    elfHeader(baseAddress + BigInt(ELF_CODE_OFFSET)),
    programHeader(PT_LOAD, PF_R | PF_X, size),
    programHeader(PT_GNU_STACK, PF_R | PF_W, size),
    code,
  ]);
}
