import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CAPTURE_HEAD_BYTES, CAPTURE_TAIL_BYTES } from '@openwork/process-backend';
import { MAX_RESULT_BYTES, ToolResult, type ToolProgress } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';
import { eventually, livingProcessesWith } from './test-support/process-table.js';

const fixtures: BashFixture[] = [];
async function bashFixture(...args: Parameters<typeof createBashFixture>): Promise<BashFixture> {
  const fixture = await createBashFixture(...args);
  fixtures.push(fixture);
  return fixture;
}
beforeAll(requireBubblewrap);
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

/** The §7.9 status line with its duration replaced, so a whole text can be compared exactly. */
function normalised(text: string): string {
  return text.replace(/; duration \d+ ms\]/g, '; duration N ms]');
}

/** `seq 1 n` as bash prints it. */
function sequence(n: number): string {
  return Array.from({ length: n }, (_, index) => `${index + 1}\n`).join('');
}

describe('bash results (§7.9)', () => {
  it('non_zero_exit_is_a_completed_tool_result', async () => {
    const fixture = await bashFixture();
    const result = await fixture.call('bash', { command: 'echo out; exit 7' });
    expect(result.status).toBe('succeeded');
    expect(result.error).toBeNull();
    expect(result.sandboxDenied).toBe(false);
    expect(normalised(ToolResult.text(result))).toBe('out\n[exit 7; duration N ms]');
  });

  it('status lines byte for byte: after a newline the output lacks, alone for no output', async () => {
    const fixture = await bashFixture();
    expect(normalised(await fixture.text('bash', { command: 'printf "no newline"' }))).toBe('no newline\n[exit 0; duration N ms]');
    expect(normalised(await fixture.text('bash', { command: 'printf "a\\n\\nb\\n"' }))).toBe('a\n\nb\n[exit 0; duration N ms]');
    expect(normalised(await fixture.text('bash', { command: 'true' }))).toBe('[exit 0; duration N ms]');
    const text = await fixture.text('bash', { command: 'false' });
    expect(text).toMatch(/^\[exit 1; duration \d+ ms\]$/);
  });

  it('merges stdout and stderr in arrival order', async () => {
    const fixture = await bashFixture();
    const text = await fixture.text('bash', { command: 'echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three' });
    expect(normalised(text)).toBe('one\ntwo\nthree\n[exit 0; duration N ms]');
  });

  it('acc_25_long_output_keeps_head_and_tail_and_spills_the_rest', async () => {
    const fixture = await bashFixture();
    const expected = sequence(30_000);
    const total = Buffer.byteLength(expected);
    const result = await fixture.call('bash', { command: 'seq 1 30000' }, { callId: 'call-long' });
    expect(result.status).toBe('succeeded');
    const omitted = total - CAPTURE_HEAD_BYTES - CAPTURE_TAIL_BYTES;
    expect(normalised(ToolResult.text(result))).toBe(
      `${expected.slice(0, CAPTURE_HEAD_BYTES)}\n... (${omitted} bytes omitted. Full output saved at ~/.openwork/spill/session-1/call-long.txt — use read with offset/limit, or grep, to look at it.)\n` +
        `${expected.slice(-CAPTURE_TAIL_BYTES)}[exit 0; duration N ms]`,
    );
    // The whole output, byte for byte, in the session's spill directory…
    const spillFile = join(fixture.openworkHome, 'spill', 'session-1', 'call-long.txt');
    expect(await readFile(spillFile, 'utf8')).toBe(expected);
    // …which the model reads with the path it was shown.
    expect(await fixture.text('read', { path: '~/.openwork/spill/session-1/call-long.txt', limit: 2 })).toBe(
      '1\t1\n2\t2\n\n[showing lines 1-2 of 30000. Continue with offset=3]',
    );
    expect(await fixture.text('read', { path: '~/.openwork/spill/session-1/call-long.txt', offset: 14_000, limit: 1 })).toContain('14000\t14000');
  });

  it('output up to 16 KiB is shown whole and leaves no spill file', async () => {
    const fixture = await bashFixture();
    const text = await fixture.text('bash', { command: `head -c ${CAPTURE_HEAD_BYTES + CAPTURE_TAIL_BYTES} /dev/zero | tr '\\0' 'a'` }, { callId: 'call-exact' });
    expect(text).toBe(`${'a'.repeat(CAPTURE_HEAD_BYTES + CAPTURE_TAIL_BYTES)}\n${text.split('\n').at(-1)}`);
    expect(existsSync(join(fixture.openworkHome, 'spill', 'session-1', 'call-exact.txt'))).toBe(false);
  });

  it('binary output stays within the 32,000-byte result and the spill file keeps the raw bytes', async () => {
    const fixture = await bashFixture();
    const result = await fixture.call('bash', { command: 'head -c 40000 /dev/zero | tr "\\0" "\\377"' }, { callId: 'call-binary' });
    const text = ToolResult.text(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(text).toContain('... (23616 bytes omitted. Full output saved at ~/.openwork/spill/session-1/call-binary.txt');
    // Not overwritten by the toolset's fallback cut: still the 40,000 bytes the command wrote.
    const saved = await readFile(join(fixture.openworkHome, 'spill', 'session-1', 'call-binary.txt'));
    expect(saved.length).toBe(40_000);
    expect(saved.every((byte) => byte === 0xff)).toBe(true);
  });

  it('without a spill directory long output is cut and no path is named', async () => {
    const fixture = await bashFixture({ spill: false });
    const text = await fixture.text('bash', { command: 'seq 1 30000' });
    expect(text).toContain(`\n... (${Buffer.byteLength(sequence(30_000)) - CAPTURE_HEAD_BYTES - CAPTURE_TAIL_BYTES} bytes omitted.)\n`);
    expect(text).not.toContain('saved at');
  });
});

describe('timeout and cancellation (§5)', () => {
  it('timeout_preserves_partial_output', async () => {
    const fixture = await bashFixture();
    const token = `ow-bash-${randomUUID()}`;
    let seenWhileRunning = 0;
    const result = await fixture.call(
      'bash',
      { command: `echo before; while :; do sleep 1; done; : ${token}`, timeoutMs: 3000 },
      { progress: () => void (seenWhileRunning = Math.max(seenWhileRunning, livingProcessesWith(token).length)) },
    );
    expect(seenWhileRunning).toBeGreaterThanOrEqual(1);
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('timeout');
    expect(result.error?.retryable).toBe(true);
    expect(normalised(ToolResult.text(result))).toBe(
      'before\n[timed out after 3000 ms; duration N ms]\n' +
        'The command did not finish within 3000 ms: it and every process it started were killed; the output above is what it printed until then. ' +
        'To recover, narrow the command (fewer files, less input, one step of a longer job at a time), or call bash again with a larger timeoutMs (at most 600000).',
    );
    expect(await eventually(() => livingProcessesWith(token).length === 0)).toBe(true);
  });

  it('cancellation_preserves_partial_output', async () => {
    const fixture = await bashFixture();
    const token = `ow-bash-${randomUUID()}`;
    const turn = new AbortController();
    let seenWhileRunning = 0;
    const result = await fixture.call(
      'bash',
      { command: `echo before; while :; do sleep 1; done; : ${token}` },
      {
        signal: turn.signal,
        progress: (progress) => {
          if (progress.kind !== 'stdout' || !progress.chunk.includes('before')) return;
          seenWhileRunning = livingProcessesWith(token).length;
          turn.abort();
        },
      },
    );
    expect(seenWhileRunning).toBeGreaterThanOrEqual(1);
    expect(result.status).toBe('cancelled');
    expect(result.error?.code).toBe('cancelled');
    expect(normalised(ToolResult.text(result))).toBe('before\n[cancelled; duration N ms]');
    expect(await eventually(() => livingProcessesWith(token).length === 0)).toBe(true);
  });

  it('a timeout kills every process of the call: background, setsid and nohup ones too (checked in /proc)', async () => {
    const fixture = await bashFixture();
    const token = `ow-bash-${randomUUID()}`;
    // Each daemon (a shell that stays alive, the token in its command line) leaves a file once it
    // runs; the command waits for all four, then hangs.
    const command = [
      `bash -c 'touch up.1; while :; do sleep 1; done; : ${token}' &`,
      `setsid bash -c 'touch up.2; while :; do sleep 1; done; : ${token}' > /dev/null 2>&1 &`,
      `nohup bash -c 'touch up.3; while :; do sleep 1; done; : ${token}' > /dev/null 2>&1 &`,
      `( ( bash -c 'touch up.4; while :; do sleep 1; done; : ${token}' & ) & )`,
      `while [ "$(ls up.* 2>/dev/null | wc -l)" -lt 4 ]; do sleep 0.05; done; echo all-started; sleep 600 # ${token}`,
    ].join('\n');
    // While the command runs, the host's /proc shows its processes: the check below can see them.
    let seenWhileRunning = 0;
    const result = await fixture.call(
      'bash',
      { command, timeoutMs: 8000 },
      { progress: (progress) => void (progress.kind === 'stdout' && progress.chunk.includes('all-started') ? (seenWhileRunning = livingProcessesWith(token).length) : 0) },
    );
    expect(seenWhileRunning).toBeGreaterThanOrEqual(5);
    expect(result.error?.code).toBe('timeout');
    expect(ToolResult.text(result)).toMatch(/^all-started\n\[timed out after 8000 ms; duration \d+ ms\]\n/);
    expect(await eventually(() => livingProcessesWith(token).length === 0)).toBe(true);
  });

  it('a background daemon does not hold the call: it returns when the shell exits, and the daemon is gone', async () => {
    const fixture = await bashFixture();
    const token = `ow-bash-${randomUUID()}`;
    // One daemon keeps the output pipe open, one detaches completely.
    const loop = (name: string): string => `touch ${name}; while :; do sleep 1; done; : ${token}`;
    // The shell exits only once the test has looked at the process table (it creates `go`).
    const command = `bash -c '${loop('up.1')}' & setsid bash -c '${loop('up.2')}' > /dev/null 2>&1 & until [ -e up.1 ] && [ -e up.2 ]; do sleep 0.05; done; echo started; until [ -e go ]; do sleep 0.05; done`;
    let seenWhileRunning = 0;
    const result = await fixture.call(
      'bash',
      { command },
      {
        progress: (progress) => {
          if (progress.kind !== 'stdout' || !progress.chunk.includes('started')) return;
          const living = livingProcessesWith(token);
          seenWhileRunning = living.length;
          // Through the command's own root: its writable folders are overlays (staged writes),
          // where a file made on the host meanwhile may stay unseen.
          const inside = living.find((pid) => readFileSync(`/proc/${pid}/mountinfo`, 'utf8').includes(' - overlay '));
          writeFileSync(join('/proc', String(inside), 'root', fixture.workspace, 'go'), '');
        },
      },
    );
    expect(seenWhileRunning).toBeGreaterThanOrEqual(3);
    expect(result.status).toBe('succeeded');
    expect(normalised(ToolResult.text(result))).toBe('started\n[exit 0; duration N ms]');
    expect(await eventually(() => livingProcessesWith(token).length === 0)).toBe(true);
  });

  it('the effective timeout is the smaller of timeoutMs and the time left until the deadline', async () => {
    const fixture = await bashFixture();
    const result = await fixture.call('bash', { command: 'echo started; sleep 600', timeoutMs: 60_000 }, { deadline: Date.now() + 3000 });
    expect(result.error?.code).toBe('timeout');
    const timeoutMs = fixture.processes.spawns.at(-1)?.options.timeoutMs ?? 0;
    expect(timeoutMs).toBeGreaterThan(0);
    expect(timeoutMs).toBeLessThanOrEqual(3000);
    const text = ToolResult.text(result);
    expect(text).toContain(`[timed out after ${timeoutMs} ms; duration`);
    expect(text).toContain(`The command reached this call's deadline after ${timeoutMs} ms (before its timeoutMs of 60000) and was stopped`);
    expect(text).toContain('A larger timeoutMs does not help here');
  });

  it('a deadline that has passed runs nothing', async () => {
    const fixture = await bashFixture();
    const result = await fixture.call('bash', { command: 'touch ran' }, { deadline: Date.now() - 1 });
    expect(result.error?.code).toBe('timeout');
    expect(ToolResult.text(result)).toBe(
      "[timed out after 0 ms; duration 0 ms]\nThe command did not run: this call's deadline had already passed when it was to start. A larger timeoutMs does not help.",
    );
    expect(fixture.processes.spawns).toHaveLength(0);
    expect(existsSync(join(fixture.workspace, 'ran'))).toBe(false);
  });

  it('a call cancelled before it starts runs nothing', async () => {
    const fixture = await bashFixture();
    const turn = new AbortController();
    turn.abort();
    const result = await fixture.call('bash', { command: 'touch ran' }, { signal: turn.signal });
    expect(result.status).toBe('cancelled');
    expect(fixture.processes.spawns).toHaveLength(0);
    expect(existsSync(join(fixture.workspace, 'ran'))).toBe(false);
  });

  it('timeoutMs is clamped to 1–600,000 and defaults to 30,000', async () => {
    const fixture = await bashFixture();
    await fixture.call('bash', { command: 'true' });
    await fixture.call('bash', { command: 'true', timeoutMs: 10_000_000 });
    const tiny = await fixture.call('bash', { command: 'sleep 5', timeoutMs: 0 });
    await fixture.call('bash', { command: 'true', timeoutMs: -5 });
    expect(fixture.processes.spawns.map((spawn) => spawn.options.timeoutMs)).toEqual([30_000, 600_000, 1, 1]);
    expect(tiny.error?.code).toBe('timeout');
    expect(ToolResult.text(tiny)).toMatch(/^\[timed out after 1 ms; duration \d+ ms\]\n/);
    const schema = fixture.toolset.definition('bash')?.inputSchema as { properties: { timeoutMs: { default: number; description: string } } };
    expect(schema.properties.timeoutMs.default).toBe(30_000);
  });
});

describe('progress (§8.3)', () => {
  it('stdout and stderr arrive as separate kinds of progress, before the result', async () => {
    const fixture = await bashFixture();
    const updates: ToolProgress[] = [];
    let finished = false;
    const result = await fixture.call(
      'bash',
      { command: 'printf out; sleep 0.2; printf err >&2; sleep 0.2; printf more' },
      { progress: (progress) => void (finished ? undefined : updates.push(progress)) },
    );
    finished = true;
    expect(normalised(ToolResult.text(result))).toBe('outerrmore\n[exit 0; duration N ms]');
    expect(updates.filter((update) => update.kind === 'stdout').map((update) => (update as { chunk: string }).chunk).join('')).toBe('outmore');
    expect(updates.filter((update) => update.kind === 'stderr').map((update) => (update as { chunk: string }).chunk).join('')).toBe('err');
  });

  it('a throwing progress consumer changes nothing', async () => {
    const fixture = await bashFixture();
    const result = await fixture.call('bash', { command: 'echo hi; echo ho >&2' }, { progress: () => { throw new Error('consumer gone'); } });
    expect(normalised(ToolResult.text(result))).toMatch(/^(hi\nho|ho\nhi)\n\[exit 0; duration N ms\]$/);
  });
});

describe('input (§7.9)', () => {
  it('a command over 1 MiB, an empty one or one with a NUL byte is invalid_arguments, and nothing runs', async () => {
    const fixture = await bashFixture();
    const tooLong = `touch ran; : ${'x'.repeat(1024 * 1024)}`;
    for (const [command, problem] of [
      [tooLong, `command: is ${(tooLong.length).toLocaleString('en-US')} bytes; bash takes at most 1,048,576 bytes (1 MiB)`],
      ['  ', 'command: must not be empty'],
      ['touch ran\0', 'command: contains a NUL byte'],
    ] as const) {
      const result = await fixture.call('bash', { command });
      expect(result.error?.code).toBe('invalid_arguments');
      expect(ToolResult.text(result)).toContain(problem);
      const prepared = fixture.toolset.prepare('bash', { command });
      expect(prepared.ok).toBe(false);
    }
    expect(fixture.processes.spawns).toHaveLength(0);
    expect(existsSync(join(fixture.workspace, 'ran'))).toBe(false);
    const wrongType = await fixture.call('bash', { command: 'true', timeoutMs: '5000' });
    expect(wrongType.error?.code).toBe('invalid_arguments');
    const unknown = await fixture.call('bash', { command: 'true', cwd: '/tmp' });
    expect(unknown.error?.code).toBe('invalid_arguments');
  });

  it('a command too long for one argument (up to 1 MiB) still runs, and its command file is gone afterwards', async () => {
    const fixture = await bashFixture();
    const payload = 'y'.repeat(600 * 1024);
    const command = `cat > big.txt <<'EOF'\n${payload}\nEOF\nwc -c < big.txt; echo "$0" | grep -c command`;
    const result = await fixture.call('bash', { command }, { callId: 'call-big' });
    expect(normalised(ToolResult.text(result))).toBe(`${payload.length + 1}\n1\n[exit 0; duration N ms]`);
    expect(await readFile(join(fixture.workspace, 'big.txt'), 'utf8')).toBe(`${payload}\n`);
    const spilled = fixture.processes.spawns.at(-1)?.argv ?? [];
    expect(spilled.at(-1)).toBe(join(fixture.openworkHome, 'spill', 'session-1', 'call-big.command.sh'));
    expect(existsSync(join(fixture.openworkHome, 'spill', 'session-1', 'call-big.command.sh'))).toBe(false);
    // Without a spill directory the file goes to a private temp folder, removed as well.
    const noSpill = await bashFixture({ spill: false });
    const again = await noSpill.call('bash', { command });
    expect(ToolResult.text(again)).toMatch(/^614401\n1\n\[exit 0; duration \d+ ms\]$/);
    const file = noSpill.processes.spawns.at(-1)?.argv.at(-1) ?? '';
    expect(file).toMatch(/openwork-bash-[^/]+\/command\.sh$/);
    expect(existsSync(file)).toBe(false);
  });
});

describe('the shell (§7.9)', () => {
  it('runs in the working directory, a new shell each call, stdin empty', async () => {
    const fixture = await bashFixture();
    expect(normalised(await fixture.text('bash', { command: 'pwd; cd /; export X=1; pwd' }))).toBe(`${fixture.workspace}\n/\n[exit 0; duration N ms]`);
    expect(normalised(await fixture.text('bash', { command: 'pwd; echo "X=${X:-unset}"' }))).toBe(`${fixture.workspace}\nX=unset\n[exit 0; duration N ms]`);
    // A command reading stdin gets end of file at once instead of waiting for input.
    expect(normalised(await fixture.text('bash', { command: 'cat; read -r line; echo "read: $?"' }))).toBe('read: 1\n[exit 0; duration N ms]');
  });

  it('the environment is the session\'s, plus the sandbox\'s additions, and nothing of the host', async () => {
    const fixture = await bashFixture({ environment: { PATH: '/usr/bin:/bin', HOME: '/nonexistent-home', LANG: 'C', GOCACHE: '/session/value' } });
    const tempRoot = join(fixture.root, 'tmp');
    await mkdir(tempRoot);
    const policy = fixture.policy({ tempRoots: [tempRoot] });
    const text = await fixture.text('bash', { command: 'env | sort' }, { policy });
    const variables = text.split('\n').filter((line) => /^[A-Za-z_]+=/.test(line)).map((line) => line.slice(0, line.indexOf('=')));
    // bash itself sets PWD, SHLVL and _; everything else comes from the session or the sandbox
    // (GOCACHE and the package managers' caches, docs/decisions/0103).
    expect(variables.filter((name) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(name)).sort()).toEqual(
      ['CARGO_HOME', 'GOCACHE', 'GOMODCACHE', 'HOME', 'LANG', 'PATH', 'PIP_CACHE_DIR', 'YARN_CACHE_FOLDER', 'npm_config_cache', 'pnpm_config_cache_dir', 'pnpm_config_state_dir', 'pnpm_config_store_dir'],
    );
    // On a name in both, the sandbox's value wins (§7.9).
    expect(text).toContain(`GOCACHE=${join(tempRoot, `openwork-go-build-${process.getuid?.() ?? 0}`)}\n`);
    expect(text).not.toContain('/session/value');
    expect(text).toContain('HOME=/nonexistent-home\n');
    expect((await stat(join(tempRoot, `openwork-go-build-${process.getuid?.() ?? 0}`))).isDirectory()).toBe(true);
  });

  it('no result text claims any network restriction when the policy allows the network', async () => {
    const fixture = await bashFixture();
    const texts = await Promise.all([
      fixture.text('bash', { command: 'echo fine' }),
      fixture.text('bash', { command: 'exit 3' }),
      fixture.text('bash', { command: 'touch ../outside/x' }),
      fixture.text('bash', { command: 'sleep 5', timeoutMs: 1 }),
    ]);
    for (const text of texts) expect(text).not.toMatch(/network|internet|offline|isolat/i);
    expect(fixture.toolset.definition('bash')?.description).not.toMatch(/network|internet|offline|isolat/i);
  });
});
