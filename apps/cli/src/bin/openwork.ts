#!/usr/bin/env node
// The `openwork` executable. It loads only the argument parser and the command list; each
// command loads what it needs (core, a store driver, the MCP SDK) when it runs. The compile cache
// is switched on before any of that is loaded, so it covers every module (start-up).
import { isatty } from 'node:tty';
import { useCompileCache } from '../cli/compile-cache.js';

const argv = process.argv.slice(2);
useCompileCache(argv[0], process.env);
const { runCli } = await import('../cli/run-cli.js');
const status = await runCli(argv, {
  // Lazy: `process.stdin` takes descriptor 0 over as a stream, which `openwork session` reads
  // without one (flat memory on a huge line, bounded input).
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
