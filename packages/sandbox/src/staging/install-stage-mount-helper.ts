import { SandboxUnavailableError } from '../backend/sandbox-unavailable-error.js';
import { helperPath, installHelper } from '../landlock/install-landlock-scope-helper.js';
import { stageMountProgram } from './stage-mount-program.js';

/** Where the staged-writes mount helper lives: `<openworkHome>/helpers/stage-mount-<hash>`. */
export function stageMountHelperPath(openworkHome: string): string {
  return helperPath(openworkHome, 'stage-mount', stageMountProgram());
}

/**
 * Why the staged-writes helper cannot run on this machine, or undefined: it is x86-64 Linux machine
 * code (hand-assembled, like the Landlock helper), so on any other CPU bwrap could only fail with
 * `Exec format error`. Said before anything runs, in the self-check (`openwork doctor`) and in the
 * result of every bash call.
 */
export function stageHelperUnsupported(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string | undefined {
  if (platform === 'linux' && arch === 'x64') return undefined;
  return `bash is not available on ${platform} ${arch}: the sandbox's staged-writes helper is built for x86-64 Linux only (arm64 and other CPUs have no bash yet; the file tools work)`;
}

/**
 * Install (or repair) the staged-writes mount helper in `<openworkHome>/helpers/` and check it
 * byte for byte — call before every sandbox that runs it; returns its path. Throws
 * `SandboxUnavailableError` (fail closed) when it cannot be made right, like the Landlock helper.
 */
export function installStageMountHelper(openworkHome: string, arch: string = process.arch): string {
  const unsupported = stageHelperUnsupported('linux', arch);
  if (unsupported !== undefined) throw new SandboxUnavailableError(unsupported);
  const program = stageMountProgram();
  const file = helperPath(openworkHome, 'stage-mount', program);
  installHelper(file, program, 'the staged-writes mount helper');
  return file;
}
