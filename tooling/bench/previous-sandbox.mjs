// The sandbox package as it was before staged writes, built from the repository's own history, so
// that a benchmark can time the earlier design beside the current one in the same run (paired).
// The earlier design is no longer in the source tree; the commit below is the last one that had
// only it (one read-only mount per protected name, host placeholders, the mount-point registry).
//
//   const { BubblewrapBackend } = await import(await previousSandbox());
//
// Needs git history (a clone, not a tarball) and the workspace's installed dependencies.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The last commit with the earlier (place-based) Linux sandbox only. */
export const PREVIOUS_SANDBOX_COMMIT = '4939e29';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Builds `packages/sandbox` at `commit` into a temporary folder and returns the file URL of its
 * `dist/index.js`, plus `remove()` to delete the folder when the benchmark ends.
 */
export async function previousSandbox(commit = PREVIOUS_SANDBOX_COMMIT) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'openwork-previous-sandbox-'));
  try {
    const archive = execFileSync('git', ['archive', '--format=tar', commit, 'packages/sandbox', 'tooling/tsconfig.base.json', 'tooling/tsconfig.package.json'], { cwd: repository, maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', folder], { input: archive });
    const packageFolder = path.join(folder, 'packages/sandbox');
    // Its dependencies are the current package's (the lock file did not change them).
    fs.symlinkSync(path.join(repository, 'packages/sandbox/node_modules'), path.join(packageFolder, 'node_modules'));
    fs.symlinkSync(path.join(repository, 'node_modules'), path.join(folder, 'node_modules'));
    execFileSync(process.execPath, [path.join(repository, 'node_modules/typescript/bin/tsc'), '-p', path.join(packageFolder, 'tsconfig.json')], { stdio: 'inherit' });
  } catch (error) {
    fs.rmSync(folder, { recursive: true, force: true });
    throw new Error(`could not build the sandbox of ${commit} (needs git history and installed dependencies): ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    url: new URL(`file://${path.join(folder, 'packages/sandbox/dist/index.js')}`).href,
    remove: () => fs.rmSync(folder, { recursive: true, force: true }),
  };
}
