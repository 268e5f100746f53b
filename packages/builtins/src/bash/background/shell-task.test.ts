import { describe, expect, it } from 'vitest';
import { isShellTask } from './shell-task.js';

describe('isShellTask (which bash_input text is a command)', () => {
  it('a shell reading its input is one, however it is started', () => {
    for (const command of ['bash', 'exec bash --norc -i', '/bin/sh', 'cat setup.sh | sh', 'zsh -i', 'ssh build-host', 'env FOO=1 bash', "bash -c 'bash -i'", 'sh -s -- arg']) {
      expect(isShellTask(command), command).toBe(true);
    }
  });

  it('a shell given its script with -c, and programs that are not shells, are not', () => {
    for (const command of ["bash -lc 'npm run dev'", 'python3 -i', 'exec bc -q', 'node repl.js', './bash-helper.sh', 'sh -ec "make watch"', 'read -p "go? " x']) {
      expect(isShellTask(command), command).toBe(false);
    }
  });
});
