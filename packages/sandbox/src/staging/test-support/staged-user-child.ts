// A user's OpenWork process for the other-user tests: it runs as whatever uid the test gave it (one
// without a passwd entry, another local user's victim), uses only the package's public entry point
// compiled from the current sources (compileSourcesForChild), runs the bubblewrap self-check and one
// staged bash call, and prints what happened as one JSON line.
import * as fs from 'node:fs';
import { BubblewrapBackend, createSandboxPolicy } from '../../index.js';

const configuration = JSON.parse(process.argv[2] as string) as { readonly workspace: string; readonly home: string; readonly openworkHome: string; readonly script: string };
const backend = new BubblewrapBackend();
const availability = await backend.selfCheck();
let call: { code: number | null; notices: readonly string[]; error?: string } | undefined;
if (availability.available) {
  const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [configuration.workspace], homeDirectory: configuration.home, openworkHome: configuration.openworkHome });
  try {
    const wrapped = backend.wrap({ argv: ['/bin/sh', '-c', configuration.script], cwd: configuration.workspace }, policy);
    const { spawnSync } = await import('node:child_process');
    const [file, ...args] = wrapped.argv as [string, ...string[]];
    const run = spawnSync(file, args, { cwd: configuration.workspace, encoding: 'utf8' });
    const report = await wrapped.release();
    call = { code: run.status, notices: [...(report?.notices ?? []), run.stderr].filter((text) => text !== '') };
  } catch (error) {
    call = { code: null, notices: [], error: error instanceof Error ? error.message : String(error) };
  }
}
process.stdout.write(`${JSON.stringify({ uid: process.getuid?.(), availability, call, workspace: fs.readdirSync(configuration.workspace).sort() })}\n`);
