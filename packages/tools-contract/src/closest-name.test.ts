import { describe, expect, it } from 'vitest';
import { closestName } from './index.js';

const TOOLS = ['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash', 'conversation_history'];

describe('closestName: "did you mean" for a mistyped tool or command', () => {
  it('finds the intended name one or two edits away, swaps of neighbours included', () => {
    expect(closestName('reed', TOOLS)).toBe('read');
    expect(closestName('Read', TOOLS)).toBe('read');
    expect(closestName('gerp', TOOLS)).toBe('grep');
    expect(closestName('bsah', TOOLS)).toBe('bash');
    expect(closestName('conversation_histroy', TOOLS)).toBe('conversation_history');
    expect(closestName('cal', ['tools', 'call', 'session', 'mcp'])).toBe('call');
    expect(closestName('sesion', ['tools', 'call', 'session', 'mcp'])).toBe('session');
  });

  it('suggests nothing for a name that is far from every candidate, or already exact', () => {
    expect(closestName('deploy', TOOLS)).toBeUndefined();
    expect(closestName('rd', TOOLS)).toBeUndefined();
    expect(closestName('read', TOOLS)).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });
});
