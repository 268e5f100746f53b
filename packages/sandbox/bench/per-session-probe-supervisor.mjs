// The supervisor of `per-session-probe.mjs` (a measurement, not a product part): it runs inside one
// bwrap for the whole probe and starts each command it reads on stdin (one JSON line: command, cwd)
// through the Landlock scope helper (argv[2]), so the command is in a nested Landlock domain and
// cannot signal or trace the supervisor. After each command it kills every other process of the
// PID namespace (`kill(-1)`: all but init and itself) and waits until /proc shows none, then
// writes one JSON line: exit code, signal, merged output.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';

const helper = process.argv[2];
const others = () => readdirSync('/proc').filter((name) => /^\d+$/.test(name) && name !== '1' && name !== String(process.pid));

createInterface({ input: process.stdin }).on('line', (line) => {
  const { command, cwd } = JSON.parse(line);
  const child = spawn(helper, ['/bin/bash', '-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks = [];
  child.stdout.on('data', (chunk) => chunks.push(chunk));
  child.stderr.on('data', (chunk) => chunks.push(chunk));
  // At the command's exit, as when bwrap's PID namespace ends: what it left running (a `setsid`
  // daemon holding the pipes) dies, then the pipes are read to their end.
  child.on('exit', (code, signal) => {
    let left = others();
    while (left.length > 0) {
      try {
        process.kill(-1, 'SIGKILL');
      } catch {
        // ESRCH: the last one ended meanwhile
      }
      left = others();
    }
    child.on('close', () => process.stdout.write(`${JSON.stringify({ code, signal, output: Buffer.concat(chunks).toString('utf8') })}\n`));
  });
});
