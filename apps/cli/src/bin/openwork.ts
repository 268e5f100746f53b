#!/usr/bin/env node
// The `openwork` executable. It loads only the argument parser and the command list; each
// command loads what it needs (core, a store driver, the MCP SDK) when it runs.
import { runCli } from '../cli/run-cli.js';

const status = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
  environment: process.env,
});
process.exitCode = status;
