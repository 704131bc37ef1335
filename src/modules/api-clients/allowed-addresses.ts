import { BlockList, isIP } from 'node:net';
import { AppError } from '../../lib/errors.js';

/** One entry of an allow-list: an address, or a range in CIDR notation. */
function parseEntry(entry: string): { address: string; family: 'ipv4' | 'ipv6'; prefix: number | undefined } | undefined {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family, prefix: undefined };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= (version === 4 ? 32 : 128) ? { address, family, prefix } : undefined;
}

/** The entries as given, each checked; a bad one is a 400 naming it (`allowed_addresses.<index>`). */
export function checkedAddresses(entries: readonly string[]): string[] {
  return entries.map((entry, index) => {
    if (!parseEntry(entry)) throw AppError.invalidField(`allowed_addresses.${index}`, 'api_client_rule_address');
    return entry.trim();
  });
}

/**
 * The addresses a client may call from, as a matcher. An IPv4 address that reaches the server as IPv6
 * (`::ffff:203.0.113.7`, a dual-stack socket) is tested as the IPv4 address it is.
 */
export class AllowedAddresses {
  private readonly list = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const parsed = parseEntry(entry);
      if (!parsed) continue; // stored entries were checked when written
      if (parsed.prefix === undefined) this.list.addAddress(parsed.address, parsed.family);
      else this.list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
  }

  allows(ip: string): boolean {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
    if (mapped) return this.list.check(mapped, 'ipv4');
    const version = isIP(ip);
    return version !== 0 && this.list.check(ip, version === 4 ? 'ipv4' : 'ipv6');
  }
}
