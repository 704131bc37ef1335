import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// Through the guard's module, which is where callers take it from.
import { isRefusedAddress } from '../../../src/adapters/http/guarded-fetch.js';

describe('isRefusedAddress', () => {
  const refused = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '0/8'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'bracketed'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::FFFF:7F00:1', 'upper case'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'IPv4-mapped, long form'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated private'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::10.1.2.3', 'NAT64 of private'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
    ['localhost', 'not an address'],
    ['', 'empty'],
    ['127.0.0.1.nip.io', 'not an address'],
  ];
  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];

  it.each(refused)('refuses %s (%s)', (address) => expect(isRefusedAddress(address)).toBe(true));
  it.each(allowed)('allows %s', (address) => expect(isRefusedAddress(address)).toBe(false));

  const octet = fc.integer({ min: 0, max: 255 });
  const ipv4 = fc.tuple(octet, octet, octet, octet).map((octets) => octets.join('.'));
  const hex = (address: string) => {
    const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };

  it('refuses any address in 10.0.0.0/8', () => {
    fc.assert(fc.property(octet, octet, octet, (b, c, d) => isRefusedAddress(`10.${b}.${c}.${d}`)));
  });

  it('judges every IPv6 form that carries an IPv4 address as that address (mapped, compatible, NAT64, 6to4)', () => {
    fc.assert(
      fc.property(ipv4, (address) => {
        const verdict = isRefusedAddress(address);
        const [high, low] = hex(address);
        const forms = [
          `::ffff:${address}`,
          `::ffff:${high}:${low}`,
          `[::ffff:${address}]`,
          `64:ff9b::${address}`,
          `2002:${high}:${low}::1`,
        ];
        return forms.every((form) => isRefusedAddress(form) === verdict);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses the IPv4-mapped form of any refused IPv4 address', () => {
    const refusedRanges = [
      '10.0.0.0/8',
      '127.0.0.0/8',
      '169.254.0.0/16',
      '172.16.0.0/12',
      '192.168.0.0/16',
      '100.64.0.0/10',
      '0.0.0.0/8',
      '224.0.0.0/3',
    ];
    const refusedIpv4 = fc.tuple(fc.constantFrom(...refusedRanges), fc.integer({ min: 0, max: 0xffff_ffff })).map(([cidr, random]) => {
      const [start = '', length = ''] = cidr.split('/');
      const hostBits = 32 - Number(length);
      const value = (start.split('.').reduce((sum, part) => sum * 256 + Number(part), 0) + (random % 2 ** hostBits)) >>> 0;
      return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
    });
    fc.assert(
      fc.property(refusedIpv4, (address) => {
        const [high, low] = hex(address);
        return isRefusedAddress(address) && isRefusedAddress(`::ffff:${address}`) && isRefusedAddress(`::ffff:${high}:${low}`);
      }),
    );
  });
});
