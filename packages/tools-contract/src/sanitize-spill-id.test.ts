import { describe, expect, it } from 'vitest';
import { sanitizeSpillId } from './index.js';

describe('sanitizeSpillId (§8.2)', () => {
  it('keeps [A-Za-z0-9_-] and replaces every other character with _', () => {
    expect(sanitizeSpillId('toolu_01ABC-xyz')).toBe('toolu_01ABC-xyz');
    expect(sanitizeSpillId('call:1/2\\3 4.txt')).toBe('call_1_2_3_4_txt');
    expect(sanitizeSpillId('..')).toBe('__');
    expect(sanitizeSpillId('../../etc/passwd')).toBe('______etc_passwd');
    expect(sanitizeSpillId('a\u0000b')).toBe('a_b');
    expect(sanitizeSpillId('é😀')).toBe('__');
  });

  it('never returns an empty or overlong name, and long IDs stay distinct', () => {
    expect(sanitizeSpillId('')).toBe('_');
    const first = sanitizeSpillId(`${'a'.repeat(300)}1`);
    const second = sanitizeSpillId(`${'a'.repeat(300)}2`);
    expect(first).toHaveLength(128);
    expect(first).toMatch(/^a{111}-[0-9a-f]{16}$/);
    expect(first).not.toBe(second);
    // Pinned: the hash suffix is part of spill file names on disk, so it never changes between releases.
    expect(first.slice(-16)).toBe('cd62fa9902716211');
    expect(sanitizeSpillId('b'.repeat(128))).toBe('b'.repeat(128));
  });
});
