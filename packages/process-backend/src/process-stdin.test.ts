import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_QUEUED_STDIN_BYTES, NodeProcessBackend, ProcessStdin } from './index.js';
import { temporaryDirectory } from './test-support/temporary-directory.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
let workspace: { path: string; remove(): Promise<void> };

beforeEach(async () => {
  workspace = await temporaryDirectory();
});
afterEach(async () => {
  await workspace.remove();
});

/** Resolves once `seen()` holds (polled; no wall-clock assertion). */
async function until(seen: () => boolean): Promise<void> {
  while (!seen()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('ProcessStdin (typing into a running process)', () => {
  // The pipe is a socket pair (libuv): a bash reading it sources ~/.bashrc unless told --norc (bash's rshd rule).
  it('what is written reaches the process, which answers it while it runs', async () => {
    const stdin = new ProcessStdin();
    let output = '';
    const run = new NodeProcessBackend().spawn(['/bin/bash', '--norc', '-c', 'read -r name; echo "hello $name"; read -r again; echo "bye $again"'], {
      cwd: workspace.path,
      env,
      stdin,
      onOutput: (chunk) => (output += chunk.toString('utf8')),
      timeoutMs: 20_000,
    });
    await until(() => stdin.open);
    expect(stdin.write('ada\n')).toMatchObject({ kind: 'written' });
    await until(() => output.includes('hello ada'));
    expect(stdin.write(Buffer.from('lovelace\n'))).toMatchObject({ kind: 'written' });
    const outcome = await run;
    expect(outcome.status).toBe('exited');
    expect(outcome.output).toBe('hello ada\nbye lovelace\n');
    // The pipe closed with the process: a late write says so and changes nothing.
    expect(stdin.open).toBe(false);
    expect(stdin.write('late\n')).toEqual({ kind: 'closed' });
  });

  it('a process that never reads cannot make the writer hold more than the bound', async () => {
    const stdin = new ProcessStdin();
    const controller = new AbortController();
    const run = new NodeProcessBackend().spawn(['/bin/sleep', '30'], { cwd: workspace.path, env, stdin, signal: controller.signal });
    await until(() => stdin.open);
    const chunk = 'x'.repeat(64 * 1024);
    let last = stdin.write(chunk);
    for (let index = 0; index < 40 && last.kind === 'written'; index += 1) last = stdin.write(chunk);
    expect(last.kind).toBe('full');
    if (last.kind === 'full') expect(last.queuedBytes).toBeLessThanOrEqual(MAX_QUEUED_STDIN_BYTES);
    controller.abort();
    expect((await run).status).toBe('cancelled');
    expect(stdin.write('x')).toEqual({ kind: 'closed' });
  });

  it('without a ProcessStdin the process reads /dev/null, as before', async () => {
    const outcome = await new NodeProcessBackend().spawn(['cat'], { cwd: workspace.path, env, timeoutMs: 10_000 });
    expect(outcome.output).toBe('');
    expect(outcome.exitCode).toBe(0);
  });

  it('a write before the process started is refused as closed', () => {
    expect(new ProcessStdin().write('early')).toEqual({ kind: 'closed' });
  });
});
