// A separate process on the same database file, for the multi-process tests. Reads one JSON
// command from argv, waits for a line on stdin (so that every worker starts at the same moment),
// runs it and prints one JSON line with the outcome.
import { createInterface } from 'node:readline';
import { SqliteSessionStore } from '../sqlite-session-store.js';

interface AppendCommand {
  readonly kind: 'append';
  readonly path: string;
  readonly sessionId: string;
  readonly writer: number;
  readonly count: number;
}

interface UndoCommand {
  readonly kind: 'undo';
  readonly path: string;
  readonly sessionId: string;
  readonly changeIds: readonly string[];
  readonly undone: boolean;
}

const command = JSON.parse(process.argv[2] ?? '{}') as AppendCommand | UndoCommand;
const store = await SqliteSessionStore.open({ path: command.path, busyTimeoutMs: 60_000 });
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'go') break;
}
process.stdin.destroy();
try {
  if (command.kind === 'append') {
    for (let index = 0; index < command.count; index += 1) {
      await store.appendMessage(command.sessionId, {
        id: `w${command.writer}-m${index}`,
        role: 'user',
        text: `writer ${command.writer} message ${index}`,
      });
    }
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  } else {
    await store.setUndone(command.sessionId, { changeIds: command.changeIds, undone: command.undone });
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  }
} catch (error) {
  const code = (error as { code?: unknown }).code;
  process.stdout.write(`${JSON.stringify({ ok: false, code, message: (error as Error).message })}\n`);
} finally {
  await store.close();
}
