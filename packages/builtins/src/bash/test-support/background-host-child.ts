/**
 * An "openwork process" for the kill -9 test of background bash: a session on the real bubblewrap
 * sandbox that starts two background tasks through a finalized toolset, prints their ids as one
 * JSON line, and then waits to be killed.
 * Argument: `{ workspace, home, token }` as JSON.
 */
import { BubblewrapBackend } from '@openwork/sandbox';
import { ToolResult } from '@openwork/tools-contract';
import { finalizeBuiltinToolset, sessionSandboxPolicy, ToolSessionContext } from '../../index.js';

interface HostArguments {
  readonly workspace: string;
  readonly home: string;
  readonly token: string;
}

const configuration = JSON.parse(process.argv[2] ?? '{}') as HostArguments;
const session = ToolSessionContext.local({
  workingDirectory: configuration.workspace,
  homeDirectory: configuration.home,
  sandbox: new BubblewrapBackend(),
  sessionId: 'kill-9',
  processEnvironment: { PATH: '/usr/bin:/bin', HOME: configuration.home },
});
const toolset = await finalizeBuiltinToolset(session);
const taskIds: string[] = [];
for (const index of [1, 2]) {
  const result = await toolset.call(
    'bash',
    { command: `echo started-${index}; sleep 300; : ${configuration.token}`, runInBackground: true, yieldMs: 0 },
    { callId: `start-${index}`, signal: new AbortController().signal, sandboxPolicy: sessionSandboxPolicy(session, { tempRoots: [] }) },
  );
  const artifact = result.artifacts.find((candidate) => candidate.kind === 'background_task');
  if (artifact === undefined) throw new Error(`task ${index} did not start: ${ToolResult.text(result)}`);
  taskIds.push(String(artifact['taskId']));
}
process.stdout.write(`${JSON.stringify({ taskIds, running: session.backgroundTasks.running().length })}\n`);
setInterval(() => undefined, 60_000);
