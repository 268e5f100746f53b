import { asciiBytes, imm32 } from '../landlock/assemble-listing.js';
import type { ListingLine } from '../landlock/assemble-listing.js';

/**
 * The start of each failure line: the stage that failed. The helper completes it as
 * `<start>[ at <path>][, errno <n>]); the command did not run\n` — one line on stderr, exit
 * status 127, and the command never ran.
 */
export const STAGE_UNSHARE_FAILED_MESSAGE = 'openwork sandbox: could not make a mount namespace for the staged writable roots (unshare failed';
export const STAGE_MOUNT_FAILED_MESSAGE = 'openwork sandbox: could not mount the staged writable roots (mount failed';
export const STAGE_CAPABILITIES_FAILED_MESSAGE = 'openwork sandbox: could not drop every capability before the command (prctl or capset failed';
export const STAGE_CHDIR_FAILED_MESSAGE = 'openwork sandbox: could not enter the working folder through the staged writable roots (chdir failed';
export const STAGE_EXEC_FAILED_MESSAGE = 'openwork sandbox: the command could not be started (execve failed';
export const STAGE_ARGUMENTS_MALFORMED_MESSAGE = 'openwork sandbox: the staged-writes helper got malformed arguments (an unknown operation or a missing operand';
/** Before the path a failure names: the mount's target, or the program execve could not start. */
const AT_TEXT = ' at ';
/** Before the errno of the failed system call, in decimal. */
const ERRNO_TEXT = ', errno ';
const DID_NOT_RUN_TEXT = '); the command did not run\n';

/** The line the helper writes when `stage` failed (at `path`, with `errno`), as the helper spells it. */
export function stageFailureLine(stage: string, path?: string, errno?: number): string {
  return `${stage}${path === undefined ? '' : `${AT_TEXT}${path}`}${errno === undefined ? '' : `${ERRNO_TEXT}${errno}`}${DID_NOT_RUN_TEXT}`;
}

/** The mount options of a `T` mask: an empty, read-only folder nobody may enter (mode 000). */
export const READONLY_EMPTY_OPTIONS = 'size=4k,mode=000';

/**
 * The staged-writes mount helper for x86-64 Linux, instruction by instruction. Each writable root
 * of a sandboxed command is an overlay inside the sandbox: lower = the real root (read-only),
 * upper = a staging folder on the host, which the host reads after the command and applies only
 * what the rules allow. bubblewrap 0.8 cannot mount an overlay, so bwrap runs this helper as
 * `helper <ops> <operands…> <program> <args…>` (with CAP_SYS_ADMIN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_SETPCAP only); it
 *
 *  1. unshares a mount namespace of its own (CLONE_NEWNS): as an ordinary user bwrap puts the
 *     command in a nested user namespace that does not own bwrap's mount namespace, so mount()
 *     fails with EPERM without it; the mounts inherited from bwrap become locked in the new
 *     namespace (the command cannot unmount them to reach what they hide),
 *  2. does one mount per letter of `<ops>`, in order, each taking its operands from argv:
 *       `O target options` overlay(target, options) — `userxattr,lowerdir=…,upperdir=…,workdir=…`;
 *       `T target` an empty read-only tmpfs (`size=4k,mode=000`; MS_RDONLY|MS_NOSUID|MS_NODEV);
 *       `N target` a bind of /dev/null;  `B source target` a bind of `source`.
 *       `W target` a whiteout (a character device 0/0) at `target`, in a layer of a read-only
 *       overlay: the name stays hidden whatever the lower layer gets there later.
 *     A bind (`N`, `B`: a mask over a host socket or credential) whose target went away since the
 *     host listed it (ENOENT) is skipped — a daemon that ended between the listing and this mount
 *     made every such call fail before its command ran. Any other letter, or a missing operand, fails;
 *  3. sets no_new_privs, drops every capability from the bounding set (0..63; EINVAL past the
 *     kernel's last one is not an error), clears the effective, permitted and inheritable sets
 *     (capset v3; the ambient set goes with them), and checks that CAP_SYS_ADMIN has left the
 *     bounding set — the command cannot mount, unmount or remount anything, and an execve of a
 *     set-uid or file-capability program gains nothing;
 *  4. execs the program with the same environment.
 *
 * Two queries make no mount: `helper ? <folder>…` answers one `y` (opaque) or `n` per upper-layer
 * folder (`n` only for ENODATA, EOPNOTSUPP, ENOENT or ENOTDIR; any other answer of lgetxattr — EACCES,
 * EIO, a value longer than one byte — exits 1: fails closed);
 * `helper !` takes `flock(3, LOCK_EX | LOCK_NB)` on the lock file the host passed as descriptor 3
 * and exits 0 when it got it (the lock stays with the host's open file), 1 when not.
 *
 * Any failure writes one line to stderr — which stage, the path it was at (a mount's target, the
 * program) and the errno (`stageFailureLine`) — and exits 127 before the command ran. With no
 * arguments at all it exits 0: the probe that it runs. No libc, no relocations, no writable data.
 *
 * Start state (x86-64 System V ELF entry): `[rsp]` is argc, `argv[i]` is at `rsp + 8 + 8i`,
 * `argv[argc]` is NULL, and the environment pointers follow it. Registers: rbx argc, r12 the next
 * operand's slot in argv, r13 the next letter of `<ops>`, r14 `&argv[argc]`, r15 the path a
 * failure names (0: none), rbp the errno of a failure. Syscall numbers are x86-64's: unshare 272,
 * mount 165, mknod 133, flock 73, lgetxattr 192, prctl 157, capset 126, execve 59, write 1, exit_group 231. GNU `as` assembles the
 * `assembly` column to the `bytes` column exactly (`stage-mount-program.test.ts`).
 */
export const stageMountListing: readonly ListingLine[] = [
  { label: 'start', bytes: '48 8b 1c 24', assembly: 'mov rbx, [rsp]', comment: 'rbx = argc' },
  { bytes: '48 83 fb 02', assembly: 'cmp rbx, 2' },
  { bytes: '0f 8c', relative: { target: 'probe', size: 4 }, assembly: 'jl probe', comment: 'no operations: the probe' },
  { bytes: '4c 8d 74 dc 08', assembly: 'lea r14, [rsp + rbx*8 + 8]', comment: 'r14 = &argv[argc] (NULL); the environment follows it' },
  { bytes: '4c 8b 6c 24 10', assembly: 'mov r13, [rsp + 16]', comment: 'r13 = argv[1]: the operations, one letter each' },
  { bytes: '4c 8d 64 24 18', assembly: 'lea r12, [rsp + 24]', comment: 'r12 = &argv[2]: the next operand' },
  { bytes: '66 41 83 7d 00 3f', assembly: 'cmp word ptr [r13], 0x3f', comment: 'argv[1] is "?":' },
  { bytes: '0f 84', relative: { target: 'opaqueQuery', size: 4 }, assembly: 'je opaqueQuery', comment: '  the opaque-folder query, no mounts' },
  { bytes: '66 41 83 7d 00 21', assembly: 'cmp word ptr [r13], 0x21', comment: 'argv[1] is "!":' },
  { bytes: '0f 84', relative: { target: 'lockQuery', size: 4 }, assembly: 'je lockQuery', comment: '  the lock of a staging base, no mounts' },
  { bytes: '45 31 ff', assembly: 'xor r15d, r15d', comment: 'r15 = the path a failure names (none yet)' },
  { bytes: 'b8 10 01 00 00', assembly: 'mov eax, 272', comment: 'unshare(' },
  { bytes: 'bf 00 00 02 00', assembly: 'mov edi, 0x20000', comment: '  CLONE_NEWNS): a mount namespace our user namespace owns' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '0f 85', relative: { target: 'unshareFailed', size: 4 }, assembly: 'jne unshareFailed' },

  { label: 'nextOp', bytes: '41 0f b6 45 00', assembly: 'movzx eax, byte ptr [r13]', comment: 'eax = the next operation letter' },
  { bytes: '85 c0', assembly: 'test eax, eax' },
  { bytes: '0f 84', relative: { target: 'mounted', size: 4 }, assembly: 'je mounted', comment: 'end of the string: all mounted' },
  { bytes: '49 ff c5', assembly: 'inc r13' },
  { bytes: '49 8b 34 24', assembly: 'mov rsi, [r12]', comment: 'rsi = its first operand (NULL past the last argument)' },
  { bytes: '48 85 f6', assembly: 'test rsi, rsi' },
  { bytes: '0f 84', relative: { target: 'malformed', size: 4 }, assembly: 'je malformed', comment: 'missing operand: fail' },
  { bytes: '83 f8 4f', assembly: 'cmp eax, 0x4f', comment: "'O'" },
  { bytes: '74', relative: { target: 'overlay', size: 1 }, assembly: 'je overlay' },
  { bytes: '83 f8 54', assembly: 'cmp eax, 0x54', comment: "'T'" },
  { bytes: '74', relative: { target: 'tmpfs', size: 1 }, assembly: 'je tmpfs' },
  { bytes: '83 f8 4e', assembly: 'cmp eax, 0x4e', comment: "'N'" },
  { bytes: '74', relative: { target: 'nullDevice', size: 1 }, assembly: 'je nullDevice' },
  { bytes: '83 f8 42', assembly: 'cmp eax, 0x42', comment: "'B'" },
  { bytes: '74', relative: { target: 'bind', size: 1 }, assembly: 'je bind' },
  { bytes: '83 f8 43', assembly: 'cmp eax, 0x43', comment: "'C'" },
  { bytes: '0f 84', relative: { target: 'chdirOp', size: 4 }, assembly: 'je chdirOp' },
  { bytes: '83 f8 57', assembly: 'cmp eax, 0x57', comment: "'W'" },
  { bytes: '0f 84', relative: { target: 'whiteoutOp', size: 4 }, assembly: 'je whiteoutOp' },
  { bytes: 'e9', relative: { target: 'malformed', size: 4 }, assembly: 'jmp malformed', comment: 'an unknown letter: fail' },

  { label: 'overlay', bytes: '4d 8b 44 24 08', assembly: 'mov r8, [r12 + 8]', comment: 'mount("overlay", target, "overlay", 0, options)' },
  { bytes: '4d 85 c0', assembly: 'test r8, r8' },
  { bytes: '0f 84', relative: { target: 'malformed', size: 4 }, assembly: 'je malformed', comment: 'missing options: fail' },
  { bytes: '48 8d 3d', relative: { target: 'overlayName', size: 4 }, assembly: 'lea rdi, [rip + overlayName]', comment: '  source "overlay",' },
  { bytes: '48 89 fa', assembly: 'mov rdx, rdi', comment: '  type "overlay",' },
  { bytes: '45 31 d2', assembly: 'xor r10d, r10d', comment: '  flags 0' },
  { bytes: '49 83 c4 10', assembly: 'add r12, 16', comment: 'two operands used' },
  { bytes: 'eb', relative: { target: 'mountIt', size: 1 }, assembly: 'jmp mountIt' },

  { label: 'tmpfs', bytes: '48 8d 3d', relative: { target: 'tmpfsName', size: 4 }, assembly: 'lea rdi, [rip + tmpfsName]', comment: 'mount("tmpfs", target,' },
  { bytes: '48 89 fa', assembly: 'mov rdx, rdi', comment: '  "tmpfs",' },
  { bytes: '41 ba 07 00 00 00', assembly: 'mov r10d, 7', comment: '  MS_RDONLY | MS_NOSUID | MS_NODEV,' },
  { bytes: '4c 8d 05', relative: { target: 'tmpfsOptions', size: 4 }, assembly: 'lea r8, [rip + tmpfsOptions]', comment: '  "size=4k,mode=000"): an empty folder nobody can enter' },
  { bytes: '49 83 c4 08', assembly: 'add r12, 8', comment: 'one operand used' },
  { bytes: 'eb', relative: { target: 'mountIt', size: 1 }, assembly: 'jmp mountIt' },

  { label: 'nullDevice', bytes: '48 8d 3d', relative: { target: 'devNull', size: 4 }, assembly: 'lea rdi, [rip + devNull]', comment: 'mount("/dev/null", target, NULL, MS_BIND, NULL)' },
  { bytes: '49 83 c4 08', assembly: 'add r12, 8', comment: 'one operand used' },
  { bytes: 'eb', relative: { target: 'bindIt', size: 1 }, assembly: 'jmp bindIt' },

  { label: 'bind', bytes: '48 89 f7', assembly: 'mov rdi, rsi', comment: 'mount(source, target, NULL, MS_BIND, NULL)' },
  { bytes: '49 8b 74 24 08', assembly: 'mov rsi, [r12 + 8]', comment: '  rsi = target' },
  { bytes: '48 85 f6', assembly: 'test rsi, rsi' },
  { bytes: '0f 84', relative: { target: 'malformed', size: 4 }, assembly: 'je malformed', comment: 'missing target: fail' },
  { bytes: '49 83 c4 10', assembly: 'add r12, 16', comment: 'two operands used' },

  { label: 'bindIt', bytes: '31 d2', assembly: 'xor edx, edx', comment: '  type NULL,' },
  { bytes: '41 ba 00 50 00 00', assembly: 'mov r10d, 0x5000', comment: '  MS_BIND | MS_REC (a mask prepared with mounts inside it comes whole),' },
  { bytes: '45 31 c0', assembly: 'xor r8d, r8d', comment: '  data NULL' },

  { label: 'mountIt', bytes: '49 89 f7', assembly: 'mov r15, rsi', comment: 'a failure names the target' },
  { bytes: 'b8 a5 00 00 00', assembly: 'mov eax, 165', comment: 'mount(rdi, rsi, rdx, r10, r8)' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '74', relative: { target: 'mountedOne', size: 1 }, assembly: 'je mountedOne' },
  { bytes: '48 83 f8 fe', assembly: 'cmp rax, -2', comment: 'ENOENT …' },
  { bytes: '0f 85', relative: { target: 'mountFailed', size: 4 }, assembly: 'jne mountFailed' },
  { bytes: '41 81 fa 00 50 00 00', assembly: 'cmp r10d, 0x5000', comment: '… of a bind (a mask over a host socket or credential): its target went away since the host listed it, nothing to mask' },
  { bytes: '0f 85', relative: { target: 'mountFailed', size: 4 }, assembly: 'jne mountFailed', comment: 'an overlay or a tmpfs without its target: fail' },
  { label: 'mountedOne', bytes: 'e9', relative: { target: 'nextOp', size: 4 }, assembly: 'jmp nextOp' },

  { label: 'mounted', bytes: '45 31 ff', assembly: 'xor r15d, r15d', comment: 'no path in a failure from here to execve' },
  { bytes: 'b8 9d 00 00 00', assembly: 'mov eax, 157', comment: 'prctl(' },
  { bytes: 'bf 26 00 00 00', assembly: 'mov edi, 38', comment: '  PR_SET_NO_NEW_PRIVS,' },
  { bytes: 'be 01 00 00 00', assembly: 'mov esi, 1', comment: '  1,' },
  { bytes: '31 d2', assembly: 'xor edx, edx', comment: '  0,' },
  { bytes: '45 31 d2', assembly: 'xor r10d, r10d', comment: '  0,' },
  { bytes: '45 31 c0', assembly: 'xor r8d, r8d', comment: '  0)' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '0f 85', relative: { target: 'capsFailed', size: 4 }, assembly: 'jne capsFailed' },
  { bytes: '31 ed', assembly: 'xor ebp, ebp', comment: 'ebp = capability 0' },

  { label: 'dropBound', bytes: 'b8 9d 00 00 00', assembly: 'mov eax, 157', comment: 'prctl(' },
  { bytes: 'bf 18 00 00 00', assembly: 'mov edi, 24', comment: '  PR_CAPBSET_DROP,' },
  { bytes: '89 ee', assembly: 'mov esi, ebp', comment: '  ebp, 0, 0, 0): out of the bounding set' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '74', relative: { target: 'dropNext', size: 1 }, assembly: 'je dropNext' },
  { bytes: '48 83 f8 ea', assembly: 'cmp rax, -22', comment: "EINVAL: past the kernel's last capability" },
  { bytes: '75', relative: { target: 'capsFailed', size: 1 }, assembly: 'jne capsFailed', comment: 'anything else: fail' },

  { label: 'dropNext', bytes: 'ff c5', assembly: 'inc ebp' },
  { bytes: '83 fd 40', assembly: 'cmp ebp, 64' },
  { bytes: '72', relative: { target: 'dropBound', size: 1 }, assembly: 'jb dropBound', comment: 'capabilities 0..63' },
  { bytes: 'b8 7e 00 00 00', assembly: 'mov eax, 126', comment: 'capset(' },
  { bytes: '48 8d 3d', relative: { target: 'capHeader', size: 4 }, assembly: 'lea rdi, [rip + capHeader]', comment: '  {v3, this process},' },
  { bytes: '48 8d 35', relative: { target: 'capData', size: 4 }, assembly: 'lea rsi, [rip + capData]', comment: '  effective, permitted, inheritable all 0): ambient is cleared with them' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '75', relative: { target: 'capsFailed', size: 1 }, assembly: 'jne capsFailed' },
  { bytes: 'b8 9d 00 00 00', assembly: 'mov eax, 157', comment: 'prctl(' },
  { bytes: 'bf 17 00 00 00', assembly: 'mov edi, 23', comment: '  PR_CAPBSET_READ,' },
  { bytes: 'be 15 00 00 00', assembly: 'mov esi, 21', comment: '  CAP_SYS_ADMIN): 0 when it is gone' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '75', relative: { target: 'capsFailed', size: 1 }, assembly: 'jne capsFailed', comment: '1 (still there) or an errno: fail' },
  { bytes: '49 8b 3c 24', assembly: 'mov rdi, [r12]', comment: 'execve(the program,' },
  { bytes: '48 85 ff', assembly: 'test rdi, rdi' },
  { bytes: '74', relative: { target: 'malformed', size: 1 }, assembly: 'je malformed', comment: 'no program: fail' },
  { bytes: '49 89 ff', assembly: 'mov r15, rdi', comment: 'a failure names the program' },
  { bytes: '4c 89 e6', assembly: 'mov rsi, r12', comment: '  &argv[k],' },
  { bytes: '49 8d 56 08', assembly: 'lea rdx, [r14 + 8]', comment: '  the environment)' },
  { bytes: 'b8 3b 00 00 00', assembly: 'mov eax, 59' },
  { bytes: '0f 05', assembly: 'syscall', comment: 'returns only on failure' },
  { bytes: '48 8d 35', relative: { target: 'execFailed', size: 4 }, assembly: 'lea rsi, [rip + execFailed]' },
  { bytes: `ba ${imm32(STAGE_EXEC_FAILED_MESSAGE.length)}`, assembly: `mov edx, ${STAGE_EXEC_FAILED_MESSAGE.length}` },
  { bytes: 'eb', relative: { target: 'fail', size: 1 }, assembly: 'jmp fail' },

  { label: 'unshareFailed', bytes: '48 8d 35', relative: { target: 'unshareFailedText', size: 4 }, assembly: 'lea rsi, [rip + unshareFailedText]' },
  { bytes: `ba ${imm32(STAGE_UNSHARE_FAILED_MESSAGE.length)}`, assembly: `mov edx, ${STAGE_UNSHARE_FAILED_MESSAGE.length}` },
  { bytes: 'eb', relative: { target: 'fail', size: 1 }, assembly: 'jmp fail' },

  { label: 'mountFailed', bytes: '48 8d 35', relative: { target: 'mountFailedText', size: 4 }, assembly: 'lea rsi, [rip + mountFailedText]' },
  { bytes: `ba ${imm32(STAGE_MOUNT_FAILED_MESSAGE.length)}`, assembly: `mov edx, ${STAGE_MOUNT_FAILED_MESSAGE.length}` },
  { bytes: 'eb', relative: { target: 'fail', size: 1 }, assembly: 'jmp fail' },

  { label: 'capsFailed', bytes: '48 8d 35', relative: { target: 'capsFailedText', size: 4 }, assembly: 'lea rsi, [rip + capsFailedText]' },
  { bytes: `ba ${imm32(STAGE_CAPABILITIES_FAILED_MESSAGE.length)}`, assembly: `mov edx, ${STAGE_CAPABILITIES_FAILED_MESSAGE.length}` },
  { bytes: 'eb', relative: { target: 'fail', size: 1 }, assembly: 'jmp fail' },

  { label: 'malformed', bytes: '31 c0', assembly: 'xor eax, eax', comment: 'no errno' },
  { bytes: '45 31 ff', assembly: 'xor r15d, r15d', comment: 'no path' },
  { bytes: '48 8d 35', relative: { target: 'malformedText', size: 4 }, assembly: 'lea rsi, [rip + malformedText]' },
  { bytes: `ba ${imm32(STAGE_ARGUMENTS_MALFORMED_MESSAGE.length)}`, assembly: `mov edx, ${STAGE_ARGUMENTS_MALFORMED_MESSAGE.length}` },

  { label: 'fail', bytes: '48 89 c5', assembly: 'mov rbp, rax', comment: 'rbp = errno: the negated result (0 or less: none to tell)' },
  { bytes: '48 f7 dd', assembly: 'neg rbp' },
  { bytes: 'e8', relative: { target: 'writeStderr', size: 4 }, assembly: 'call writeStderr', comment: 'the message' },
  { bytes: '4d 85 ff', assembly: 'test r15, r15' },
  { bytes: '74', relative: { target: 'noPath', size: 1 }, assembly: 'je noPath' },
  { bytes: '48 8d 35', relative: { target: 'atText', size: 4 }, assembly: 'lea rsi, [rip + atText]', comment: '" at "' },
  { bytes: `ba ${imm32(AT_TEXT.length)}`, assembly: `mov edx, ${AT_TEXT.length}` },
  { bytes: 'e8', relative: { target: 'writeStderr', size: 4 }, assembly: 'call writeStderr' },
  { bytes: '4c 89 fe', assembly: 'mov rsi, r15' },
  { bytes: 'e8', relative: { target: 'writeString', size: 4 }, assembly: 'call writeString', comment: 'the path' },

  { label: 'noPath', bytes: '48 85 ed', assembly: 'test rbp, rbp' },
  { bytes: '7e', relative: { target: 'noErrno', size: 1 }, assembly: 'jle noErrno' },
  { bytes: '48 8d 35', relative: { target: 'errnoText', size: 4 }, assembly: 'lea rsi, [rip + errnoText]', comment: '", errno "' },
  { bytes: `ba ${imm32(ERRNO_TEXT.length)}`, assembly: `mov edx, ${ERRNO_TEXT.length}` },
  { bytes: 'e8', relative: { target: 'writeStderr', size: 4 }, assembly: 'call writeStderr' },
  { bytes: '48 83 ec 20', assembly: 'sub rsp, 32', comment: 'a buffer for the digits on the stack' },
  { bytes: '48 89 e8', assembly: 'mov rax, rbp' },
  { bytes: '48 8d 74 24 20', assembly: 'lea rsi, [rsp + 32]', comment: 'rsi = its end: digits are written backwards' },
  { bytes: 'b9 0a 00 00 00', assembly: 'mov ecx, 10' },

  { label: 'digit', bytes: '31 d2', assembly: 'xor edx, edx' },
  { bytes: '48 f7 f1', assembly: 'div rcx', comment: 'rax = rax / 10, rdx = the last digit' },
  { bytes: '80 c2 30', assembly: 'add dl, 0x30', comment: "  + '0'" },
  { bytes: '48 ff ce', assembly: 'dec rsi' },
  { bytes: '88 16', assembly: 'mov [rsi], dl' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '75', relative: { target: 'digit', size: 1 }, assembly: 'jne digit' },
  { bytes: '48 8d 54 24 20', assembly: 'lea rdx, [rsp + 32]' },
  { bytes: '48 29 f2', assembly: 'sub rdx, rsi', comment: 'rdx = how many digits' },
  { bytes: 'e8', relative: { target: 'writeStderr', size: 4 }, assembly: 'call writeStderr', comment: 'the errno in decimal' },

  { label: 'noErrno', bytes: '48 8d 35', relative: { target: 'didNotRunText', size: 4 }, assembly: 'lea rsi, [rip + didNotRunText]', comment: '"); the command did not run\\n"' },
  { bytes: `ba ${imm32(DID_NOT_RUN_TEXT.length)}`, assembly: `mov edx, ${DID_NOT_RUN_TEXT.length}` },
  { bytes: 'e8', relative: { target: 'writeStderr', size: 4 }, assembly: 'call writeStderr' },
  { bytes: 'b8 e7 00 00 00', assembly: 'mov eax, 231', comment: 'exit_group(' },
  { bytes: 'bf 7f 00 00 00', assembly: 'mov edi, 127', comment: '  127)' },
  { bytes: '0f 05', assembly: 'syscall' },

  { label: 'writeString', bytes: '31 d2', assembly: 'xor edx, edx', comment: 'write the NUL-terminated rsi to stderr: rdx = its length' },

  { label: 'length', bytes: '80 3c 16 00', assembly: 'cmp byte ptr [rsi + rdx], 0' },
  { bytes: '74', relative: { target: 'writeStderr', size: 1 }, assembly: 'je writeStderr' },
  { bytes: '48 ff c2', assembly: 'inc rdx' },
  { bytes: 'eb', relative: { target: 'length', size: 1 }, assembly: 'jmp length' },

  { label: 'writeStderr', bytes: 'b8 01 00 00 00', assembly: 'mov eax, 1', comment: 'write(' },
  { bytes: 'bf 02 00 00 00', assembly: 'mov edi, 2', comment: '  stderr, rsi, rdx)' },
  { bytes: '0f 05', assembly: 'syscall', comment: 'a short write only shortens the message' },
  { bytes: 'c3', assembly: 'ret' },

  { label: 'probe', bytes: 'b8 e7 00 00 00', assembly: 'mov eax, 231', comment: 'exit_group(' },
  { bytes: '31 ff', assembly: 'xor edi, edi', comment: '  0): the helper runs' },
  { bytes: '0f 05', assembly: 'syscall' },

  { label: 'chdirOp', bytes: '48 89 f7', assembly: 'mov rdi, rsi', comment: 'chdir(folder): enter the working folder again, now through the overlays' },
  { bytes: '49 89 f7', assembly: 'mov r15, rsi', comment: 'a failure names the folder' },
  { bytes: '49 83 c4 08', assembly: 'add r12, 8', comment: 'one operand used' },
  { bytes: 'b8 50 00 00 00', assembly: 'mov eax, 80' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '75', relative: { target: 'chdirFailed', size: 1 }, assembly: 'jne chdirFailed' },
  { bytes: 'e9', relative: { target: 'nextOp', size: 4 }, assembly: 'jmp nextOp' },
  { label: 'chdirFailed', bytes: '48 8d 35', relative: { target: 'chdirFailedText', size: 4 }, assembly: 'lea rsi, [rip + chdirFailedText]' },
  { bytes: `ba ${imm32(STAGE_CHDIR_FAILED_MESSAGE.length)}`, assembly: `mov edx, ${STAGE_CHDIR_FAILED_MESSAGE.length}` },
  { bytes: 'e9', relative: { target: 'fail', size: 4 }, assembly: 'jmp fail' },

  { label: 'whiteoutOp', bytes: '48 89 f7', assembly: 'mov rdi, rsi', comment: "mknod(target, S_IFCHR, 0): an overlayfs whiteout (no capability needed)" },
  { bytes: '49 89 f7', assembly: 'mov r15, rsi', comment: 'a failure names the target' },
  { bytes: '49 83 c4 08', assembly: 'add r12, 8', comment: 'one operand used' },
  { bytes: 'be 00 20 00 00', assembly: 'mov esi, 0x2000' },
  { bytes: '31 d2', assembly: 'xor edx, edx' },
  { bytes: 'b8 85 00 00 00', assembly: 'mov eax, 133' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '0f 85', relative: { target: 'mountFailed', size: 4 }, assembly: 'jne mountFailed' },
  { bytes: 'e9', relative: { target: 'nextOp', size: 4 }, assembly: 'jmp nextOp' },

  { label: 'opaqueQuery', bytes: '4d 39 f4', assembly: 'cmp r12, r14', comment: 'for each folder argv[2..]:' },
  { bytes: '73', relative: { target: 'queryDone', size: 1 }, assembly: 'jae queryDone' },
  { bytes: '49 8b 3c 24', assembly: 'mov rdi, [r12]', comment: 'lgetxattr(folder,' },
  { bytes: '48 8d 35', relative: { target: 'opaqueName', size: 4 }, assembly: 'lea rsi, [rip + opaqueName]', comment: '  "user.overlay.opaque",' },
  { bytes: '48 8d 54 24 f0', assembly: 'lea rdx, [rsp - 16]', comment: '  a byte below the stack (no call is made, nothing else uses it),' },
  { bytes: '41 ba 01 00 00 00', assembly: 'mov r10d, 1', comment: '  1)' },
  { bytes: 'b8 c0 00 00 00', assembly: 'mov eax, 192' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: 'c6 44 24 f8 6e', assembly: 'mov byte ptr [rsp - 8], 0x6e', comment: "answer 'n'" },
  { bytes: '48 83 f8 c3', assembly: 'cmp rax, -61', comment: 'ENODATA: no such attribute, not opaque' },
  { bytes: '74', relative: { target: 'queryWrite', size: 1 }, assembly: 'je queryWrite' },
  { bytes: '48 83 f8 a1', assembly: 'cmp rax, -95', comment: 'EOPNOTSUPP: a file system without user attributes cannot mark a folder opaque' },
  { bytes: '74', relative: { target: 'queryWrite', size: 1 }, assembly: 'je queryWrite' },
  { bytes: '48 83 f8 fe', assembly: 'cmp rax, -2', comment: 'ENOENT, ENOTDIR: no such folder any more (a running command removed it; the next pass sees it)' },
  { bytes: '74', relative: { target: 'queryWrite', size: 1 }, assembly: 'je queryWrite' },
  { bytes: '48 83 f8 ec', assembly: 'cmp rax, -20' },
  { bytes: '74', relative: { target: 'queryWrite', size: 1 }, assembly: 'je queryWrite' },
  { bytes: '48 83 f8 01', assembly: 'cmp rax, 1' },
  { bytes: '75', relative: { target: 'queryFailed', size: 1 }, assembly: 'jne queryFailed', comment: 'any other error, or not one byte: no answer (fails closed, exit 1)' },
  { bytes: '80 7c 24 f0 79', assembly: 'cmp byte ptr [rsp - 16], 0x79' },
  { bytes: '75', relative: { target: 'queryFailed', size: 1 }, assembly: 'jne queryFailed', comment: "a value other than 'y': no answer" },
  { bytes: 'c6 44 24 f8 79', assembly: 'mov byte ptr [rsp - 8], 0x79', comment: "answer 'y': opaque" },
  { label: 'queryWrite', bytes: 'b8 01 00 00 00', assembly: 'mov eax, 1', comment: 'write(stdout, the answer, 1)' },
  { bytes: 'bf 01 00 00 00', assembly: 'mov edi, 1' },
  { bytes: '48 8d 74 24 f8', assembly: 'lea rsi, [rsp - 8]' },
  { bytes: 'ba 01 00 00 00', assembly: 'mov edx, 1' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '48 83 f8 01', assembly: 'cmp rax, 1' },
  { bytes: '75', relative: { target: 'queryFailed', size: 1 }, assembly: 'jne queryFailed', comment: 'an answer not written: exit 1' },
  { bytes: '49 83 c4 08', assembly: 'add r12, 8' },
  { bytes: 'eb', relative: { target: 'opaqueQuery', size: 1 }, assembly: 'jmp opaqueQuery' },
  { label: 'queryDone', bytes: '31 ff', assembly: 'xor edi, edi', comment: 'exit_group(0)' },
  { bytes: 'b8 e7 00 00 00', assembly: 'mov eax, 231' },
  { bytes: '0f 05', assembly: 'syscall' },
  { label: 'queryFailed', bytes: 'bf 01 00 00 00', assembly: 'mov edi, 1', comment: 'exit_group(1)' },
  { bytes: 'b8 e7 00 00 00', assembly: 'mov eax, 231' },
  { bytes: '0f 05', assembly: 'syscall' },

  { label: 'lockQuery', bytes: 'b8 49 00 00 00', assembly: 'mov eax, 73', comment: 'flock(' },
  { bytes: 'bf 03 00 00 00', assembly: 'mov edi, 3', comment: '  descriptor 3 (a lock file the host opened and keeps open),' },
  { bytes: 'be 06 00 00 00', assembly: 'mov esi, 6', comment: '  LOCK_EX | LOCK_NB): the lock stays with the host\'s open file' },
  { bytes: '0f 05', assembly: 'syscall' },
  { bytes: '31 ff', assembly: 'xor edi, edi' },
  { bytes: '48 85 c0', assembly: 'test rax, rax' },
  { bytes: '40 0f 95 c7', assembly: 'setne dil', comment: 'exit_group(0: locked; 1: another process holds it, or no descriptor 3)' },
  { bytes: 'b8 e7 00 00 00', assembly: 'mov eax, 231' },
  { bytes: '0f 05', assembly: 'syscall' },

  { label: 'opaqueName', bytes: `${asciiBytes('user.overlay.opaque')} 00`, assembly: '.asciz "user.overlay.opaque"', comment: "overlayfs' mark of an opaque folder (with userxattr)" },
  { label: 'overlayName', bytes: `${asciiBytes('overlay')} 00`, assembly: '.asciz "overlay"', comment: 'the source and file system type of an overlay' },

  { label: 'tmpfsName', bytes: `${asciiBytes('tmpfs')} 00`, assembly: '.asciz "tmpfs"' },

  { label: 'tmpfsOptions', bytes: `${asciiBytes(READONLY_EMPTY_OPTIONS)} 00`, assembly: `.asciz ${JSON.stringify(READONLY_EMPTY_OPTIONS)}` },

  { label: 'devNull', bytes: `${asciiBytes('/dev/null')} 00`, assembly: '.asciz "/dev/null"' },

  { label: 'capHeader', bytes: '22 05 08 20 00 00 00 00', assembly: '.long 0x20080522, 0', comment: '_LINUX_CAPABILITY_VERSION_3, pid 0 (this process)' },

  { label: 'capData', bytes: Array(24).fill('00').join(' '), assembly: '.long 0, 0, 0, 0, 0, 0', comment: '{effective, permitted, inheritable} × 2 (capabilities 0..31, 32..63): none' },

  { label: 'execFailed', bytes: asciiBytes(STAGE_EXEC_FAILED_MESSAGE), assembly: `.ascii ${JSON.stringify(STAGE_EXEC_FAILED_MESSAGE)}` },

  { label: 'unshareFailedText', bytes: asciiBytes(STAGE_UNSHARE_FAILED_MESSAGE), assembly: `.ascii ${JSON.stringify(STAGE_UNSHARE_FAILED_MESSAGE)}` },

  { label: 'mountFailedText', bytes: asciiBytes(STAGE_MOUNT_FAILED_MESSAGE), assembly: `.ascii ${JSON.stringify(STAGE_MOUNT_FAILED_MESSAGE)}` },

  { label: 'capsFailedText', bytes: asciiBytes(STAGE_CAPABILITIES_FAILED_MESSAGE), assembly: `.ascii ${JSON.stringify(STAGE_CAPABILITIES_FAILED_MESSAGE)}` },

  { label: 'malformedText', bytes: asciiBytes(STAGE_ARGUMENTS_MALFORMED_MESSAGE), assembly: `.ascii ${JSON.stringify(STAGE_ARGUMENTS_MALFORMED_MESSAGE)}` },

  { label: 'chdirFailedText', bytes: asciiBytes(STAGE_CHDIR_FAILED_MESSAGE), assembly: `.ascii ${JSON.stringify(STAGE_CHDIR_FAILED_MESSAGE)}` },
  { label: 'atText', bytes: asciiBytes(AT_TEXT), assembly: `.ascii ${JSON.stringify(AT_TEXT)}` },

  { label: 'errnoText', bytes: asciiBytes(ERRNO_TEXT), assembly: `.ascii ${JSON.stringify(ERRNO_TEXT)}` },

  { label: 'didNotRunText', bytes: asciiBytes(DID_NOT_RUN_TEXT), assembly: `.ascii ${JSON.stringify(DID_NOT_RUN_TEXT)}` },
];
