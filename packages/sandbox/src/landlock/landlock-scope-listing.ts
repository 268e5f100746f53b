import { asciiBytes, imm32 } from './assemble-listing.js';
import type { ListingLine } from './assemble-listing.js';

/** Landlock's scope flags (linux/landlock.h, ABI 6). */
export const LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET = 1;
export const LANDLOCK_SCOPE_SIGNAL = 2;

/** The first Landlock ABI with `scoped` (Linux 6.12). */
export const LANDLOCK_SCOPE_MINIMUM_ABI = 6;

/** Written to stderr when the kernel refuses the domain; the command does not run (fail closed). */
export const SCOPE_REFUSED_MESSAGE = 'openwork sandbox: Landlock refused to confine the command (abstract UNIX sockets, signals); it did not run\n';
/** Written to stderr when `execve` fails (a missing or non-executable program). */
export const EXEC_FAILED_MESSAGE = 'openwork sandbox: the command could not be started (execve failed)\n';

/**
 * The Landlock scope helper for x86-64 Linux, instruction by instruction (architecture §3.7: no
 * sandboxed command may reach an abstract UNIX socket of a host process or signal a process
 * outside its sandbox). bwrap runs it as `helper <program> <args…>` inside the sandbox; it
 *
 *  1. sets no_new_privs (Landlock requires it without CAP_SYS_ADMIN; bwrap has set it already),
 *  2. creates a ruleset that handles no file system or network access and scopes abstract UNIX
 *     sockets and signals: a process of the new domain can neither connect (or send) to an
 *     abstract socket created outside the domain nor signal a process outside it,
 *  3. enforces it on itself (inherited by everything the command starts), closes the ruleset,
 *  4. execs the program with the same environment.
 *
 * Any failure writes one line to stderr and exits 127 before the command ran. With no program
 * (`helper` alone) it only asks the kernel for its Landlock ABI and exits with it (0: none), so
 * the probe runs the very file the sandbox will run. No libc, no relocations, no writable data.
 *
 * Start state (x86-64 System V ELF entry): `[rsp]` is argc, `argv[i]` is at `rsp + 8 + 8i`,
 * `argv[argc]` is NULL, and the environment pointers start at `rsp + 16 + 8·argc`. Syscall numbers
 * are x86-64's: prctl 157, landlock_create_ruleset 444, landlock_restrict_self 446, close 3,
 * execve 59, write 1, exit_group 231. GNU `as` assembles the `assembly` column to the `bytes`
 * column exactly (`landlock-scope-program.test.ts`).
 */
export const landlockScopeListing: readonly ListingLine[] = [
  { label: 'start', bytes: '48 8b 1c 24', assembly: 'mov rbx, [rsp]', comment: 'rbx = argc' },
  { bytes: '48 83 fb 02', assembly: 'cmp rbx, 2' },
  { bytes: '0f 8c', relative: { target: 'probe', size: 4 }, assembly: 'jl probe', comment: 'no program: report the ABI' },

  { bytes: 'b8 9d 00 00 00', assembly: 'mov eax, 157', comment: 'prctl(' },
  { bytes: 'bf 26 00 00 00', assembly: 'mov edi, 38', comment: '  PR_SET_NO_NEW_PRIVS,' },
  { bytes: 'be 01 00 00 00', assembly: 'mov esi, 1', comment: '  1,' },
  { bytes: '31 d2', assembly: 'xor edx, edx', comment: '  0,' },
  { bytes: '45 31 d2', assembly: 'xor r10d, r10d', comment: '  0,' },
  { bytes: '45 31 c0', assembly: 'xor r8d, r8d', comment: '  0)' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '75', relative: { target: 'refused', size: 1 }, assembly: 'jne refused', comment: 'not 0: fail' },

  { bytes: 'b8 bc 01 00 00', assembly: 'mov eax, 444', comment: 'landlock_create_ruleset(' },
  { bytes: '48 8d 3d', relative: { target: 'rulesetAttributes', size: 4 }, assembly: 'lea rdi, [rip + rulesetAttributes]', comment: '  &attributes,' },
  { bytes: 'be 18 00 00 00', assembly: 'mov esi, 24', comment: '  sizeof attributes (3 × u64),' },
  { bytes: '31 d2', assembly: 'xor edx, edx', comment: '  0)' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '78', relative: { target: 'refused', size: 1 }, assembly: 'js refused', comment: 'negative errno: fail' },
  { bytes: '49 89 c4', assembly: 'mov r12, rax', comment: 'r12 = ruleset fd' },

  { bytes: 'b8 be 01 00 00', assembly: 'mov eax, 446', comment: 'landlock_restrict_self(' },
  { bytes: '4c 89 e7', assembly: 'mov rdi, r12', comment: '  ruleset fd,' },
  { bytes: '31 f6', assembly: 'xor esi, esi', comment: '  0)' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '75', relative: { target: 'refused', size: 1 }, assembly: 'jne refused', comment: 'not 0: fail' },

  { bytes: 'b8 03 00 00 00', assembly: 'mov eax, 3', comment: 'close(' },
  { bytes: '4c 89 e7', assembly: 'mov rdi, r12', comment: '  ruleset fd): the command must not inherit it' },
  { bytes: '0f 05', assembly: 'syscall' },

  { bytes: '48 8b 7c 24 10', assembly: 'mov rdi, [rsp + 16]', comment: 'execve(argv[1],' },
  { bytes: '48 8d 74 24 10', assembly: 'lea rsi, [rsp + 16]', comment: '  &argv[1],' },
  { bytes: '48 8d 54 dc 10', assembly: 'lea rdx, [rsp + rbx*8 + 16]', comment: '  environment)' },
  { bytes: 'b8 3b 00 00 00', assembly: 'mov eax, 59' },
  { bytes: '0f 05', assembly: 'syscall', comment: 'returns only on failure' },
  { bytes: '48 8d 35', relative: { target: 'execFailed', size: 4 }, assembly: 'lea rsi, [rip + execFailed]' },
  { bytes: `ba ${imm32(EXEC_FAILED_MESSAGE.length)}`, assembly: `mov edx, ${EXEC_FAILED_MESSAGE.length}` },
  { bytes: 'eb', relative: { target: 'report', size: 1 }, assembly: 'jmp report' },

  { label: 'refused', bytes: '48 8d 35', relative: { target: 'scopeRefused', size: 4 }, assembly: 'lea rsi, [rip + scopeRefused]' },
  { bytes: `ba ${imm32(SCOPE_REFUSED_MESSAGE.length)}`, assembly: `mov edx, ${SCOPE_REFUSED_MESSAGE.length}` },
  { label: 'report', bytes: 'b8 01 00 00 00', assembly: 'mov eax, 1', comment: 'write(' },
  { bytes: 'bf 02 00 00 00', assembly: 'mov edi, 2', comment: '  stderr, rsi, rdx)' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: 'b8 e7 00 00 00', assembly: 'mov eax, 231', comment: 'exit_group(' },
  { bytes: 'bf 7f 00 00 00', assembly: 'mov edi, 127', comment: '  127)' },
  { bytes: '0f 05', assembly: 'syscall' },

  { label: 'probe', bytes: 'b8 bc 01 00 00', assembly: 'mov eax, 444', comment: 'landlock_create_ruleset(' },
  { bytes: '31 ff', assembly: 'xor edi, edi', comment: '  NULL,' },
  { bytes: '31 f6', assembly: 'xor esi, esi', comment: '  0,' },
  { bytes: 'ba 01 00 00 00', assembly: 'mov edx, 1', comment: '  LANDLOCK_CREATE_RULESET_VERSION): the ABI' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '85 c0', assembly: 'test eax, eax' },
  { bytes: '79', relative: { target: 'exit', size: 1 }, assembly: 'jns exit' },
  { bytes: '31 c0', assembly: 'xor eax, eax', comment: 'an errno (no Landlock): 0' },
  { label: 'exit', bytes: '89 c7', assembly: 'mov edi, eax', comment: 'exit_group(ABI)' },
  { bytes: 'b8 e7 00 00 00', assembly: 'mov eax, 231' },
  { bytes: '0f 05', assembly: 'syscall' },

  {
    label: 'rulesetAttributes',
    bytes: `00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  ${imm32(LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL)} 00 00 00 00`,
    assembly: `.quad 0, 0, ${LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL}`,
    comment: 'handled_access_fs 0, handled_access_net 0, scoped ABSTRACT_UNIX_SOCKET | SIGNAL',
  },
  { label: 'scopeRefused', bytes: asciiBytes(SCOPE_REFUSED_MESSAGE), assembly: `.ascii ${JSON.stringify(SCOPE_REFUSED_MESSAGE)}` },
  { label: 'execFailed', bytes: asciiBytes(EXEC_FAILED_MESSAGE), assembly: `.ascii ${JSON.stringify(EXEC_FAILED_MESSAGE)}` },
];
