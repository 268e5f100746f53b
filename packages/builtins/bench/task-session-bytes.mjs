// The bytes a model receives over one typical background-task session: ten calls through a finalized
// toolset on the real bubblewrap sandbox — start a task (a build that then takes input), poll it with
// bash_output, type into it with bash_input, list the tasks, stop it with bash_kill — counting the
// UTF-8 bytes of each result's text (what the model reads). The task's output is driven by trigger
// files and input, so each call returns the same text on every run (task ids and times have fixed
// lengths). Run with `pnpm --filter @openwork/builtins bench:task-bytes` (it builds first).
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { BubblewrapBackend } from '@openwork/sandbox';
import { SpillDirectory, ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from '../dist/index.js';

const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-task-bytes-')));
let session;
try {
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  const temp = join(root, 'tmp');
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  await mkdir(temp);
  session = new ToolSessionContext({
    workingDirectory: workspace,
    homeDirectory: home,
    sandbox: new BubblewrapBackend(),
    environment: { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C' },
    filesystem: new NodeFileSystem(),
    processBackend: new NodeProcessBackend(),
    spill: new SpillDirectory({ openworkHome: join(home, '.openwork'), sessionId: 'bench', homeDirectory: home }),
  });
  const toolset = await finalizeBuiltinToolset(session);
  if (!toolset.escalationAvailable) throw new Error(`bubblewrap is unavailable here: ${JSON.stringify(await session.sandboxAvailability())}`);
  const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [temp] });

  const rows = [];
  const call = async (tool, input, label) => {
    const result = await toolset.call(tool, input, { callId: `bench-${rows.length + 1}`, signal: new AbortController().signal, sandboxPolicy, progress: () => undefined });
    const text = result.content.filter((part) => part.type === 'text').map((part) => part.text).join('');
    rows.push({ call: `${tool} ${label}`, status: result.status, bytes: Buffer.byteLength(text, 'utf8') });
    if (process.env.SHOW_TEXT === '1') console.log(`--- ${tool} ${label}\n${text}`);
    return { result, text };
  };
  const step = (n) => writeFile(join(workspace, `.step-${n}`), '');

  const command = [
    'echo "build starting"',
    'for i in 1 2 3; do while [ ! -e .step-$i ]; do sleep 0.02; done; echo "compiled part $i of 3"; done',
    'while read -r line; do echo "you typed: $line"; done',
  ].join('\n');
  const { result: started } = await call('bash', { command, runInBackground: true, yieldMs: 300, description: 'build, then read input' }, 'start (runInBackground)');
  const taskId = started.artifacts.find((artifact) => artifact.kind === 'background_task')?.taskId;
  if (taskId === undefined) throw new Error('no task was started');
  await call('bash_output', { taskId }, 'poll, nothing new');
  for (const n of [1, 2, 3]) {
    await step(n);
    const { text } = await call('bash_output', { taskId, waitMs: 10_000 }, `poll, part ${n}`);
    if (!text.includes(`compiled part ${n} of 3`)) throw new Error(`part ${n} did not come: ${text}`);
  }
  await call('bash_input', { taskId, input: 'hello\n' }, 'type a line');
  await call('bash_output', { taskId }, 'poll, nothing new');
  await call('bash_input', { taskId, input: 'world\n' }, 'type a line');
  await call('bash_output', {}, 'list the tasks');
  await call('bash_kill', { taskId }, 'stop the task');

  const width = Math.max(...rows.map((row) => row.call.length));
  for (const [index, row] of rows.entries()) console.log(`${String(index + 1).padStart(2)}. ${row.call.padEnd(width)}  ${String(row.bytes).padStart(5)} bytes  ${row.status}`);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  console.log(`total over ${rows.length} calls: ${total} bytes of result text`);
} finally {
  await session?.backgroundTasks.close();
  await rm(root, { recursive: true, force: true });
}
