import { describe, expect, it } from 'vitest';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';
import { stagedCommand } from './staged-command.js';
import type { StageMount } from './staged-command.js';

const helper = '/home/u/.openwork/helpers/stage-mount-0123456789abcdef';
const command = { argv: ['/bin/bash', '-c', 'echo hi'], cwd: '/ws' };

function refusal(mounts: readonly StageMount[]): string {
  try {
    stagedCommand(helper, mounts, command);
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxConfigurationError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('stagedCommand: the helper’s argv from typed mounts', () => {
  it('one letter per mount, each followed by exactly its operands, then the program', () => {
    const mounts: StageMount[] = [
      { kind: 'overlay', target: '/ws', lower: '/ws', upper: '/dev/.openwork-stage/0/upper', work: '/dev/.openwork-stage/0/work' },
      { kind: 'readonly-empty', target: '/dev/.openwork-stage' },
      { kind: 'null-device', target: '/ws/.env' },
      { kind: 'bind', source: '/run/agent.sock', target: '/ws/agent.sock' },
      { kind: 'chdir', target: '/ws' },
    ];
    expect(stagedCommand(helper, mounts, command)).toEqual({
      cwd: '/ws',
      argv: [
        helper,
        'OTNBC',
        '/ws',
        'userxattr,lowerdir=/ws,upperdir=/dev/.openwork-stage/0/upper,workdir=/dev/.openwork-stage/0/work',
        '/dev/.openwork-stage',
        '/ws/.env',
        '/run/agent.sock',
        '/ws/agent.sock',
        '/ws',
        '/bin/bash',
        '-c',
        'echo hi',
      ],
    });
  });

  it('nothing to mount is an empty operations argument, never the program in its place', () => {
    expect(stagedCommand(helper, [], command).argv).toEqual([helper, '', '/bin/bash', '-c', 'echo hi']);
  });

  it('a bare program name goes through /bin/sh, which searches PATH (execve does not)', () => {
    expect(stagedCommand(helper, [], { argv: ['git', 'status'], cwd: '/ws' }).argv).toEqual([helper, '', '/bin/sh', '-c', 'exec "$0" "$@"', 'git', 'status']);
  });

  it('refuses an empty argv', () => {
    expect(() => stagedCommand(helper, [], { argv: [], cwd: '/ws' })).toThrow('the command argv is empty');
    expect(() => stagedCommand(helper, [], { argv: [''], cwd: '/ws' })).toThrow('the command argv is empty');
  });

  it('refuses a path with a NUL byte or a relative path, in any role', () => {
    expect(refusal([{ kind: 'null-device', target: '/ws/a\0b' }])).toBe('the target of a staged null-device mount contains a NUL byte: "/ws/a\\u0000b"');
    expect(refusal([{ kind: 'bind', source: 'run/s', target: '/ws/s' }])).toBe('the source of a staged bind mount is not an absolute path: "run/s"');
    expect(refusal([{ kind: 'overlay', target: '/ws\0', lower: '/ws', upper: '/u', work: '/w' }])).toMatch(/^the target of a staged overlay mount contains a NUL byte/);
    expect(refusal([{ kind: 'readonly-empty', target: '' }])).toMatch(/is not an absolute path/);
  });

  it.each([',', ':', '\\', '='])('refuses an overlay folder containing %j, which overlayfs would read as option syntax', (character) => {
    const odd = `/ws/a${character}b`;
    for (const role of ['lower', 'upper', 'work'] as const) {
      const mount: StageMount = { kind: 'overlay', target: '/ws', lower: '/ws', upper: '/u', work: '/w', [role]: odd };
      expect(refusal([mount])).toBe(
        `the ${role} folder of a staged overlay (${JSON.stringify(odd)}) contains ${JSON.stringify(character)}, which overlayfs would read as option syntax; such a folder cannot be staged`,
      );
    }
    // The target is its own argument, not part of the options: any name will do.
    expect(stagedCommand(helper, [{ kind: 'overlay', target: odd, lower: '/ws', upper: '/u', work: '/w' }], command).argv[2]).toBe(odd);
  });
});
