import { describe, expect, it } from 'vitest';
import * as sandbox from './index.js';
import * as testing from './testing.js';

describe('@openwork/sandbox/testing (test helpers are not runtime API)', () => {
  it('the parity corpus builder is exported from /testing only, never from the main entry point', () => {
    expect(Object.keys(testing)).toEqual(['buildParityCorpus']);
    expect(typeof testing.buildParityCorpus).toBe('function');
    expect(Object.keys(sandbox)).not.toContain('buildParityCorpus');
    expect(Object.keys(sandbox).filter((name) => /parity|corpus|fixture/i.test(name))).toEqual([]);
  });
});
