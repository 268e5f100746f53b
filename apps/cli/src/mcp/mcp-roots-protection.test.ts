import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';

/**
 * MCP roots never lower a tier (docs/decisions/0098-mcp-roots-never-lower-a-tier.md): a client root
 * at HOME, above it, at or inside the OpenWork home, or at a credential or protected entry is not
 * used as a workspace root — the client is told why in a log message — and the session keeps its
 * other roots, or `--workspace` when none is left. End to end: `openwork mcp` (the built bundle)
 * driven by the SDK's own client.
 */
let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);

beforeEach(async () => {
  sandbox = await createCliSandbox();
  await mkdir(join(sandbox.home, '.ssh'), { recursive: true });
  await mkdir(join(sandbox.home, '.config', 'git'), { recursive: true });
  await mkdir(join(sandbox.openworkHome, 'notes'), { recursive: true });
  await writeFile(join(sandbox.workspace, 'where.txt'), 'workspace\n');
});

afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe('openwork mcp: client roots that would lower a tier are refused and said', () => {
  it('a root at HOME is refused: the session keeps --workspace, the client is told why', async () => {
    await writeFile(join(sandbox.home, 'where.txt'), 'home\n');
    const { client, logs } = await connect({ roots: () => [sandbox.home] });
    // Relative paths resolve in the first workspace root: the fallback, not HOME.
    expect(resultText(await client.callTool({ name: 'read', arguments: { path: 'where.txt' } }))).toBe('1\tworkspace');
    await vi.waitFor(() => expect(logs().join('\n')).toContain(`ignored the client's root file://${sandbox.home}: it is your home folder`), { timeout: 5000 });
    expect(logs().join('\n')).not.toContain(`workspace roots ${sandbox.home}`);
  });

  it('roots at the OpenWork home, inside it, above HOME, at a credential or a start-up entry are each refused; a project root beside them is kept', async () => {
    const project = join(sandbox.root, 'project');
    await mkdir(project);
    await writeFile(join(project, 'where.txt'), 'project\n');
    const refused = [sandbox.openworkHome, join(sandbox.openworkHome, 'notes'), sandbox.root, join(sandbox.home, '.ssh'), join(sandbox.home, '.config', 'git')];
    const { client, logs } = await connect({ roots: () => [...refused, project] });
    expect(resultText(await client.callTool({ name: 'read', arguments: { path: 'where.txt' } }))).toBe('1\tproject');
    const write = await client.callTool({ name: 'write', arguments: { path: join(sandbox.openworkHome, 'notes', 'planted.txt'), content: 'x\n' } });
    expect(write.isError).toBe(true);
    expect(await exists(join(sandbox.openworkHome, 'notes', 'planted.txt'))).toBe(false);
    const text = () => logs().join('\n');
    await vi.waitFor(() => {
      expect(text()).toContain(`root file://${sandbox.openworkHome}: it is inside the OpenWork home`);
      expect(text()).toContain(`root file://${join(sandbox.openworkHome, 'notes')}: it is inside the OpenWork home`);
      expect(text()).toContain(`root file://${sandbox.root}: it holds your home folder`);
      expect(text()).toContain(`root file://${join(sandbox.home, '.ssh')}: it is a credential path`);
      expect(text()).toContain(`root file://${join(sandbox.home, '.config', 'git')}: it is a protected path`);
      expect(text()).toContain(`workspace roots ${project}`);
    }, { timeout: 5000 });
    expect(await readFile(join(project, 'where.txt'), 'utf8')).toBe('project\n');
  });
});
