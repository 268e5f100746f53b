#!/usr/bin/env node
// The `openwork` executable. First it checks the Node it runs on (before any native addon or
// OpenWork library loads: on another Node they can crash without a word). Then it loads only the
// argument parser and the command list; each command loads what it needs (core, a store driver,
// the MCP SDK) when it runs. The compile cache is switched on before any of that is loaded, so it
// covers every module.
import { isatty } from 'node:tty';
import { cliManifest } from '../cli/cli-version.js';
import { useCompileCache } from '../cli/compile-cache.js';
import { forgetServerEnvironment, serverEnvironment, serverHeapArguments } from '../cli/server-heap.js';
import { unsupportedNodeLine } from '../cli/supported-node.js';

const argv = process.argv.slice(2);
/** What runs on any Node: the version and the help load nothing but the argument parser. */
const ANY_NODE = new Set(['--version', '-v', '--help', '-h', 'help', undefined]);
const refusal = ANY_NODE.has(argv[0]) ? undefined : unsupportedNodeLine(process.version, cliManifest().engines.node);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  if (argv[0] === 'mcp' && process.stdin.isTTY !== true) {
    // An MCP client hears it too, as a log message and as the answer to its first request.
    const { refuseMcpClient } = await import('../mcp/refuse-mcp-client.js');
    await refuseMcpClient(refusal, process.stdin, process.stdout);
    process.stdin.destroy();
  }
  process.exitCode = 2;
} else {
  if (argv[0] === 'mcp') reexecWithServerHeap();
  forgetServerEnvironment(process.env);
  // A reader that goes away (`openwork tools | head -4`) is the end of the output, not a crash
  // (docs/decisions/0093-cli-small-things-a-person-meets.md): the rest of what would be printed
  // is dropped, a running call is stopped as Ctrl-C stops it, and the exit status is the
  // command's own. Any other write error is still thrown.
  for (const stream of [process.stdout, process.stderr]) {
    let readerGone = false;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && !(readerGone && error.code === 'ERR_STREAM_DESTROYED')) throw error;
      if (readerGone) return;
      readerGone = true;
      stream.write = ((...parts: unknown[]) => {
        const callback = parts.find((part) => typeof part === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      }) as typeof stream.write;
      if (stream === process.stdout) process.emit('SIGINT');
    });
  }
  useCompileCache(argv[0], process.env);
  const { runCli } = await import('../cli/run-cli.js');
  const status = await runCli(argv, {
    // Lazy: `process.stdin` takes descriptor 0 over as a stream, which `openwork session` reads
    // without one (flat memory on a huge line).
    get stdin() {
      return process.stdin;
    },
    stdinDescriptor: 0,
    stdout: process.stdout,
    stderr: process.stderr,
    interactive: isatty(0) && process.stderr.isTTY === true,
    environment: process.env,
  });
  process.exitCode = status;
}

/**
 * `openwork mcp` lives as long as the editor: it runs with a small young generation and two
 * malloc arenas (docs/decisions/0107-a-small-server.md). V8 reads heap sizes only when it starts, so the
 * process replaces itself (execve: same pid, descriptors and environment) with the flags added,
 * before anything is loaded; without `process.execve` it runs on as it is.
 */
function reexecWithServerHeap(): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  const script = process.argv[1];
  const flags = serverHeapArguments(process.execArgv, process.env);
  if (typeof execve !== 'function' || script === undefined || flags.length === 0) return;
  try {
    execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, script, ...argv], serverEnvironment(process.env));
  } catch {
    // Runs on with V8's defaults.
  }
}
