// Who a request comes from, for the per-address limits: the socket's address, or behind trusted
// proxies (SVC_TRUST_PROXY) the rightmost X-Forwarded-For address that no trusted proxy added.
// Every proxy appends the address it received the request from, so entries to the left of what
// the last trusted proxy appended are whatever the client wrote: never trusted. IPv6 clients are
// keyed by their /64, which one subscriber (and one attacker) usually holds whole.
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';
import { headerOf, type AppEnv } from './request.js';

/** false: the socket only; a number: that many proxy hops in front; a list: the proxies' addresses (or CIDR ranges). */
export type TrustProxy = false | number | string[];

const CIDR = /^(.+)\/(\d{1,3})$/;

/** Whether `value` is an IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrRange(value: string): boolean {
  const range = CIDR.exec(value);
  if (!range) return isIP(value) !== 0;
  const bits = Number(range[2]);
  return (isIPv4(range[1]!) && bits <= 32) || (isIPv6(range[1]!) && bits <= 128);
}

/** `::ffff:192.0.2.1` (an IPv4 client of a dual-stack socket) as `192.0.2.1`; brackets dropped. */
function plain(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  return mapped ? mapped[1]! : bare;
}

function trustedList(proxies: string[]): BlockList {
  const list = new BlockList();
  for (const proxy of proxies) {
    const range = CIDR.exec(proxy);
    const address = range ? range[1]! : proxy;
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (range) list.addSubnet(address, Number(range[2]), type);
    else list.addAddress(address, type);
  }
  return list;
}

/**
 * `(forwarded, socket) => client address`, with `forwarded` the X-Forwarded-For header and
 * `socket` the peer address (undefined when the relay is mounted where the socket is out of reach:
 * then the proxy in front is assumed, and the header read as if it came from it).
 */
export function clientAddressOf(trust: TrustProxy): (forwarded: string | undefined, socket: string | undefined) => string | undefined {
  if (trust === false || trust === 0) return (_forwarded, socket) => socket && plain(socket);
  const entries = (forwarded: string | undefined) => (forwarded ? forwarded.split(',').map((entry) => plain(entry.trim())).filter(Boolean) : []);
  if (typeof trust === 'number') {
    // The last `trust` hops are proxies: the socket is the nearest, each entry from the right the next.
    return (forwarded, socket) => {
      const chain = entries(forwarded);
      if (socket !== undefined) chain.push(plain(socket));
      const skip = socket === undefined ? trust - 1 : trust;
      return chain.length ? chain[Math.max(0, chain.length - 1 - skip)] : undefined;
    };
  }
  const trusted = trustedList(trust);
  const isTrusted = (address: string) => {
    const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    return type !== undefined && trusted.check(address, type);
  };
  return (forwarded, socket) => {
    if (socket !== undefined && !isTrusted(plain(socket))) return plain(socket);
    const chain = entries(forwarded);
    for (let i = chain.length - 1; i >= 0; i--) if (!isTrusted(chain[i]!)) return chain[i];
    return chain[0] ?? (socket && plain(socket));
  };
}

/** The rate-limit key of an address: an IPv4 address as it is, an IPv6 address as its /64 (`2001:db8:1:2::/64`). */
export function addressKey(address: string): string {
  const bare = plain(address).replace(/%.*$/, '');
  if (!isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  // An embedded IPv4 tail is two groups; only the first four groups matter here.
  const rightGroups = right.flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - rightGroups.length).fill('0'), ...rightGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/** Where a request comes from, for the per-address limits: its rate-limit key (addressKey). */
export type ClientAddress = (env: AppEnv['Bindings'] | undefined, request: Request | undefined) => string | undefined;

/** The ClientAddress of a relay that trusts `trust` (the socket's address, or X-Forwarded-For through its proxies). */
export function requestAddress(trust: TrustProxy): ClientAddress {
  const addressFrom = clientAddressOf(trust);
  return (env, request) => {
    const forwarded = trust === false ? undefined : headerOf(env, request, 'x-forwarded-for');
    const address = addressFrom(forwarded, env?.incoming?.socket?.remoteAddress);
    return address ? addressKey(address) : undefined;
  };
}
