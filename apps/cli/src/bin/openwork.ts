#!/usr/bin/env node
// The `openwork` executable. It loads only the argument parser and the command list; each
// command loads what it needs (core, a store driver, the MCP SDK) when it runs.
import { isatty } from 'node:tty';
import { runCli } from '../cli/run-cli.js';

const status = await runCli(process.argv.slice(2), {
  // Lazy: `process.stdin` takes descriptor 0 over as a stream, which `openwork session` reads
  // without one (flat memory on a huge line, issue 24).
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
