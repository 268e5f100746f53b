import { access, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BubblewrapBackend, UnavailableSandboxBackend, createSandboxPolicy, type SandboxBackend } from '@openwork/sandbox';
import { InMemorySessionStore } from '@openwork/session-store';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { hasCoreErrorCode } from '../errors/core-error.js';
import type { LanguageModel } from '../model/language-model.js';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { CheckedSandboxBackend } from './checked-sandbox-backend.js';
import { createRuntime } from './create-runtime.js';

const fixtures: CoreFixture[] = [];
async function fixture(options: Parameters<typeof createCoreFixture>[0] = {}): Promise<CoreFixture> {
  const created = await createCoreFixture(options);
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

function schemaProperties(definition: { inputSchema: unknown } | undefined): string[] {
  return Object.keys((definition?.inputSchema as { properties?: object } | undefined)?.properties ?? {});
}

describe('createRuntime (architecture §4)', () => {
  it('creates the OpenWork home, checks the sandbox once and offers escalation when it works', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-core-runtime-')));
    try {
      const home = join(root, 'nested', '.openwork');
      const runtime = await createRuntime({ home, store: new InMemorySessionStore(), homeDirectory: root });
      await access(home);
      expect(runtime.home).toBe(home);
      expect(runtime.sandbox).toEqual({ kind: 'bubblewrap', availability: { available: true } });
      expect(runtime.escalationAvailable).toBe(true);
      await runtime.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('an unavailable sandbox: checked once, no escalation parameters in any schema, and bash runs nothing', async () => {
    let checks = 0;
    const unavailable = new UnavailableSandboxBackend('no namespaces in this container');
    const counting: SandboxBackend = {
      kind: unavailable.kind,
      selfCheck: () => {
        checks += 1;
        return unavailable.selfCheck();
      },
      wrap: (command, policy) => unavailable.wrap(command, policy),
    };
    const machine = await fixture({ sandboxBackend: counting });
    expect(machine.runtime.sandbox).toEqual({ kind: 'unavailable', availability: { available: false, reason: 'no namespaces in this container' } });
    const first = await machine.session();
    const second = await machine.session({ role: 'explorer' });
    for (const session of [first, second]) {
      expect(session.escalationAvailable).toBe(false);
      for (const definition of session.definitions) expect(schemaProperties(definition)).not.toContain('sandboxPermissions');
    }
    expect(schemaProperties(first.definitions.find((definition) => definition.id === 'write'))).toEqual(['path', 'content']);
    if (first.toolIds.includes('bash')) {
      const { result } = await first.callTool('bash', { command: 'echo hi' });
      expect(result.error?.code).toBe('sandbox_unavailable');
      expect(ToolResult.text(result)).toContain('no namespaces in this container');
    }
    expect(checks).toBe(1);
  });

  it('one session object per id; after a restart the session opens from the store', async () => {
    const machine = await fixture();
    const created = await machine.session({ id: 'kept', mode: 'read-only', role: 'explorer' });
    expect(await machine.runtime.openSession('kept')).toBe(created);
    const [a, b] = await Promise.all([machine.runtime.openSession('kept'), machine.runtime.openSession('kept')]);
    expect(a).toBe(created);
    expect(b).toBe(created);
    await expect(machine.runtime.openSession('missing')).rejects.toMatchObject({ code: 'session_not_found' });

    const restarted = await createRuntime({ home: machine.openworkHome, store: machine.store, homeDirectory: machine.home });
    try {
      const reopened = await restarted.openSession('kept');
      expect(reopened).not.toBe(created);
      expect([reopened.mode, reopened.role, reopened.workspaceRoots]).toEqual(['read-only', 'explorer', [machine.workspace]]);
      expect((await restarted.listSessions()).map((record) => record.id)).toEqual(['kept']);
    } finally {
      await restarted.close();
    }
  });

  it('tells what each role is shown without creating a session', async () => {
    const machine = await fixture();
    for (const role of ['default', 'explorer'] as const) {
      const session = await machine.session({ role });
      expect(machine.runtime.toolDefinitions(role)).toEqual(session.definitions);
    }
    expect(machine.runtime.toolDefinitions()).toEqual(machine.runtime.toolDefinitions('default'));
    expect((await machine.store.listSessions()).length).toBe(2);
  });

  it('refuses bad sessions before storing anything', async () => {
    const machine = await fixture();
    for (const options of [
      { workspaceRoots: [] },
      { workspaceRoots: ['relative/path'] },
      { workspaceRoots: [join(machine.root, 'missing')] },
      { workspaceRoots: [machine.workspace], role: 'planner' as 'default' },
    ]) {
      const error = await machine.runtime.createSession(options).catch((caught: unknown) => caught);
      expect(hasCoreErrorCode(error, 'invalid_argument')).toBe(true);
    }
    expect(await machine.store.listSessions()).toEqual([]);
    await machine.store.createSession({ id: 'foreign', workspaceRoots: [machine.workspace], agentRole: 'planner' });
    await expect(machine.runtime.openSession('foreign')).rejects.toThrow(/agent role "planner", which this runtime does not know/);
  });

  it('refuses / as a workspace root in every spelling, on create, update and open, with why and what to do', async () => {
    const machine = await fixture();
    const linkToRoot = join(machine.root, 'to-root');
    await symlink('/', linkToRoot);
    for (const root of ['/', '/..', '//', '/./', linkToRoot]) {
      const error = await machine.runtime.createSession({ workspaceRoots: [machine.workspace, root] }).catch((caught: unknown) => caught);
      expect(hasCoreErrorCode(error, 'invalid_argument'), root).toBe(true);
      expect((error as Error).message).toBe(
        `The workspace root ${JSON.stringify(root)} is / (the whole file system), which openwork refuses as a workspace root: every file outside the protected paths would become writable. Use the project's folder instead; the home folder is allowed.`,
      );
    }
    expect(await machine.store.listSessions()).toEqual([]);
    // HOME is allowed: people work there.
    const session = await machine.runtime.createSession({ workspaceRoots: [machine.home] });
    await expect(session.update({ workspaceRoots: ['/'] })).rejects.toThrow(/is \/ \(the whole file system\)/);
    expect(session.workspaceRoots).toEqual([machine.home]);
    // A session stored with / (by an older version or another client) does not open with it.
    await machine.store.createSession({ id: 'stored-root', workspaceRoots: ['/'], agentRole: 'default' });
    await expect(machine.runtime.openSession('stored-root')).rejects.toThrow(/The workspace root "\/" is \/ \(the whole file system\)/);
  });

  it('refuses bad options with what to pass', async () => {
    await expect(createRuntime({ home: 'relative', store: new InMemorySessionStore() })).rejects.toThrow(/absolute path of the OpenWork home/);
    await expect(createRuntime({ home: '/tmp/x', store: {} as InMemorySessionStore })).rejects.toThrow(/store must be a SessionStore/);
  });

  it('close cancels a running turn and refuses further work', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const waiting: LanguageModel = {
      async *stream(_request, { signal }) {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        yield { type: 'text', text: 'too late' };
      },
    };
    const turn = session.runTurn({ input: 'wait for ever', model: waiting });
    await machine.runtime.close();
    expect((await turn).status).toBe('cancelled');
    expect(machine.runtime.closed).toBe(true);
    await expect(machine.runtime.createSession({ workspaceRoots: [machine.workspace] })).rejects.toMatchObject({ code: 'runtime_closed' });
    await expect(session.messages()).rejects.toMatchObject({ code: 'runtime_closed' });
  });

  it('the checked backend answers with the one self-check and forwards everything else of the backend', async () => {
    const backend = new BubblewrapBackend();
    const checked = new CheckedSandboxBackend(backend, await backend.selfCheck());
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(backend)).filter(
      (name) => name !== 'constructor' && typeof (backend as unknown as Record<string, unknown>)[name] === 'function',
    );
    for (const name of methods) expect(typeof (checked as unknown as Record<string, unknown>)[name]).toBe('function');
    expect(checked.kind).toBe('bubblewrap');
    expect(await checked.selfCheck()).toEqual({ available: true });
    // A home of its own: wrapping installs the Landlock helper in the OpenWork home below it.
    const machine = await fixture();
    const policy = createSandboxPolicy({ workspaceRoots: [machine.workspace], homeDirectory: machine.home, tempRoots: [] });
    const environment = (backend as unknown as { commandEnvironment?: (policy: unknown) => unknown }).commandEnvironment?.(policy) ?? {};
    expect(checked.commandEnvironment(policy)).toEqual(environment);
    const wrapped = checked.wrap({ argv: ['/bin/true'], cwd: machine.workspace }, policy);
    expect(wrapped.argv[0]).toMatch(/bwrap$/);
    await wrapped.release();
    expect(checked.landlockScope(machine.openworkHome)).toEqual(backend.landlockScope(machine.openworkHome));
  });
});
