import * as z from 'zod';
import { DEFAULT_YIELD_MS, MAX_DESCRIPTION_LENGTH, MAX_WAIT_MS } from './background-limits.js';

/** Background bash (docs/decisions/0032-background-bash-tasks.md): the parameters bash gains; without them a call behaves exactly as §7.9 says. */
export const backgroundInputShape = {
  runInBackground: z
    .boolean()
    .default(false)
    .describe('Run as a background task (a server, a watcher, a long build)'),
  yieldMs: z
    .number()
    .default(DEFAULT_YIELD_MS)
    .describe(`With runInBackground: milliseconds to wait for output before returning (0–${MAX_WAIT_MS}, clamped)`),
  description: z
    .string()
    .trim()
    .min(1, 'must not be empty; leave it out or say in a few words what the command does')
    .max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters: a few words for the person, not the command`)
    .optional()
    .describe('A few words for the person on what the command does (shown in approvals, progress and the task list)'),
  tty: z
    .boolean()
    .default(false)
    .describe('With runInBackground: run on a pseudo-terminal (prompts, REPLs, isatty checks; needs the script program); output is cleaned of control sequences'),
  workdir: z
    .string()
    .min(1, 'must not be empty; leave it out to run in the workspace root')
    .optional()
    .describe('The folder to run in, relative to the workspace root'),
} as const;
