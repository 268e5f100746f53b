import { describe, expect, it } from 'vitest';
import { BubblewrapBackend, SeatbeltBackend, UnavailableSandboxBackend, selectSandboxBackend } from '../index.js';

describe('selectSandboxBackend', () => {
  it('picks Seatbelt on macOS and bubblewrap on Linux', () => {
    expect(selectSandboxBackend({ platform: 'darwin' })).toBeInstanceOf(SeatbeltBackend);
    const linux = selectSandboxBackend({ platform: 'linux', bubblewrap: { bwrapPath: '/opt/bwrap' } });
    expect(linux).toBeInstanceOf(BubblewrapBackend);
    expect((linux as BubblewrapBackend).bwrapPath).toBe('/opt/bwrap');
  });

  it('is unavailable elsewhere, with a reason, and never wraps (10d)', async () => {
    const backend = selectSandboxBackend({ platform: 'win32' });
    expect(backend).toBeInstanceOf(UnavailableSandboxBackend);
    expect(backend.kind).toBe('unavailable');
    await expect(backend.selfCheck()).resolves.toEqual({ available: false, reason: expect.stringContaining('win32') });
  });

  it('returns an override as is, whatever the platform', () => {
    const override = new UnavailableSandboxBackend('disabled by the embedder');
    expect(selectSandboxBackend({ platform: 'linux', override })).toBe(override);
  });

  it('defaults to the platform this process runs on', () => {
    const expected = process.platform === 'linux' ? 'bubblewrap' : process.platform === 'darwin' ? 'seatbelt' : 'unavailable';
    expect(selectSandboxBackend().kind).toBe(expected);
  });
});
