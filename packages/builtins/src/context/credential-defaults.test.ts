import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashFixture, requireBubblewrap, type BashFixture } from '../bash/test-support/bash-fixture.js';

/**
 * The default credential list covers the classes an outside attack read without a grant
 * (architecture §3.8): container registries at their runtime location, AI tools, model hubs and
 * data platforms. Each default location holds a secret with its own marker; read, grep and bash
 * (on the real bubblewrap sandbox) must show none of them.
 */
const inHome = [
  '.claude/.credentials.json',
  '.claude.json',
  '.codex/auth.json',
  '.gemini/oauth_creds.json',
  '.gemini/.env',
  '.config/github-copilot/apps.json',
  '.aider.conf.yml',
  '.config/openai/credentials',
  '.config/anthropic/api_key',
  '.config/llm/keys.json',
  '.local/share/io.datasette.llm/keys.json',
  '.continue/config.json',
  '.continue/config.yaml',
  '.cache/huggingface/token',
  '.cache/huggingface/stored_tokens',
  '.huggingface/token',
  '.kaggle/kaggle.json',
  '.config/kaggle/kaggle.json',
  '.config/replicate/token',
  '.ollama/id_ed25519',
  '.databrickscfg',
  '.snowflake/connections.toml',
  '.snowflake/config.toml',
  '.snowsql/config',
  '.dbt/profiles.yml',
  '.odbc.ini',
  '.clickhouse-client/config.xml',
  '.config/clickhouse/config.xml',
  '.mc/config.json',
  '.confluent/config.json',
  '.prefect/profiles.toml',
  '.config/influxdb2/configs',
  '.trino_history',
  '.config/containers/auth.json',
  '.config/containers/certs.d/registry.example/client.key',
  '.singularity/remote.yaml',
  '.apptainer/remote.yaml',
];
const inRuntime = ['containers/auth.json', 'containers/auth/registry.json'];

const marker = (index: number): string => `DEFAULT-SECRET-${index}-q7`;
let fixture: BashFixture;
let runtime: string;
let policy: SandboxPolicy;
let files: string[];

beforeAll(async () => {
  await requireBubblewrap();
  fixture = await createBashFixture();
  // The runtime folder (`$XDG_RUNTIME_DIR`) of this session: a folder of the test's, never /run/user.
  runtime = await realpath(await mkdtemp(join(tmpdir(), 'ow-runtime-')));
  files = [...inHome.map((file) => join(fixture.home, file)), ...inRuntime.map((file) => join(runtime, file))];
  for (const [index, file] of files.entries()) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `token = ${marker(index)}\n`);
  }
  policy = fixture.policy({ runtimeDirectory: runtime });
});

afterAll(async () => {
  await fixture?.cleanup();
  if (runtime !== undefined) await rm(runtime, { recursive: true, force: true });
});

describe('default credential locations (architecture §3.8)', () => {
  it('read and grep refuse each one, with the credential retry hint', async () => {
    for (const [index, file] of files.entries()) {
      const read = await fixture.call('read', { path: file }, { policy });
      expect(read.status, `read ${file}`).toBe('denied');
      expect(ToolResult.text(read), file).toContain('is a credential path');
      const grep = await fixture.call('grep', { pattern: 'DEFAULT-SECRET', path: file }, { policy });
      expect(ToolResult.text(grep), `grep ${file}`).not.toContain(marker(index));
    }
    const wide = ToolResult.text(await fixture.call('grep', { pattern: 'DEFAULT-SECRET', path: '~', glob: '**' }, { policy }));
    expect(wide).not.toContain('-q7');
  });

  it('bash reads none of them', async () => {
    const command = `for f in ${files.map((file) => `'${file}'`).join(' ')}; do cat "$f"; done; grep -ra DEFAULT-SECRET ${fixture.home} ${runtime}; true`;
    const bash = ToolResult.text(await fixture.call('bash', { command }, { policy }));
    files.forEach((file, index) => expect(bash, `bash ${file}`).not.toContain(marker(index)));
    expect(bash).toContain('Permission denied');
  });
});
