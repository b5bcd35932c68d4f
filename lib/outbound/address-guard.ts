// Which addresses an outbound request (automations, outgoing webhooks) may connect to: public
// unicast only. Everything ipaddr.js does not classify as global unicast is refused, which covers
// loopback (127.0.0.0/8, ::1), RFC 1918, link-local (169.254/16 with the metadata address
// 169.254.169.254, fe80::/10), unique-local (fc00::/7 with fd00:ec2::254), CGNAT (100.64/10),
// multicast, unspecified (0.0.0.0/8, ::), broadcast and the reserved and documentation ranges.
// Addresses written another way are read as the system would: decimal (2130706433), octal
// (0177.0.0.1), hex (0x7f.1), short (127.1); IPv6 that embeds an IPv4 address (mapped ::ffff:…,
// compatible ::a.b.c.d, SIIT ::ffff:0:…, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16) is
// judged by that IPv4 address; Teredo is refused outright. Pure: no I/O.
import ipaddr from 'ipaddr.js';

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

function parse(input: string): Parsed | null {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (!ipaddr.isValid(text)) return null;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  switch (range) {
    case 'ipv4Mapped':
      return address.toIPv4Address();
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // NAT64: the IPv4 address is the last 32 bits for /96 (and for 64:ff9b:1::/48 as used)
      return new ipaddr.IPv4(bytes.slice(12, 16));
    case '6to4': // 2002:AABB:CCDD::/48
      return new ipaddr.IPv4(bytes.slice(2, 6));
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, but some stacks still route it as IPv4); not ::1.
      if (range !== 'loopback' && bytes.slice(0, 12).every((byte) => byte === 0) && bytes[12] !== 0) {
        return new ipaddr.IPv4(bytes.slice(12, 16));
      }
      return null;
  }
}

/** Why `address` may not be connected to, or null when it is a public unicast address. A text that is not an IP address is refused. */
export function forbiddenReason(address: string): string | null {
  const parsed = parse(address);
  if (!parsed) return 'not an IP address';
  let ip: Parsed = parsed;
  let range = ip.range();
  if (ip.kind() === 'ipv6') {
    if (range === 'teredo') return 'a Teredo address (it hides an IPv4 address)';
    const inner = embeddedIPv4(ip as ipaddr.IPv6, range);
    if (inner) {
      ip = inner;
      range = inner.range();
    }
  }
  if (range === 'unicast') return null;
  const words: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private (RFC 1918) address',
    linkLocal: 'a link-local address',
    uniqueLocal: 'a unique-local address',
    carrierGradeNat: 'a carrier-grade NAT address',
    multicast: 'a multicast address',
    unspecified: 'an unspecified address',
    broadcast: 'the broadcast address',
    reserved: 'a reserved address',
  };
  const metadata = ip.toString() === '169.254.169.254' || ip.toString() === 'fd00:ec2::254' ? ' (cloud metadata)' : '';
  return `${words[range] ?? `a special-purpose address (${range})`}${metadata}`;
}

export function isForbiddenAddress(address: string): boolean {
  return forbiddenReason(address) !== null;
}

/** The canonical text of an IP literal (brackets and odd spellings removed), or null for a host name. */
export function canonicalAddress(host: string): string | null {
  const parsed = parse(host);
  return parsed ? parsed.toString() : null;
}

/**
 * Why a target URL's host is refused when the URL is saved, or null: only an IP-literal host can be
 * judged then (a host name is judged by the address each request connects to). `allowPrivate`: the
 * deployment's ALLOW_PRIVATE_AUTOMATION_TARGETS, which lifts the check.
 */
export function refusedHost(url: URL, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const literal = canonicalAddress(url.hostname);
  const reason = literal ? forbiddenReason(literal) : null;
  return reason ? `${url.hostname} is ${reason}` : null;
}
