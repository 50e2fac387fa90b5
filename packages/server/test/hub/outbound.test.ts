import { describe, expect, it } from 'vitest';
import { safeProviderError } from '../../src/hub/model/safe-provider-error.js';
import { isPublicAddress } from '../../src/hub/outbound/public-address.js';

describe('the addresses an owner-given URL may reach', () => {
  it('refuses loopback, private, link-local, mapped and reserved addresses; passes public ones', () => {
    const refused = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::FFFF:10.0.0.1',
      // IPv4-compatible (deprecated): BlockList alone would let these through.
      '::127.0.0.1',
      '::10.0.0.1',
      '::7f00:1',
      '::a9fe:a9fe',
      '64:ff9b::7f00:1',
      'not an address',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
    ])
      expect(isPublicAddress(address), address).toBe(true);
  });
});

describe("a provider's error text as the owner sees it", () => {
  it('removes the key used, its echoed edges and anything key-shaped; strips markup; caps the length', () => {
    const key = 'sk-proj-1234567890abcdefWXYZ';
    const text = safeProviderError(
      new Error(
        `Incorrect API key provided: ${key.slice(0, 8)}…${key.slice(-8)} (${key}). Bearer abc.def <img src=x onerror=alert(1)> token=xyz ${'y'.repeat(2000)}`,
      ),
      [key],
    );
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(0, 8));
    expect(text).not.toContain(key.slice(-8));
    expect(text).not.toContain('abc.def');
    expect(text).not.toContain('xyz');
    expect(text).not.toMatch(/[<>]/);
    expect(text.length).toBeLessThanOrEqual(500);
    expect(text.startsWith('Incorrect API key provided: [redacted]')).toBe(true);
  });
});
