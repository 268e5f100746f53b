import { spawnSync } from 'node:child_process';
import { installLandlockScopeHelper, landlockScopeHelperPath } from './install-landlock-scope-helper.js';
import { LANDLOCK_SCOPE_MINIMUM_ABI } from './landlock-scope-listing.js';
import { landlockScopeProgram } from './landlock-scope-program.js';

/**
 * Whether sandboxed commands run in a Landlock domain that scopes abstract UNIX sockets and
 * signals (architecture §3.7), and if not, why.
 */
export type LandlockScope =
  | {
      readonly scoped: true;
      /** The verified helper bwrap runs the command through (`helper <program> <args…>`). */
      readonly helperPath: string;
      /** The kernel's Landlock ABI (6 or later). */
      readonly abi: number;
    }
  | { readonly scoped: false; readonly reason: string };

type ProbeResult = { readonly abi: number } | { readonly failure: string };

/** One probe per helper file and process: the kernel does not change under us. */
const probes = new Map<string, ProbeResult>();

/** Runs the helper with no program: it exits with the kernel's Landlock ABI (0 when there is none). */
function probe(helperPath: string): ProbeResult {
  const known = probes.get(helperPath);
  if (known !== undefined) return known;
  const run = spawnSync(helperPath, [], { stdio: 'ignore', timeout: 10_000 });
  const result: ProbeResult =
    run.error !== undefined
      ? { failure: `the Landlock helper at ${helperPath} cannot be executed (${(run.error as NodeJS.ErrnoException).code ?? run.error.message}; is the OpenWork home on a noexec mount?)` }
      : run.status === null
        ? { failure: `the Landlock helper at ${helperPath} was killed by ${String(run.signal)}` }
        : { abi: run.status };
  probes.set(helperPath, result);
  return result;
}

function unscoped(reason: string): LandlockScope {
  return { scoped: false, reason };
}

/**
 * The Landlock scope of commands sandboxed with this OpenWork home, on this machine. Installs (or
 * repairs) the helper in `<openworkHome>/helpers/` and checks it byte for byte on every call (it
 * is about to run); probes the kernel once per process. Where the scope cannot exist — not Linux,
 * not x86-64 (the only architecture the helper is built for), a kernel with Landlock ABI < 6 or
 * none, an OpenWork home that cannot hold executables — the answer says why, and abstract sockets
 * of the host stay reachable with `network: 'allow'`. Throws `SandboxUnavailableError` when the
 * helper was changed and cannot be rewritten (fail closed).
 */
export function landlockScope(openworkHome: string, platform: NodeJS.Platform = process.platform, arch: string = process.arch): LandlockScope {
  if (platform !== 'linux') return unscoped(`Landlock exists only on Linux; this is ${platform}`);
  if (arch !== 'x64') return unscoped(`the Landlock helper is built for x86-64 only; this is ${arch}`);
  const program = landlockScopeProgram();
  const helperPath = landlockScopeHelperPath(openworkHome, program);
  installLandlockScopeHelper(helperPath, program);
  const probed = probe(helperPath);
  if ('failure' in probed) return unscoped(probed.failure);
  if (probed.abi === 0) return unscoped("Landlock is not available to this process (a kernel older than Linux 5.13, Landlock not in the lsm= boot parameter, or its system calls blocked by a seccomp filter such as a container's)");
  if (probed.abi < LANDLOCK_SCOPE_MINIMUM_ABI) {
    return unscoped(`this kernel's Landlock ABI is ${probed.abi}; scoping abstract sockets needs ABI ${LANDLOCK_SCOPE_MINIMUM_ABI} (Linux 6.12)`);
  }
  return { scoped: true, helperPath, abi: probed.abi };
}
