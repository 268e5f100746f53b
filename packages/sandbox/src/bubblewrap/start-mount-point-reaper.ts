import { spawn } from 'node:child_process';
import { mountPointRegistryModule } from './mount-point-registry.js';

const reaperScript = 'const { runMountPointReaper } = await import(process.argv[1]); await runMountPointReaper(process.argv[2], process.argv[3]);';

/**
 * Start the reaper of this process's mount points in `directory` (architecture §3.7: a `kill -9`
 * of the host leaves nothing behind within seconds, without any other OpenWork process): a small
 * detached Node process, in its own session so that a signal to the host's process group spares
 * it, whose stdin is a pipe only this process holds open. When the host ends — exit, crash,
 * SIGKILL — the pipe closes, and the reaper sweeps the registry and exits. Its descriptors are
 * not inherited by the host's other children (libuv opens them close-on-exec). Best effort: if it
 * cannot start, start-up recovery of the next process and every later release still sweep.
 */
export function startMountPointReaper(directory: string, host: string): void {
  try {
    const child = spawn(process.execPath, ['--input-type=module', '--no-warnings', '-e', reaperScript, mountPointRegistryModule, directory, host], {
      cwd: '/',
      detached: true,
      env: {},
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.once('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
  } catch {
    // EAGAIN, EMFILE: see above
  }
}
