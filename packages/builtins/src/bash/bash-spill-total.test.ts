import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';

/**
 * Spill per session bounded in total (docs/decisions/0099-spill-bounded-per-session.md): before a
 * command starts a spill file, the session's oldest spill files go until a full new one fits in
 * the session's total and file count; the result of that command says what went. Small bounds
 * here; the defaults are 256 MiB and 200 files. Real bash on the real bubblewrap sandbox.
 */
const KiB = 1024;
let fixture: BashFixture | undefined;

beforeAll(async () => {
  await requireBubblewrap();
});

afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

async function spillFiles(current: BashFixture): Promise<{ names: string[]; bytes: number }> {
  const folder = join(current.openworkHome, 'spill', 'session-1');
  const names = (await readdir(folder)).filter((name) => name.endsWith('.txt')).sort();
  let bytes = 0;
  for (const name of names) bytes += (await stat(join(folder, name))).size;
  return { names, bytes };
}

/** 50,000 bytes of output: over the 16 KiB shown whole, so all of it is spilled. */
const loud = "head -c 50000 /dev/zero | tr '\\0' a";

describe('spill per session bounded in total', () => {
  it('bytes: the oldest files go first so that a full new one fits, and the result says which', async () => {
    fixture = await createBashFixture({ spillLimits: { maxBytes: 64 * KiB, maxTotalBytes: 192 * KiB, maxFiles: 100 } });
    const texts: string[] = [];
    for (let index = 1; index <= 5; index += 1) texts.push(ToolResult.text(await fixture.call('bash', { command: loud }, { callId: `loud-${index}` })));
    // Room for a new file: 192 KiB - 64 KiB = 128 KiB, i.e. two files of 50,000 bytes.
    for (const text of texts.slice(0, 3)) expect(text).not.toContain('[spill: removed');
    expect(texts[3]).toContain('[spill: removed the oldest spill file of this session (49 KiB): ~/.openwork/spill/session-1/loud-1.txt — a session keeps at most 192 KiB in 100 spill files]');
    expect(texts[4]).toContain('~/.openwork/spill/session-1/loud-2.txt');
    const left = await spillFiles(fixture);
    expect(left.names).toEqual(['loud-3.txt', 'loud-4.txt', 'loud-5.txt']);
    expect(left.bytes).toBeLessThanOrEqual(192 * KiB);
  });

  it('count: at most maxFiles files, the newest kept; a background task makes room too', async () => {
    fixture = await createBashFixture({ spillLimits: { maxBytes: 64 * KiB, maxTotalBytes: 10_000 * KiB, maxFiles: 2 } });
    for (let index = 1; index <= 3; index += 1) await fixture.call('bash', { command: loud }, { callId: `count-${index}` });
    expect((await spillFiles(fixture)).names).toEqual(['count-2.txt', 'count-3.txt']);
    const background = ToolResult.text(await fixture.call('bash', { command: loud, runInBackground: true, yieldMs: 5000 }));
    expect(background).toContain('[spill: removed the oldest spill file of this session');
    expect(background).toContain('count-2.txt');
    expect((await spillFiles(fixture)).names).not.toContain('count-2.txt');
  });
});
