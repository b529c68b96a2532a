import ipaddr from 'ipaddr.js';

/**
 * Address classification for the egress guard (docs/guarantees.md#the-egress-guard). Pure logic, no I/O.
 *
 * The rule is an allow-list of what the public Internet is made of rather than a list of bad
 * ranges: an address passes only when ipaddr.js calls it plain `unicast` (so private, loopback,
 * link-local, unspecified, multicast, broadcast, CGNAT, reserved/documentation, unique-local,
 * 6to4/Teredo/NAT64 translation ranges are all refused) and, for IPv6, when it lies in the
 * global unicast block 2000::/3 (ipaddr.js calls e.g. the deprecated IPv4-compatible ::7f00:1
 * "unicast"). IPv4-mapped (::ffff:a.b.c.d) and well-known-prefix NAT64 (64:ff9b::a.b.c.d)
 * addresses are judged by the IPv4 address they reach.
 */

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

export interface AllowEntry {
  readonly cidr: string;
  readonly range: [Addr, number];
}

export type Verdict = { allowed: true; address: string } | { allowed: false; address: string; label: string };

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

/** Cloud metadata endpoints: refused even under a broad EGRESS_ALLOW_CIDRS entry (see isExempt). */
const METADATA: Addr[] = [ipaddr.parse('169.254.169.254'), ipaddr.parse('fd00:ec2::254')];

const LABELS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique-local IPv6',
  rfc6145: 'IPv4-translated IPv6',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  deprecatedSiteLocal: 'site-local IPv6',
  discard: 'discard-only IPv6',
};

/** The address in the form used for judging: IPv4-mapped and NAT64 IPv6 become the IPv4 they reach. */
export function normalizeAddress(input: string): Addr | null {
  if (!ipaddr.isValid(input)) return null;
  const parsed = ipaddr.parse(input);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
    if (v6.match(NAT64_WELL_KNOWN)) {
      const b = v6.toByteArray();
      return ipaddr.fromByteArray(b.slice(12));
    }
    // A zone id (fe80::1%eth0) plays no part in the judgement.
    if (v6.zoneId) return ipaddr.IPv6.parse(input.slice(0, input.indexOf('%')));
  }
  return parsed;
}

/** Parses EGRESS_ALLOW_CIDRS entries; a bare address means that single address. */
export function parseAllowList(cidrs: readonly string[]): AllowEntry[] {
  return cidrs.map((cidr) => {
    const text = cidr.trim();
    try {
      const parsed = text.includes('/') ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), -1];
      const base = parsed[0] as Addr;
      const bits = parsed[1] === -1 ? (base.kind() === 'ipv4' ? 32 : 128) : (parsed[1] as number);
      // Addresses are judged as IPv4 once unmapped, so ::ffff:127.0.0.1/128 means 127.0.0.1/32.
      if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return { cidr: text, range: [(base as ipaddr.IPv6).toIPv4Address(), bits - 96] };
      }
      return { cidr: text, range: [base, bits] };
    } catch {
      throw new Error(`EGRESS_ALLOW_CIDRS: "${cidr}" is not an IP address or CIDR range`);
    }
  });
}

function inRange(addr: Addr, [base, bits]: [Addr, number]): boolean {
  if (addr.kind() !== base.kind()) return false;
  return addr.match(base, bits);
}

function isMetadata(addr: Addr): boolean {
  return METADATA.some((m) => m.kind() === addr.kind() && m.toString() === addr.toString());
}

/**
 * Exempt when an allow entry covers the address. Metadata endpoints need an entry naming exactly
 * them (a /32 or /128): a development `0.0.0.0/0` must not hand out cloud credentials.
 */
function isExempt(addr: Addr, allow: readonly AllowEntry[]): boolean {
  const single = addr.kind() === 'ipv4' ? 32 : 128;
  return allow.some(
    (entry) => inRange(addr, entry.range) && (!isMetadata(addr) || entry.range[1] === single),
  );
}

/** What kind of non-public address this is, or null when it is public unicast. */
export function blockedLabel(addr: Addr): string | null {
  if (isMetadata(addr)) return 'cloud metadata';
  const range = addr.range();
  if (range !== 'unicast') return LABELS[range] ?? `special-purpose (${range})`;
  if (addr.kind() === 'ipv6' && !addr.match(GLOBAL_UNICAST_V6)) return 'non-global IPv6';
  return null;
}

/** Judges one IP literal (as resolved or as written in a URL) against the rule and the exemptions. */
export function judgeAddress(input: string, allow: readonly AllowEntry[]): Verdict {
  const addr = normalizeAddress(input);
  if (!addr) return { allowed: false, address: input, label: 'unparseable' };
  const address = addr.toString();
  const label = blockedLabel(addr);
  if (label === null || isExempt(addr, allow)) return { allowed: true, address };
  return { allowed: false, address, label };
}
