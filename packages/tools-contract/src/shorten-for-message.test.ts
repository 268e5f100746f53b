import { describe, expect, it } from 'vitest';
import { shortenForMessage } from './shorten-for-message.js';

describe('shortenForMessage', () => {
  it('keeps short texts, cuts long ones to whole code points and marks the cut', () => {
    expect(shortenForMessage('read', 4)).toBe('read');
    expect(shortenForMessage('reads', 4)).toBe('read…');
    // Astral characters are two UTF-16 units: never split one, count code points.
    expect(shortenForMessage('😀😀😀', 3)).toBe('😀😀😀');
    expect(shortenForMessage('😀😀😀😀', 3)).toBe('😀😀😀…');
    expect(shortenForMessage(`a${'😀'.repeat(10)}`, 2)).toBe('a😀…');
    expect(shortenForMessage('😀'.repeat(1_000), 80)).toBe(`${'😀'.repeat(80)}…`);
  });
});
