import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  addressClass,
  addressesProblem,
  baseAddressClass,
  guardedLookup,
  proxiedHostProblem,
  RefusedDestinationError,
  type AddressClass,
  type NameResolver,
} from '../../../electron/main/network/address-class';

describe('address classes', () => {
  it.each<[string, AddressClass]>([
    ['93.184.216.34', 'public'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
    ['::ffff:93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['192.0.2.10', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['64:ff9b::7f00:1', 'translation'],
    ['64:ff9b:1::a00:1', 'translation'],
    ['2002:7f00:1::1', 'translation'],
    ['2001:0:4136:e378::1', 'translation'],
    ['::127.0.0.1', 'translation'],
    ['::8.8.8.8', 'translation'],
    ['fec0::1', 'site-local'],
    ['4000::1', 'reserved'],
  ])('%s is %s', (ip, cls) => {
    expect(addressClass(ip)).toBe(cls);
  });

  it('refuses to classify a host name', () => {
    expect(() => addressClass('example.com')).toThrow(/Not an IP address/);
  });
});

describe('the class of the workspace server', () => {
  it('comes from a literal host', () => {
    expect(baseAddressClass({ baseUrl: 'http://127.0.0.1:8080/v1', peerAddress: '93.184.216.34' })).toBe('loopback');
    expect(baseAddressClass({ baseUrl: 'https://[fd00::4]/v1' })).toBe('private');
    expect(baseAddressClass({ baseUrl: 'http://localhost:9/v1' })).toBe('loopback');
  });

  it("comes from the API connection's peer for a name", () => {
    expect(baseAddressClass({ baseUrl: 'https://api.lan/v1', peerAddress: '10.0.0.7' })).toBe('private');
    expect(baseAddressClass({ baseUrl: 'https://api.lan/v1', peerAddress: '::ffff:10.0.0.7' })).toBe('private');
  });

  it('is unknown for a name with no peer yet (only public destinations pass)', () => {
    expect(baseAddressClass({ baseUrl: 'https://api.example.com/v1' })).toBeNull();
    expect(baseAddressClass({ baseUrl: 'https://api.example.com/v1', peerAddress: 'garbage' })).toBeNull();
  });
});

describe('a DNS answer is checked on every address', () => {
  it('refuses an answer whose second address is loopback', () => {
    expect(addressesProblem(['93.184.216.34', '127.0.0.1'], null)).toMatch(/on this computer/);
  });

  it('allows a same-class answer, but not multicast', () => {
    expect(addressesProblem(['10.0.0.1', '10.0.0.2'], 'private')).toBeNull();
    expect(addressesProblem(['10.0.0.1', '127.0.0.1'], 'private')).toMatch(/loopback/);
    expect(addressesProblem(['224.0.0.1'], 'multicast')).toMatch(/multicast/);
  });

  it('refuses an empty answer', () => {
    expect(addressesProblem([], null)).toMatch(/no address/);
  });
});

/** A resolver that answers from a table, like a desk's DNS. */
function tableResolver(table: Record<string, string[]>): NameResolver {
  return (hostname, callback) => {
    const found = table[hostname];
    if (!found) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    callback(
      null,
      found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
}

function lookupOnce(
  lookup: ReturnType<typeof guardedLookup>,
  host: string,
  options: { all?: boolean; family?: number } = {},
): Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[] }> {
  return new Promise((done) => {
    lookup(host, options, (err, address) => {
      done({ err, address });
    });
  });
}

describe('the guarded lookup of direct recording connections', () => {
  const resolve = tableResolver({
    'cdn.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
    'rebind.example.com': ['93.184.216.34', '169.254.169.254'],
    'lan.example.com': ['10.0.0.9'],
  });

  it('passes a public name with all its addresses, or one of the asked family', async () => {
    const lookup = guardedLookup(() => null, resolve);
    expect((await lookupOnce(lookup, 'cdn.example.com', { all: true })).address).toHaveLength(2);
    expect((await lookupOnce(lookup, 'cdn.example.com', { family: 6 })).address).toBe('2606:2800:220:1::1');
  });

  it('refuses a name with one metadata address among public ones', async () => {
    const { err } = await lookupOnce(
      guardedLookup(() => null, resolve),
      'rebind.example.com',
    );
    expect(err).toBeInstanceOf(RefusedDestinationError);
    expect(err?.message).toMatch(/link-local/);
  });

  it('reads the base class at each lookup, so a peer learned later counts', async () => {
    let base: AddressClass | null = null;
    const lookup = guardedLookup(() => base, resolve);
    expect((await lookupOnce(lookup, 'lan.example.com')).err).toBeInstanceOf(RefusedDestinationError);
    base = 'private';
    expect((await lookupOnce(lookup, 'lan.example.com')).address).toBe('10.0.0.9');
  });

  it('passes DNS failures on unchanged', async () => {
    const { err } = await lookupOnce(
      guardedLookup(() => null, resolve),
      'nowhere.test',
    );
    expect(err?.code).toBe('ENOTFOUND');
  });
});

describe('recording hosts reached through a proxy', () => {
  const resolve = tableResolver({ 'intranet.corp': ['10.1.1.1'], 'cdn.example.com': ['93.184.216.34'] });

  it('leaves a name only the proxy can resolve to the proxy', async () => {
    expect(await proxiedHostProblem('storage.desk.test', null, resolve)).toBeNull();
  });

  it('checks a name that resolves on the desk, and a literal', async () => {
    expect(await proxiedHostProblem('intranet.corp', null, resolve)).toMatch(/private network/);
    expect(await proxiedHostProblem('cdn.example.com', null, resolve)).toBeNull();
    expect(await proxiedHostProblem('[::1]', null, resolve)).toMatch(/on this computer/);
    expect(await proxiedHostProblem('169.254.169.254', 'private', resolve)).toMatch(/link-local/);
  });
});
