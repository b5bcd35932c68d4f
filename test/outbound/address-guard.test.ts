import { describe, expect, it } from 'vitest';
import { canonicalAddress, forbiddenReason, isForbiddenAddress } from '../../lib/outbound';

describe('the SSRF address guard', () => {
  it('refuses loopback in every spelling', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '2130706433', // decimal
      '0177.0.0.1', // octal
      '017700000001',
      '0x7f.1', // hex, short
      '0x7f000001',
      '0x7f.0.0.1',
      '127.1', // short
      '127.0.1',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1', // IPv4-mapped
      '::ffff:7f00:1',
      '[::ffff:127.0.0.1]',
      '0:0:0:0:0:ffff:7f00:1',
      '::127.0.0.1', // IPv4-compatible
      '::7f00:1',
      '::ffff:0:7f00:1', // SIIT
    ]) {
      expect(forbiddenReason(address), address).toMatch(/loopback/);
    }
  });

  it('refuses private, link-local, unique-local, CGNAT, multicast, unspecified and broadcast', () => {
    const cases: [string, RegExp][] = [
      ['10.0.0.1', /private/],
      ['10.255.255.255', /private/],
      ['172.16.0.1', /private/],
      ['172.31.255.1', /private/],
      ['192.168.1.1', /private/],
      ['0xc0.0xa8.1.1', /private/],
      ['3232235777', /private/], // 192.168.1.1
      ['::ffff:10.0.0.1', /private/],
      ['::ffff:c0a8:101', /private/],
      ['169.254.1.1', /link-local/],
      ['fe80::1', /link-local/],
      ['fe80::1%eth0', /link-local/],
      ['febf::1', /link-local/],
      ['fc00::1', /unique-local/],
      ['fdff:ffff::1', /unique-local/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['100.127.255.254', /carrier-grade NAT/],
      ['224.0.0.1', /multicast/],
      ['239.255.255.250', /multicast/],
      ['ff02::1', /multicast/],
      ['0.0.0.0', /unspecified/],
      ['0', /unspecified/],
      ['0.1.2.3', /unspecified/],
      ['::', /unspecified/],
      ['255.255.255.255', /broadcast/],
      ['240.0.0.1', /reserved/],
      ['192.0.2.1', /reserved/],
      ['2001:db8::1', /reserved/],
    ];
    for (const [address, reason] of cases) expect(forbiddenReason(address), address).toMatch(reason);
  });

  it('refuses the cloud metadata addresses, however written', () => {
    for (const address of [
      '169.254.169.254',
      '2852039166',
      '0xa9.0xfe.0xa9.0xfe',
      '0251.0376.0251.0376',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(forbiddenReason(address), address).toBe('a link-local address (cloud metadata)');
    }
    expect(forbiddenReason('fd00:ec2::254')).toBe('a unique-local address (cloud metadata)');
  });

  it('judges NAT64 and 6to4 addresses by the IPv4 address inside; refuses Teredo', () => {
    expect(forbiddenReason('64:ff9b::7f00:1')).toMatch(/loopback/);
    expect(forbiddenReason('64:ff9b::a9fe:a9fe')).toMatch(/metadata/);
    expect(forbiddenReason('64:ff9b::808:808')).toBeNull();
    expect(forbiddenReason('2002:c0a8:0101::1')).toMatch(/private/);
    expect(forbiddenReason('2002:0808:0808::1')).toBeNull();
    expect(forbiddenReason('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toMatch(/Teredo/);
  });

  it('allows public unicast addresses', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '134744072',
      '93.184.215.14',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('refuses what is not an IP address (fail closed)', () => {
    for (const text of ['localhost', 'example.com', '256.1.1.1', '1.2.3.4.5', '08.1.1.1', ''])
      expect(isForbiddenAddress(text), text).toBe(true);
  });

  it('canonicalises IP literals and leaves host names alone', () => {
    expect(canonicalAddress('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalAddress('[::ffff:127.0.0.1]')).toBe('::ffff:7f00:1');
    expect(canonicalAddress('example.com')).toBeNull();
  });
});
