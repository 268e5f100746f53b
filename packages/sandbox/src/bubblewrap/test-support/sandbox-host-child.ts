// An "openwork process" for the multi-process and crash tests (architecture §3.7): it uses only
// the package's public entry point, compiled from the current sources (compileSourcesForChild),
// and runs the bash calls given in its JSON argument one after another under bubblewrap, each
// released after its process exited, exactly as a process backend does.
import { spawn } from 'node:child_process';
import { BubblewrapBackend, createSandboxPolicy } from '../../index.js';
import type { HostConfiguration } from './host-processes.js';

const configuration = JSON.parse(process.argv[2] as string) as HostConfiguration;
const backend = new BubblewrapBackend();
const policy = createSandboxPolicy({
  mode: configuration.mode,
  workspaceRoots: [configuration.workspace],
  homeDirectory: configuration.home,
  openworkHome: configuration.openworkHome,
  tempRoots: [configuration.temp],
});

let failures = 0;

function run(script: string): Promise<void> {
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: configuration.workspace }, policy);
  // `unarmed`: bwrap as it is between its fork and the moment --die-with-parent takes effect.
  const argv = configuration.unarmed === true ? wrapped.argv.filter((argument) => argument !== '--die-with-parent') : wrapped.argv;
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, {
    cwd: configuration.workspace,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: configuration.home, LANG: 'C', LC_ALL: 'C' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  // The command's own complaints (EROFS for every refused write) are expected; bwrap's are not.
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const complaints = stderr.split('\n').filter((line) => line.startsWith('bwrap:'));
      if (code !== 0 || complaints.length > 0) {
        failures += 1;
        process.stderr.write(`call failed (${String(code ?? signal)}): ${complaints.join(' | ')}\n`);
      }
      resolve();
    });
  }).finally(() => wrapped.release());
}

for (let round = 0; round < configuration.rounds; round += 1) {
  for (const script of configuration.calls) await run(script);
}
process.exitCode = failures === 0 ? 0 : 1;
if (configuration.waitAtEnd === true) {
  process.stdout.write('done\n');
  await new Promise((resolve) => process.stdin.once('end', resolve).once('close', resolve).resume());
}
