import { describe, expect, it } from 'vitest';
import { SandboxConfigurationError, SandboxError, SandboxUnavailableError, UnavailableSandboxBackend, createSandboxPolicy } from '../index.js';

describe('SandboxUnavailableError', () => {
  it('isInstance recognises this error only, not every SandboxError', () => {
    let thrown: unknown;
    try {
      new UnavailableSandboxBackend('no bwrap here').wrap({ argv: ['true'], cwd: '/' }, createSandboxPolicy({ workspaceRoots: ['/'], homeDirectory: '/' }));
    } catch (error) {
      thrown = error;
    }
    expect(SandboxUnavailableError.isInstance(thrown)).toBe(true);
    expect((thrown as SandboxUnavailableError).reason).toBe('no bwrap here');
    expect(SandboxError.isInstance(thrown)).toBe(true);
    expect(SandboxUnavailableError.isInstance(new SandboxConfigurationError('bad root'))).toBe(false);
    expect(SandboxUnavailableError.isInstance({ reason: 'forged', name: 'SandboxUnavailableError' })).toBe(false);
  });
});
