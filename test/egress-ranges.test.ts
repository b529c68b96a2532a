import { describe, expect, it } from 'vitest';
import { blockedLabel, judgeAddress, normalizeAddress, parseAllowList } from '../src/lib/egress/ranges.ts';

// Pure: address classification only, no sockets, no database.

describe('address rules', () => {
  const none = parseAllowList([]);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT (100.64.0.0/10)'],
    ['100.127.255.254', 'carrier-grade NAT (100.64.0.0/10)'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fd12:3456::1', 'unique-local IPv6'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['::7f00:1', 'non-global IPv6'],
    ['2002:7f00:1::', '6to4'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s as %s', (address, label) => {
    expect(judgeAddress(address, none)).toMatchObject({ allowed: false, label });
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '64:ff9b::808:808',
  ])('lets public unicast %s through', (address) => {
    expect(judgeAddress(address, none).allowed).toBe(true);
  });

  it('exempts what EGRESS_ALLOW_CIDRS lists, IPv4-mapped forms included', () => {
    const allow = parseAllowList(['127.0.0.1/32', '10.0.0.0/8', 'fd12::/16']);
    expect(judgeAddress('127.0.0.1', allow).allowed).toBe(true);
    expect(judgeAddress('::ffff:127.0.0.1', allow).allowed).toBe(true);
    expect(judgeAddress('10.200.0.1', allow).allowed).toBe(true);
    expect(judgeAddress('fd12:3456::1', allow).allowed).toBe(true);
    expect(judgeAddress('127.0.0.2', allow).allowed).toBe(false);
    expect(judgeAddress('192.168.0.1', allow).allowed).toBe(false);
  });

  it('keeps metadata addresses blocked under a broad exemption unless named exactly', () => {
    const broad = parseAllowList(['0.0.0.0/0', '::/0']);
    expect(judgeAddress('169.254.169.254', broad).allowed).toBe(false);
    expect(judgeAddress('fd00:ec2::254', broad).allowed).toBe(false);
    expect(judgeAddress('10.0.0.1', broad).allowed).toBe(true);
    const exact = parseAllowList(['169.254.169.254/32']);
    expect(judgeAddress('169.254.169.254', exact).allowed).toBe(true);
  });

  it('rejects a malformed EGRESS_ALLOW_CIDRS entry loudly', () => {
    expect(() => parseAllowList(['10.0.0.0/33'])).toThrow(/EGRESS_ALLOW_CIDRS/);
    expect(() => parseAllowList(['not-a-cidr'])).toThrow(/EGRESS_ALLOW_CIDRS/);
  });
});

describe('normalizeAddress', () => {
  it('judges IPv4-mapped and NAT64 IPv6 as the IPv4 they reach', () => {
    expect(normalizeAddress('::ffff:10.0.0.1')?.toString()).toBe('10.0.0.1');
    expect(normalizeAddress('64:ff9b::808:808')?.toString()).toBe('8.8.8.8');
  });

  it('drops an IPv6 zone id', () => {
    expect(normalizeAddress('fe80::1%eth0')?.toString()).toBe('fe80::1');
  });

  it('returns null for what is not an IP literal (host names included)', () => {
    expect(normalizeAddress('example.com')).toBeNull();
    expect(normalizeAddress('256.0.0.1')).toBeNull();
    expect(normalizeAddress('')).toBeNull();
  });
});

describe('parseAllowList', () => {
  it('reads a bare address as a single-address range and trims spaces', () => {
    const [v4, v6] = parseAllowList([' 10.1.2.3 ', 'fd12::1']);
    expect(v4!.cidr).toBe('10.1.2.3');
    expect(v4!.range[1]).toBe(32);
    expect(v6!.range[1]).toBe(128);
  });

  it('turns an IPv4-mapped IPv6 range into the IPv4 range it covers', () => {
    const [entry] = parseAllowList(['::ffff:127.0.0.0/104']);
    expect(entry!.range[0].toString()).toBe('127.0.0.0');
    expect(entry!.range[1]).toBe(8);
    expect(judgeAddress('127.1.2.3', [entry!]).allowed).toBe(true);
  });

  it('never lets an IPv4 entry exempt an IPv6 address of the same bits', () => {
    const allow = parseAllowList(['0.0.0.0/0']);
    expect(judgeAddress('fd12::1', allow)).toMatchObject({ allowed: false, label: 'unique-local IPv6' });
  });
});

describe('judgeAddress', () => {
  it('reports the normalized address it judged', () => {
    expect(judgeAddress('::ffff:8.8.8.8', [])).toEqual({ allowed: true, address: '8.8.8.8' });
    expect(judgeAddress('::ffff:127.0.0.1', [])).toEqual({
      allowed: false,
      address: '127.0.0.1',
      label: 'loopback',
    });
  });

  it('refuses what it cannot parse as unparseable, keeping the input', () => {
    expect(judgeAddress('localhost', parseAllowList(['0.0.0.0/0']))).toEqual({
      allowed: false,
      address: 'localhost',
      label: 'unparseable',
    });
  });
});

describe('blockedLabel', () => {
  it('is null for public unicast and names the range otherwise', () => {
    expect(blockedLabel(normalizeAddress('1.1.1.1')!)).toBeNull();
    expect(blockedLabel(normalizeAddress('2606:4700::1111')!)).toBeNull();
    expect(blockedLabel(normalizeAddress('192.168.0.1')!)).toBe('private');
    expect(blockedLabel(normalizeAddress('169.254.169.254')!)).toBe('cloud metadata');
  });
});
