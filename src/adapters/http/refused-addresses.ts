import { isIP } from 'node:net';

/**
 * The addresses the outbound guard refuses: the IANA special-purpose ranges that are not globally reachable
 * (loopback, private, link-local, shared CGNAT, documentation, benchmarking, reserved), multicast and
 * broadcast. A server that fetches user-given URLs must not be turned into a client of its own network
 * (metadata services at 169.254.169.254, admin ports on 127.0.0.1, intranet hosts).
 */
const REFUSED_IPV4 = [
  '0.0.0.0/8', // "this network", including the unspecified 0.0.0.0 (Linux connects it to the local host)
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (CGNAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, where cloud metadata services answer
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // former 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, including the broadcast 255.255.255.255
].map((cidr) => parseCidr(cidr, 32, (address) => BigInt(ipv4ToNumber(address))));

/** IPv6 ranges refused whatever they hold. */
const REFUSED_IPV6 = [
  '64:ff9b:1::/48', // local-use NAT64 (RFC 8215): translates into the operator's own network
  '100::/64', // discard-only
  '2001::/23', // IETF protocol assignments: Teredo (tunnels to any IPv4 address), benchmarking, ORCHID, AMT
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
  '5f00::/16', // segment routing (SRv6) identifiers, not globally reachable
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // former site-local
  'ff00::/8', // multicast
].map((cidr) => parseCidr(cidr, 128, ipv6ToBigInt));

/**
 * IPv6 ranges that carry an IPv4 address which the network (the kernel, a NAT64 gateway, a 6to4 relay) may
 * reach in IPv4: refused when the embedded address is. `shift` is where its 32 bits end from the right.
 */
const IPV4_CARRIERS = [
  { ...parseCidr('::/96', 128, ipv6ToBigInt), shift: 0n }, // IPv4-compatible (::a.b.c.d), also :: and ::1
  { ...parseCidr('::ffff:0:0/96', 128, ipv6ToBigInt), shift: 0n }, // IPv4-mapped (::ffff:a.b.c.d)
  { ...parseCidr('::ffff:0:0:0/96', 128, ipv6ToBigInt), shift: 0n }, // IPv4-translated (SIIT, RFC 2765)
  { ...parseCidr('64:ff9b::/96', 128, ipv6ToBigInt), shift: 0n }, // well-known NAT64 prefix (RFC 6052)
  { ...parseCidr('2002::/16', 128, ipv6ToBigInt), shift: 80n }, // 6to4: 2002:AABB:CCDD::/48
];

/**
 * Whether the guard refuses to connect to this address (an IPv4 or IPv6 literal, brackets and zone allowed).
 * Anything that is not an address is refused too: there is nothing to check, so nothing is let through.
 */
export function isRefusedAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  switch (isIP(bare)) {
    case 4:
      return isRefusedIpv4(ipv4ToNumber(bare));
    case 6:
      return isRefusedIpv6(ipv6ToBigInt(bare));
    default:
      return true;
  }
}

function isRefusedIpv4(value: number): boolean {
  return REFUSED_IPV4.some((range) => range.contains(BigInt(value)));
}

function isRefusedIpv6(value: bigint): boolean {
  if (REFUSED_IPV6.some((range) => range.contains(value))) return true;
  const carrier = IPV4_CARRIERS.find((range) => range.contains(value));
  return carrier !== undefined && isRefusedIpv4(Number((value >> carrier.shift) & 0xffff_ffffn));
}

interface Cidr {
  contains(value: bigint): boolean;
}

function parseCidr(cidr: string, bits: number, toBigInt: (address: string) => bigint): Cidr {
  const [address = '', length = ''] = cidr.split('/');
  const hostBits = BigInt(bits - Number(length));
  const prefix = toBigInt(address) >> hostBits;
  return { contains: (value) => value >> hostBits === prefix };
}

/** A dotted IPv4 address (already checked by isIP) as an unsigned 32-bit number. */
function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/** An IPv6 address (already checked by isIP; `::`, an IPv4 tail and a zone allowed) as a 128-bit number. */
function ipv6ToBigInt(address: string): bigint {
  const withoutZone = address.split('%')[0] ?? '';
  const [head = '', tail] = withoutZone.split('::');
  const groupsOf = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const value = ipv4ToNumber(group);
          return [Math.floor(value / 0x1_0000), value % 0x1_0000];
        });
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const groups = [...headGroups, ...new Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}
