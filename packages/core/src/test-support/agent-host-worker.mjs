// One host of the sub-agent process tests: a real runtime in its own Node process over a shared
// store (a SQLite file or a PostgreSQL schema). Reads one JSON command from argv and prints one
// JSON line per event. Modes:
// - delegate: creates the parent session, whose model delegates `children` explorers; each child
//   lists the workspace, says what it saw, then works until killed ("child-blocked").
// - serve: only executes child runs it can take (new ones, or those whose host stopped renewing);
//   each child answers "done by <host>" ("ran").
// SIGTERM closes the runtime and the store; the tests also kill -9 it.
import { createRuntime } from '@openwork/core';

const command = JSON.parse(process.argv[2] ?? '{}');
const print = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

async function openStore() {
  if (command.store === 'sqlite') {
    const { SqliteSessionStore } = await import('@openwork/store-sqlite');
    return SqliteSessionStore.open({ path: command.location, busyTimeoutMs: 30_000 });
  }
  const { PostgresSessionStore } = await import('@openwork/store-postgres');
  return PostgresSessionStore.connect({ connectionString: command.location, schema: command.schema, maxConnections: 4 });
}

function model(answer) {
  return {
    async *stream(request, { signal }) {
      for (const part of await answer(request, signal)) yield part;
    },
  };
}

const blockedChild = model(async (request, signal) => {
  if (!request.messages.some((message) => message.role === 'tool')) {
    return [{ type: 'text', text: `looked at the tree (${command.host})` }, { type: 'tool_call', id: 'list-1', toolId: 'list', input: JSON.stringify({ path: command.workspace }) }];
  }
  print({ event: 'child-blocked', agentId: request.sessionId, host: command.host });
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }));
});

const servingChild = model(async (request) => {
  print({ event: 'ran', agentId: request.sessionId, host: command.host });
  const tools = request.messages.filter((message) => message.role === 'tool').map((message) => message.text.split('\n')[0]);
  return [{ type: 'text', text: `done by ${command.host}; earlier tool results: ${JSON.stringify(tools)}` }];
});

const store = await openStore();
const runtime = await createRuntime({
  home: command.openworkHome,
  store,
  homeDirectory: command.home,
  environment: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: command.home, LANG: 'C.UTF-8' },
  sandboxPolicy: { tempRoots: [] },
  agentModels: () => (command.mode === 'delegate' ? blockedChild : servingChild),
  agents: { leaseMs: command.leaseMs, hostId: command.host, maxRunning: 8 },
});
process.on('SIGTERM', () => {
  void runtime.close().then(() => store.close()).then(() => process.exit(0));
});
setInterval(() => undefined, 60_000);

if (command.mode === 'delegate') {
  const parent = await runtime.createSession({ id: command.parentId, workspaceRoots: [command.workspace] });
  let step = 0;
  const operations = Array.from({ length: command.children }, (_, index) => ({ kind: 'delegate', role: 'explorer', prompt: `task ${index}` }));
  const outcome = await parent.runTurn({
    input: 'split the work',
    model: model(async () => (step++ === 0 ? [{ type: 'tool_call', id: 'send-1', toolId: 'agent_send', input: JSON.stringify({ operations }) }] : [{ type: 'text', text: 'waiting' }])),
  });
  const ids = (await store.listAgentRuns(parent.id)).map((run) => run.id);
  print({ event: 'delegated', ids, status: outcome.status });
}
print({ event: 'ready', host: command.host });
