import { spawn } from 'node:child_process';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, OPENWORK_BIN, type CliSandbox } from '../test-support/cli-sandbox.js';

// Bounded input (docs/decisions/0065-cli-bounded-input-lines.md): a huge stdin line used to take 2.1 GB for 200 MB and crash at 560 MB
// (`RangeError: Invalid string length`), so the lines after it never ran.

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\n');
});
afterEach(async () => sandbox.remove());

/** The peak resident memory of a process so far (VmHWM), in bytes. */
async function peakMemory(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]) * 1024;
}

describe('openwork session with a line over its bound', () => {
  it('a 1 GB line gets an invalid_arguments result, memory stays flat, and the next line runs', async () => {
    const child = spawn(process.execPath, [OPENWORK_BIN, 'session', '--workspace', sandbox.workspace], { env: sandbox.environment, cwd: sandbox.workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const results = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const nextResult = async () => JSON.parse(((await results.next()).value as string | undefined) ?? 'null') as { status: string; error: { code: string; message: string } | null; content: { text: string }[] };
    const write = (text: string | Buffer) => new Promise<void>((resolve, reject) => child.stdin.write(text, (error) => (error ? reject(error) : resolve())));
    const read = `${JSON.stringify({ tool: 'read', input: { path: 'notes.txt' } })}\n`;

    await write(read);
    expect((await nextResult()).status).toBe('succeeded');
    const before = await peakMemory(child.pid as number);

    // {"tool":"read","input":{"path":"aaaa…"}} — 1 GiB of path, sent in 1 MiB pieces.
    await write('{"tool":"read","input":{"path":"');
    const piece = Buffer.alloc(1024 * 1024, 'a');
    for (let sent = 0; sent < 1024; sent += 1) await write(piece);
    await write('"}}\n');
    const refused = await nextResult();
    const after = await peakMemory(child.pid as number);

    await write(read);
    const last = await nextResult();
    child.stdin.end();

    expect(refused.status).toBe('failed');
    expect(refused.error?.code).toBe('invalid_arguments');
    expect(refused.error?.message).toBe('Line 2 is 1 GiB; openwork session reads lines of at most 8 MiB, so it was skipped. Send large contents in parts (several write or edit calls) or produce them with a command.');
    expect(after - before).toBeLessThan(100 * 1024 * 1024);
    expect(last.status).toBe('succeeded');
    expect(last.content[0]?.text).toContain('alpha');
    expect(await exited).toBe(1);
    expect(stderr).not.toContain('RangeError');
  }, 300_000);

  it('stdin from a file: the line over 8 MiB is refused, the lines around it run, a last line without \\n too', async () => {
    const read = JSON.stringify({ tool: 'read', input: { path: 'notes.txt' } });
    const calls = join(sandbox.root, 'calls.jsonl');
    await writeFile(calls, `${read}\n{"tool":"read","input":{"path":"${'b'.repeat(9 * 1024 * 1024)}"}}\r\n\n${read}`);
    const input = await open(calls, 'r');
    try {
      const child = spawn(process.execPath, [OPENWORK_BIN, 'session', '--workspace', sandbox.workspace], { env: sandbox.environment, cwd: sandbox.workspace, stdio: [input.fd, 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      const results = stdout.trim().split('\n').map((line) => JSON.parse(line) as { status: string; error: { code: string; message: string } | null });
      expect(results.map((result) => result.status)).toEqual(['succeeded', 'failed', 'succeeded']);
      expect(results[1]?.error?.code).toBe('invalid_arguments');
      expect(results[1]?.error?.message).toMatch(/^Line 2 is 9 MiB; openwork session reads lines of at most 8 MiB/);
      expect(status).toBe(1);
    } finally {
      await input.close();
    }
  });
});
