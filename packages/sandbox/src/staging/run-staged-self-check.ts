import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxAvailability } from '../backend/sandbox-backend.js';
import { createSandboxPolicy } from '../policy/create-sandbox-policy.js';
import { deriveSandboxLayout } from '../policy/derive-sandbox-layout.js';
import { vanishedMaskTarget } from '../bubblewrap/vanished-mask-target.js';
import { stageHelperUnsupported } from './install-stage-mount-helper.js';
import { wrapStaged } from './wrap-staged.js';
import type { StagedReleaseReport } from './wrap-staged.js';

const selfCheckTimeoutMs = 10_000;
/** Starts of the check when a host socket it masked went away meanwhile. */
const maximumStarts = 3;

/**
 * Architecture §3.4 self-check of staged writes: in a scratch folder (its own home and OpenWork
 * home), one command writes a file and a protected name through the real bwrap, the real stage
 * helper and a real overlay; `release()` must apply the one and refuse the other. Hosts where any
 * part cannot work (no user namespaces, no overlayfs in one, AppArmor, a `noexec` folder for the
 * helper, unprivileged containers) report `unavailable` with the words of whatever failed.
 */
export async function runStagedSelfCheck(bwrapPath: string, options: { readonly beforeStart?: () => void; readonly arch?: string } = {}): Promise<SandboxAvailability> {
  const unsupported = stageHelperUnsupported('linux', options.arch ?? process.arch);
  if (unsupported !== undefined) return { available: false, reason: unsupported };
  let scratch: string;
  try {
    scratch = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'openwork-bwrap-check-')));
  } catch (error) {
    return { available: false, reason: `cannot prepare the bubblewrap self-check: ${String(error)}` };
  }
  try {
    const workspace = path.join(scratch, 'workspace');
    await fs.mkdir(workspace);
    await fs.mkdir(path.join(scratch, 'home'));
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: path.join(scratch, 'home'), openworkHome: path.join(scratch, 'openwork-home') });
    let outcome: { error: (Error & { code?: unknown; signal?: unknown; killed?: boolean }) | null; stderr: string };
    let report: StagedReleaseReport;
    for (let start = 1; ; start += 1) {
      const wrapped = wrapStaged(bwrapPath, { argv: ['/bin/sh', '-c', 'echo ok > checked && echo no > .envrc'], cwd: workspace }, policy, deriveSandboxLayout(policy));
      try {
        options.beforeStart?.();
        outcome = await new Promise((resolve) => {
          const [file, ...args] = wrapped.argv as [string, ...string[]];
          execFile(file, args, { cwd: workspace, timeout: selfCheckTimeoutMs, encoding: 'utf8' }, (error, _stdout, stderr) => resolve({ error, stderr: String(stderr) }));
        });
      } catch (error) {
        await wrapped.release().catch(() => undefined);
        throw error;
      }
      report = await wrapped.release();
      // A host socket it masked went away before the start (`vanishedMaskTarget`): not a broken
      // sandbox. A failed check makes `wrap` refuse for the process's life, so it is run again.
      const code = typeof outcome.error?.code === 'number' ? outcome.error.code : null;
      if (outcome.error === null || start >= maximumStarts || vanishedMaskTarget(wrapped.argv, { exitCode: code, output: outcome.stderr }) === undefined) break;
    }
    if (outcome.error !== null) {
      const error = outcome.error;
      if (error.code === 'ENOENT') {
        return {
          available: false,
          reason: `bubblewrap is not installed: no executable at ${bwrapPath} (spawn ENOENT); install it with apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora, RHEL), pacman -S bubblewrap (Arch), zypper install bubblewrap (openSUSE)`,
        };
      }
      if (error.code === 'EACCES') return { available: false, reason: `bubblewrap at ${bwrapPath} cannot be executed (spawn EACCES)` };
      const status = typeof error.code === 'number' ? `exit ${error.code}` : String(error.signal ?? error.code ?? error.message);
      return { available: false, reason: `bubblewrap failed its self-check (${status}): ${outcome.stderr.trim() || error.message}` };
    }
    const applied = await fs.readFile(path.join(workspace, 'checked'), 'utf8').catch(() => undefined);
    const planted = await fs.lstat(path.join(workspace, '.envrc')).then(() => true, () => false);
    if (applied !== 'ok\n' || planted || report.staged.refused.length !== 1) {
      return { available: false, reason: `staged writes did not behave in the self-check (applied ${JSON.stringify(applied)}, protected name ${planted ? 'written' : 'kept'}, ${report.staged.refused.length} refused)` };
    }
    return { available: true };
  } catch (error) {
    return { available: false, reason: `bubblewrap failed its self-check: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
