// Which IP addresses main may fetch NFT media from: only globally reachable ones. A crafted NFT must not make the wallet
// send requests into the user's own network (router pages, local services, cloud metadata at 169.254.169.254), so a
// host is resolved first and refused when any of its addresses is private, loopback, link-local, multicast or reserved.
import { lookup } from 'node:dns/promises';
import { isIP, isIPv4 } from 'node:net';

/** What kind of address a refused one is, as a message names it: "a loopback address". */
export type NonPublicKind =
  | 'an unspecified'
  | 'a loopback'
  | 'a private'
  | 'a link-local'
  | 'a shared (carrier NAT)'
  | 'a multicast'
  | 'a reserved'
  | 'a documentation';

/** IPv4 ranges that are not globally reachable (IANA IPv4 Special-Purpose Address Registry), with what they are. */
const IPV4_RANGES: readonly [base: number, bits: number, kind: NonPublicKind][] = [
  [ipv4Number('0.0.0.0'), 8, 'an unspecified'],
  [ipv4Number('10.0.0.0'), 8, 'a private'],
  [ipv4Number('100.64.0.0'), 10, 'a shared (carrier NAT)'],
  [ipv4Number('127.0.0.0'), 8, 'a loopback'],
  [ipv4Number('169.254.0.0'), 16, 'a link-local'],
  [ipv4Number('172.16.0.0'), 12, 'a private'],
  [ipv4Number('192.0.0.0'), 24, 'a reserved'],
  [ipv4Number('192.0.2.0'), 24, 'a documentation'],
  [ipv4Number('192.88.99.0'), 24, 'a reserved'],
  [ipv4Number('192.168.0.0'), 16, 'a private'],
  [ipv4Number('198.18.0.0'), 15, 'a reserved'],
  [ipv4Number('198.51.100.0'), 24, 'a documentation'],
  [ipv4Number('203.0.113.0'), 24, 'a documentation'],
  [ipv4Number('224.0.0.0'), 4, 'a multicast'],
  [ipv4Number('240.0.0.0'), 4, 'a reserved'], // 255.255.255.255 (broadcast) among them
];

function ipv4Number(dotted: string): number {
  return dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function ipv4Kind(value: number): NonPublicKind | undefined {
  // Shifts work on signed 32-bit numbers: compare the top `bits` by division instead.
  return IPV4_RANGES.find(
    ([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
  )?.[2];
}

/** The 16 bytes of a valid IPv6 text (net.isIPv6 checked), an embedded dotted IPv4 tail included. */
function ipv6Bytes(text: string): Uint8Array {
  let address = text.split('%')[0]!; // a zone index (fe80::1%eth0) names an interface, not an address
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    const v4 = ipv4Number(tail[1]!);
    address = `${address.slice(0, -tail[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = address.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

function bytesV4(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

function prefixIs(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((v, i) => bytes[i] === v);
}

function ipv6Kind(bytes: Uint8Array): NonPublicKind | undefined {
  const zeros = (n: number) => bytes.subarray(0, n).every((b) => b === 0);
  if (zeros(15) && bytes[15] === 0) return 'an unspecified';
  if (zeros(15) && bytes[15] === 1) return 'a loopback';
  // Forms that carry an IPv4 address are judged by it: mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 2002:ab:cd::.
  if (zeros(10) && bytes[10] === 0xff && bytes[11] === 0xff) return ipv4Kind(bytesV4(bytes, 12));
  if (prefixIs(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return ipv4Kind(bytesV4(bytes, 12));
  if (prefixIs(bytes, [0x20, 0x02])) return ipv4Kind(bytesV4(bytes, 2));
  // Global unicast is 2000::/3; everything else (::/8 with IPv4-compatible forms, fc00::/7 unique local, fe80::/10
  // link-local, fec0::/10 site-local, ff00::/8 multicast, 64:ff9b:1::/48 local NAT64) is not for the internet.
  if ((bytes[0]! & 0xe0) !== 0x20) {
    if (bytes[0] === 0xff) return 'a multicast';
    if ((bytes[0]! & 0xfe) === 0xfc) return 'a private';
    if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'a link-local';
    return 'a reserved';
  }
  // Inside 2000::/3: 2001::/23 (IETF protocol assignments, Teredo among them), 2001:db8::/32 and 3fff::/20 (documentation).
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2]! < 0x02) return 'a reserved';
  if (prefixIs(bytes, [0x20, 0x01, 0x0d, 0xb8]) || (bytes[0] === 0x3f && bytes[1] === 0xff && bytes[2]! < 0x10))
    return 'a documentation';
  return undefined;
}

/**
 * What kind of non-public address `ip` is (an IPv4 or IPv6 text as node:net accepts it), or undefined when it is a
 * globally reachable one. IPv4 inside IPv6 (mapped, NAT64, 6to4) is judged by its IPv4 address.
 * @example
 * nonPublicKind('::ffff:127.0.0.1'); // 'a loopback'
 * nonPublicKind('93.184.216.34'); // undefined
 */
export function nonPublicKind(ip: string): NonPublicKind | undefined {
  if (isIPv4(ip)) return ipv4Kind(ipv4Number(ip));
  if (isIP(ip.split('%')[0]!) === 6) return ipv6Kind(ipv6Bytes(ip));
  return 'a reserved'; // not an IP address at all: nothing to connect to
}

/** Whether `ip` is on the machine itself (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopback(ip: string): boolean {
  return nonPublicKind(ip) === 'a loopback';
}

/** An address a host name resolved to, checked. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** A resolved address that may not be fetched from, and what kind it is. */
export interface RefusedAddress {
  address: string;
  kind: NonPublicKind;
}

/** Options of {@link resolvePublic}. */
export interface ResolvePublicOptions {
  /**
   * Accept loopback addresses (127.0.0.0/8, ::1): set only by tests, whose servers listen on 127.0.0.1. Every other
   * private or reserved address is refused all the same. Nothing a user or a page controls reaches this.
   */
  allowLoopbackForTests?: boolean;
  /** The resolver (default node:dns `lookup` with all addresses). */
  resolve?: (hostname: string) => Promise<readonly { address: string; family: number }[]>;
}

/**
 * Resolves a URL's host name (an IP literal as it is, IPv6 with or without brackets) and returns the address to
 * connect to, or the first address that may not be used: one non-public address among several refuses the host,
 * since a resolver may rotate them between requests.
 * @throws node:dns errors when the name does not resolve.
 * @example
 * await resolvePublic('localhost'); // { refused: { address: '127.0.0.1', kind: 'a loopback' } }
 */
export async function resolvePublic(
  hostname: string,
  options: ResolvePublicOptions = {},
): Promise<{ use: CheckedAddress } | { refused: RefusedAddress }> {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const family = isIP(host);
  const found =
    family !== 0
      ? [{ address: host, family }]
      : await (options.resolve ?? ((name) => lookup(name, { all: true, verbatim: true })))(host);
  if (found.length === 0) return { refused: { address: host, kind: 'a reserved' } };
  for (const { address } of found) {
    const kind = nonPublicKind(address);
    if (kind === undefined || (kind === 'a loopback' && options.allowLoopbackForTests === true)) continue;
    return { refused: { address, kind } };
  }
  const first = found[0]!;
  return { use: { address: first.address, family: first.family === 6 ? 6 : 4 } };
}
