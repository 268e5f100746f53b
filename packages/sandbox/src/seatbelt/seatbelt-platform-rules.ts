import type { NetworkAccess } from '../policy/sandbox-policy.js';

/**
 * What ordinary commands need from macOS besides the files of the layout, one group per need, each
 * with its reason (docs/decisions/0058-sandbox-seatbelt-profile.md). Read against the base policy OpenAI's Codex CLI ships and against
 * Anthropic's sandbox-runtime; narrower than our first profile where they showed it could be.
 * Nothing here names a user path: paths only ever come in as `-D` parameters (§3.4).
 */

/** Processes: start programs, fork, signal and inspect only our own tree. */
const processRules = [
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  // No `(with no-sandbox)` exception for setuid programs such as /bin/ps: the kernel refuses to
  // exec a setuid binary inside a sandbox, and an exception would run it unconfined. `ps` fails.
];

/**
 * Kernel settings a program may read: what libc, language runtimes (node/V8, Python, Java, Go,
 * Rust) and `uname`/`hostname`/`sysctl -n hw.ncpu` ask for — CPU model and features, memory and
 * page sizes, OS version, limits, our own processes. Not every sysctl: the rest is refused with
 * EPERM, which these programs handle.
 */
const readableSysctls = [
  'hw.activecpu',
  'hw.busfrequency_compat',
  'hw.byteorder',
  'hw.cacheconfig',
  'hw.cachelinesize',
  'hw.cachelinesize_compat',
  'hw.cpufamily',
  'hw.cpufrequency',
  'hw.cpufrequency_compat',
  'hw.cpusubtype',
  'hw.cputype',
  'hw.l1dcachesize',
  'hw.l1dcachesize_compat',
  'hw.l1icachesize',
  'hw.l1icachesize_compat',
  'hw.l2cachesize',
  'hw.l2cachesize_compat',
  'hw.l3cachesize_compat',
  'hw.logicalcpu',
  'hw.logicalcpu_max',
  'hw.machine',
  'hw.memsize',
  'hw.model',
  'hw.ncpu',
  'hw.nperflevels',
  'hw.packages',
  'hw.pagesize',
  'hw.pagesize_compat',
  'hw.physicalcpu',
  'hw.physicalcpu_max',
  'hw.tbfrequency',
  'hw.tbfrequency_compat',
  'hw.vectorunit',
  'kern.argmax',
  'kern.boottime',
  'kern.hostname',
  'kern.maxfiles',
  'kern.maxfilesperproc',
  'kern.maxproc',
  'kern.ngroups',
  'kern.osproductversion',
  'kern.osrelease',
  'kern.ostype',
  'kern.osvariant_status',
  'kern.osversion',
  'kern.secure_kernel',
  'kern.usrstack64',
  'kern.version',
  'machdep.cpu.brand_string',
  'sysctl.proc_cputype',
  'vm.loadavg',
];
const readableSysctlPrefixes = [
  'hw.optional.', // CPU feature detection (arm64 and x86 alike)
  'hw.perflevel', // performance/efficiency core counts
  'kern.proc.pgrp.', // our own process group
  'kern.proc.pid.', // a process by id (only same-sandbox ones answer usefully)
  'machdep.cpu.', // CPU identification on x86
  'net.routetable.', // route lookups done while resolving names
];
const sysctlRules = [
  `(allow sysctl-read ${[
    ...readableSysctls.map((name) => `(sysctl-name "${name}")`),
    ...readableSysctlPrefixes.map((prefix) => `(sysctl-name-prefix "${prefix}")`),
  ].join(' ')})`,
  // Java reads its CPU type through a sysctl the kernel classifies as a write.
  '(allow sysctl-write (sysctl-name "kern.grade_cputype"))',
];

/**
 * Inter-process communication, narrowed to named needs: POSIX semaphores (Python
 * multiprocessing's SemLock), the preferences daemon's shared memory (`defaults read`, anything
 * using NSUserDefaults/CFPreferences), and libomp's registration segment (`import torch`, numpy with
 * OpenMP) — not every shared-memory segment of the machine.
 */
const ipcRules = [
  '(allow ipc-posix-sem)',
  '(allow ipc-posix-shm-read* (ipc-posix-name-prefix "apple.cfprefs."))',
  '(allow ipc-posix-shm-read-data ipc-posix-shm-write-create ipc-posix-shm-write-unlink (ipc-posix-name-regex #"^/__KMP_REGISTERED_LIB_[0-9]+$"))',
];

/**
 * Mach services: user and group lookups (`id`, `ls -l`, git's getpwuid), the system log and
 * notifications, and the preferences daemon with reading preferences. Not coreservicesd or
 * launch services: those act outside the sandbox on a command's behalf.
 */
const machRules = [
  '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger") (global-name "com.apple.system.notification_center"))',
  '(allow mach-lookup (global-name "com.apple.cfprefsd.daemon") (global-name "com.apple.cfprefsd.agent") (local-name "com.apple.cfprefsd.agent"))',
  '(allow user-preference-read)',
];

/**
 * Terminals and descriptors. `script`, `expect`, Python's `pty` and node-pty open a new PTY: the
 * pseudo-tty operation, `/dev/ptmx` (a device file of the layout), and the `/dev/ttysN` it gets,
 * which carries the `com.apple.sandbox.pty` extension — only those, so that a terminal the
 * command did not open (the user's) can be neither written nor sent keystrokes by ioctl.
 * `/dev/fd/N` re-opens a descriptor the process already holds (`tee >(…)`, `cat /dev/fd/3`,
 * `<(…)`), so every N is safe to read and write as data.
 */
const terminalRules = [
  '(allow pseudo-tty)',
  '(allow file-read* file-write-data file-ioctl (require-all (regex #"^/dev/ttys[0-9]+$") (vnode-type CHARACTER-DEVICE) (extension "com.apple.sandbox.pty")))',
  '(allow file-read-data file-write-data (regex #"^/dev/fd/[0-9]+$"))',
];

/**
 * `allow` (the default): the network as unsandboxed, so `git fetch`, `npm install`, `pip`, `curl`
 * and `ssh` work as they do under bubblewrap (docs/decisions/0046-sandbox-network-allowed-by-default.md): sockets of every kind, and the services
 * that name resolution and TLS need — DNS configuration, certificate trust and revocation. `none`:
 * no rule at all, so `(deny default)` refuses every socket operation, Unix sockets included.
 *
 * In both, connecting to a UNIX socket is denied (architecture §3.7: a host daemon — tmux,
 * ssh-agent, launchd's agents, docker — would act for the command outside the sandbox), except
 * name resolution (`mDNSResponder`, `allow` only) and the `allowedSockets` of the session; both are
 * parameters (`(param …)` references). The exclusion is folded into the outbound rule, so no
 * connection is matched by both an allow and a deny.
 */
export function seatbeltNetworkRules(network: NetworkAccess, allowedSockets: readonly string[] = [], systemSockets: readonly string[] = []): readonly string[] {
  const allowed = allowedSockets.map((socket) => `(allow network-outbound (remote unix-socket (path-literal ${socket})))`);
  if (network === 'none') return allowed;
  return [
    '(allow network-inbound network-bind)',
    '(allow network-outbound (require-not (remote unix-socket)))',
    '(allow system-socket)',
    '(allow mach-lookup (global-name "com.apple.SystemConfiguration.DNSConfiguration") (global-name "com.apple.SystemConfiguration.configd") (global-name "com.apple.networkd") (global-name "com.apple.trustd.agent") (global-name "com.apple.SecurityServer") (global-name "com.apple.ocspd") (global-name "com.apple.system.opendirectoryd.membership") (global-name "com.apple.bsd.dirhelper"))',
    ...systemSockets.map((socket) => `(allow network-outbound (remote unix-socket (path-literal ${socket})))`),
    ...allowed,
  ];
}

/** UNIX sockets of system services a command may always reach under `network: 'allow'`: name resolution. */
export const seatbeltSystemSockets: readonly string[] = Object.freeze(['/private/var/run/mDNSResponder']);

/** Everything above, in profile order, after `(deny default)`. */
export const seatbeltPlatformRules: readonly string[] = Object.freeze([
  ...processRules,
  ...sysctlRules,
  ...ipcRules,
  ...machRules,
  ...terminalRules,
]);
