// Which IP addresses NFT media may come from: the edges of every non-public range, IPv4 inside IPv6, and public
// neighbours that must stay allowed; a name is judged by all its addresses.
import { describe, expect, it } from 'vitest';
import { isLoopback, nonPublicKind, resolvePublic } from '../../../src-main/wallet/chain/publicAddress.ts';

describe('public and non-public addresses', () => {
  it('names the range of a non-public address, at both ends of each range', () => {
    const table: Record<string, string> = {
      '0.0.0.0': 'an unspecified',
      '0.255.255.255': 'an unspecified',
      '10.0.0.0': 'a private',
      '10.255.255.255': 'a private',
      '100.64.0.0': 'a shared (carrier NAT)',
      '100.127.255.255': 'a shared (carrier NAT)',
      '127.0.0.1': 'a loopback',
      '127.255.255.254': 'a loopback',
      '169.254.0.0': 'a link-local',
      '169.254.169.254': 'a link-local',
      '172.16.0.0': 'a private',
      '172.31.255.255': 'a private',
      '192.0.0.8': 'a reserved',
      '192.0.2.1': 'a documentation',
      '192.168.255.255': 'a private',
      '198.18.0.1': 'a reserved',
      '198.19.255.255': 'a reserved',
      '203.0.113.9': 'a documentation',
      '224.0.0.1': 'a multicast',
      '239.255.255.255': 'a multicast',
      '240.0.0.1': 'a reserved',
      '255.255.255.255': 'a reserved',
      '::': 'an unspecified',
      '::1': 'a loopback',
      '::ffff:127.0.0.1': 'a loopback',
      '::ffff:7f00:1': 'a loopback',
      '::ffff:192.168.1.1': 'a private',
      '64:ff9b::a9fe:a9fe': 'a link-local',
      '2002:7f00:1::': 'a loopback',
      '::127.0.0.1': 'a reserved',
      'fc00::1': 'a private',
      'fdff::1': 'a private',
      'fe80::1%eth0': 'a link-local',
      'fec0::1': 'a reserved',
      'ff02::1': 'a multicast',
      '2001::1': 'a reserved',
      '2001:db8::1': 'a documentation',
      '3fff::1': 'a documentation',
      'not an address': 'a reserved',
    };
    for (const [ip, kind] of Object.entries(table)) expect(nonPublicKind(ip), ip).toBe(kind);
  });

  it('allows public addresses next to the ranges, and IPv4 forms of them inside IPv6', () => {
    for (const ip of [
      '1.1.1.1',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '172.15.255.255',
      '172.32.0.0',
      '192.167.255.255',
      '192.169.0.0',
      '223.255.255.255',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:4860:4860::8888',
      '2606:4700:4700::1111',
    ]) {
      expect(nonPublicKind(ip), ip).toBeUndefined();
    }
    expect(isLoopback('127.0.0.2')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
  });

  it('refuses a name when any of its addresses is not public, and allows loopback only when told to', async () => {
    const answers =
      (...addresses: string[]) =>
      async () =>
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    expect(await resolvePublic('a.example', { resolve: answers('8.8.8.8', '2606:4700::1') })).toEqual({
      use: { address: '8.8.8.8', family: 4 },
    });
    expect(await resolvePublic('a.example', { resolve: answers('8.8.8.8', 'fd12::1') })).toEqual({
      refused: { address: 'fd12::1', kind: 'a private' },
    });
    expect(await resolvePublic('a.example', { resolve: answers() })).toEqual({
      refused: { address: 'a.example', kind: 'a reserved' },
    });
    expect(await resolvePublic('[::1]')).toEqual({ refused: { address: '::1', kind: 'a loopback' } });
    expect(await resolvePublic('[::1]', { allowLoopbackForTests: true })).toEqual({
      use: { address: '::1', family: 6 },
    });
    expect(
      await resolvePublic('a.example', { allowLoopbackForTests: true, resolve: answers('127.0.0.1', '10.1.2.3') }),
    ).toEqual({ refused: { address: '10.1.2.3', kind: 'a private' } });
  });
});
