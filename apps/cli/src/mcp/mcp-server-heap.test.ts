import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetServerEnvironment, SERVER_HEAP_FLAGS, serverEnvironment, serverHeapArguments } from '../cli/server-heap.js';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';

// A long-lived server keeps a small young generation (docs/decisions/0107-a-small-server.md).

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);

beforeEach(async () => {
  sandbox = await createCliSandbox();
});

afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

/** The command line of a running process, as the kernel has it. */
async function commandLine(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((part) => part !== '');
}

describe('openwork mcp heap', () => {
  it.skipIf(process.platform !== 'linux' || typeof (process as { execve?: unknown }).execve !== 'function')(
    'the server replaces itself, same process, with the small young generation, and serves as before',
    async () => {
      const { client, transport } = await connect();
      const pid = transport.pid;
      expect(pid).not.toBeNull();
      expect(await commandLine(pid ?? 0)).toEqual(expect.arrayContaining([...SERVER_HEAP_FLAGS, 'mcp']));
      const environment = await readFile(`/proc/${pid}/environ`, 'utf8');
      expect(environment.split('\0')).toContain('MALLOC_ARENA_MAX=2');
      const result = await client.callTool({ name: 'list', arguments: { path: '.' } });
      expect(result.isError).toBe(false);
      expect(resultText(result)).toBeTypeOf('string');
      // What the server set for its own allocator does not reach the commands it runs.
      const bash = await client.callTool({ name: 'bash', arguments: { command: 'echo "[${MALLOC_ARENA_MAX-unset}] [${OPENWORK_MCP_SET_MALLOC_ARENA_MAX-unset}]"' } });
      expect(resultText(bash)).toContain('[unset] [unset]');
    },
  );

  it('the commands the server runs do not get the malloc setting it made for itself; one the person set stays', () => {
    const made = serverEnvironment({ PATH: '/bin' });
    expect(made['MALLOC_ARENA_MAX']).toBe('2');
    forgetServerEnvironment(made);
    expect(made).toEqual({ PATH: '/bin' });
    const own = serverEnvironment({ PATH: '/bin', MALLOC_ARENA_MAX: '4' });
    forgetServerEnvironment(own);
    expect(own).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '4' });
  });

  it('a heap size the person set wins, and OPENWORK_MCP_DEFAULT_HEAP=1 keeps V8 defaults', () => {
    expect(serverHeapArguments([], {})).toEqual(SERVER_HEAP_FLAGS);
    expect(serverHeapArguments(['--max-semi-space-size=8'], {})).toEqual([]);
    expect(serverHeapArguments([], { NODE_OPTIONS: '--enable-source-maps --max_old_space_size=512' })).toEqual([]);
    expect(serverHeapArguments([], { OPENWORK_MCP_DEFAULT_HEAP: '1' })).toEqual([]);
    expect(serverHeapArguments(['--enable-source-maps'], { NODE_OPTIONS: '--trace-warnings' })).toEqual(SERVER_HEAP_FLAGS);
  });
});
