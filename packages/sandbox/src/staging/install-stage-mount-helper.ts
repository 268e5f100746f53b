import { helperPath, installHelper } from '../landlock/install-landlock-scope-helper.js';
import { stageMountProgram } from './stage-mount-program.js';

/** Where the staged-writes mount helper lives: `<openworkHome>/helpers/stage-mount-<hash>`. */
export function stageMountHelperPath(openworkHome: string): string {
  return helperPath(openworkHome, 'stage-mount', stageMountProgram());
}

/**
 * Install (or repair) the staged-writes mount helper in `<openworkHome>/helpers/` and check it
 * byte for byte — call before every sandbox that runs it; returns its path. Throws
 * `SandboxUnavailableError` (fail closed) when it cannot be made right, like the Landlock helper.
 */
export function installStageMountHelper(openworkHome: string): string {
  const program = stageMountProgram();
  const file = helperPath(openworkHome, 'stage-mount', program);
  installHelper(file, program, 'the staged-writes mount helper');
  return file;
}
