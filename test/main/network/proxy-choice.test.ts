import { describe, expect, it } from 'vitest';
import {
  choiceFromEnvironment,
  choiceFromPacAnswer,
  describeProxyChoice,
  noProxyMatch,
  parsePacAnswer,
} from '../../../electron/main/network/proxy-choice';
import { createProxyResolver } from '../../../electron/main/network/proxy-resolver';

describe('PAC-style answers from Chromium', () => {
  it('parses entries in order, with default ports and IPv6 hosts', () => {
    expect(parsePacAnswer('PROXY a.corp:3128; HTTPS b.corp; SOCKS5 [fd00::1]:1080;DIRECT')).toEqual([
      { type: 'PROXY', host: 'a.corp', port: 3128 },
      { type: 'HTTPS', host: 'b.corp', port: 443 },
      { type: 'SOCKS5', host: 'fd00::1', port: 1080 },
      { type: 'DIRECT' },
    ]);
  });

  it('sends through the first proxy of "PROXY a:1; DIRECT"', () => {
    const choice = choiceFromPacAnswer('PROXY a:1; DIRECT');
    expect(choice).toMatchObject({ kind: 'proxy', proxyUrl: 'http://a:1', source: 'system', credentials: null });
  });

  it('goes direct for "DIRECT"', () => {
    expect(choiceFromPacAnswer('DIRECT')).toMatchObject({ kind: 'direct', source: 'system' });
  });

  it('uses an HTTPS proxy for "HTTPS b:2"', () => {
    expect(choiceFromPacAnswer('HTTPS b:2')).toMatchObject({ kind: 'proxy', proxyUrl: 'https://b:2' });
  });

  it('skips SOCKS to the next usable entry and says so', () => {
    const choice = choiceFromPacAnswer('SOCKS5 s:1080; PROXY p.corp:8080');
    expect(choice).toMatchObject({ kind: 'proxy', proxyUrl: 'http://p.corp:8080' });
    expect(choice?.kind === 'proxy' && choice.reason).toContain('skipped SOCKS5');
  });

  it('refuses in words when only SOCKS is offered, rather than going direct', () => {
    const choice = choiceFromPacAnswer('SOCKS5 s:1080; SOCKS s:1081');
    expect(choice).toMatchObject({ kind: 'unsupported', scheme: 'SOCKS5' });
    expect(choice?.kind === 'unsupported' && choice.message).toMatch(/SOCKS5 proxy.*Ask IT/);
  });

  it('gives no choice for an empty answer (the environment then decides)', () => {
    expect(choiceFromPacAnswer('  ')).toBeNull();
  });

  it('brackets an IPv6 proxy in its URL', () => {
    expect(choiceFromPacAnswer('PROXY [fd00::5]:3128')).toMatchObject({ proxyUrl: 'http://[fd00::5]:3128' });
  });
});

describe('proxy environment variables', () => {
  const https = 'https://api.example.com/v1/phones';

  it('goes direct with nothing set', () => {
    expect(choiceFromEnvironment(https, {})).toMatchObject({ kind: 'direct', source: 'default' });
  });

  it('reads HTTPS_PROXY and https_proxy, lower case first', () => {
    expect(choiceFromEnvironment(https, { HTTPS_PROXY: 'http://up:3128' })).toMatchObject({
      kind: 'proxy',
      proxyUrl: 'http://up:3128',
      source: 'environment',
    });
    expect(
      choiceFromEnvironment(https, { HTTPS_PROXY: 'http://up:3128', https_proxy: 'http://low:3128' }),
    ).toMatchObject({ proxyUrl: 'http://low:3128' });
  });

  it('falls back to the http proxy for https, but not the other way', () => {
    expect(choiceFromEnvironment(https, { HTTP_PROXY: 'http://p:8080' })).toMatchObject({ proxyUrl: 'http://p:8080' });
    expect(choiceFromEnvironment('http://api.example.com/', { HTTPS_PROXY: 'http://p:8080' })).toMatchObject({
      kind: 'direct',
    });
  });

  it('takes a host:port without a scheme as an http proxy', () => {
    expect(choiceFromEnvironment(https, { https_proxy: 'proxy.corp:3128' })).toMatchObject({
      proxyUrl: 'http://proxy.corp:3128',
    });
  });

  it('decodes credentials in the proxy URL and keeps them out of the URL and reason', () => {
    const choice = choiceFromEnvironment(https, { HTTPS_PROXY: 'http://desk%5Cjo:p%40ss%3Aw0rd@proxy.corp:3128' });
    expect(choice).toMatchObject({
      kind: 'proxy',
      proxyUrl: 'http://proxy.corp:3128',
      credentials: { username: 'desk\\jo', password: 'p@ss:w0rd' },
    });
    expect(describeProxyChoice(choice)).not.toMatch(/p@ss|p%40ss|desk/);
  });

  it('refuses a socks5:// proxy in words', () => {
    const choice = choiceFromEnvironment(https, { HTTPS_PROXY: 'socks5://s:1080' });
    expect(choice).toMatchObject({ kind: 'unsupported', source: 'environment' });
    expect(choice.kind === 'unsupported' && choice.message).toMatch(/^HTTPS_PROXY sends Voice Review through a SOCKS5/);
  });

  it('never proxies this computer', () => {
    const env = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    for (const url of ['http://localhost:8080/v1', 'https://app.localhost/', 'http://127.0.0.5/', 'http://[::1]:9/']) {
      expect(choiceFromEnvironment(url, env)).toMatchObject({ kind: 'direct' });
    }
  });

  it('honours NO_PROXY and no_proxy, lower case first', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com', no_proxy: 'other.org' };
    expect(choiceFromEnvironment(https, env)).toMatchObject({ kind: 'proxy' });
    expect(choiceFromEnvironment('https://x.other.org/', env)).toMatchObject({
      kind: 'direct',
      reason: 'no_proxy lists other.org.',
    });
  });
});

describe('NO_PROXY entries', () => {
  it.each([
    ['api.example.com', 443, 'example.com', 'example.com'],
    ['example.com', 443, '.example.com', '.example.com'],
    ['deep.api.example.com', 443, '*.example.com', '*.example.com'],
    ['api.example.com', 443, 'foo.org, api.example.com:443', 'api.example.com:443'],
    ['anything.net', 443, '*', '*'],
    ['10.1.2.3', 443, '10.0.0.0/8', '10.0.0.0/8'],
    ['192.168.1.9', 443, '192.168.1.9', '192.168.1.9'],
    ['fd00::7', 443, 'fd00::/8', 'fd00::/8'],
    ['::1', 8080, '[::1]:8080', '[::1]:8080'],
    ['api.example.com', 443, 'EXAMPLE.COM', 'EXAMPLE.COM'],
  ])('%s:%i is matched by "%s"', (host, port, list, entry) => {
    expect(noProxyMatch(host, port, list)).toBe(entry);
  });

  it.each([
    ['notexample.com', 443, 'example.com'],
    ['api.example.com', 8443, 'api.example.com:443'],
    ['11.1.2.3', 443, '10.0.0.0/8'],
    ['name.in.ten', 443, '10.0.0.0/8'],
    ['example.com.evil.net', 443, 'example.com'],
    ['api.example.com', 443, ''],
  ])('%s:%i is not matched by "%s"', (host, port, list) => {
    expect(noProxyMatch(host, port, list)).toBeNull();
  });
});

describe('the resolver: Chromium first, the environment where it gives no answer', () => {
  const url = 'https://api.example.com/v1';

  it('uses the proxy Chromium names, even when the environment names another', async () => {
    const resolver = createProxyResolver({
      resolveProxy: () => Promise.resolve('PROXY sys.corp:8080; DIRECT'),
      env: { HTTPS_PROXY: 'http://env:3128' },
    });
    expect(await resolver.resolve(url)).toMatchObject({ kind: 'proxy', proxyUrl: 'http://sys.corp:8080' });
  });

  it('falls back to the environment when there is no Electron', async () => {
    const resolver = createProxyResolver({ env: { HTTPS_PROXY: 'http://env:3128' } });
    expect(await resolver.resolve(url)).toMatchObject({ kind: 'proxy', source: 'environment' });
  });

  it('falls back to the environment when Chromium fails or answers nothing', async () => {
    const env = { HTTPS_PROXY: 'http://env:3128' };
    const failing = createProxyResolver({ resolveProxy: () => Promise.reject(new Error('no session')), env });
    const empty = createProxyResolver({ resolveProxy: () => Promise.resolve(''), env });
    expect(await failing.resolve(url)).toMatchObject({ proxyUrl: 'http://env:3128' });
    expect(await empty.resolve(url)).toMatchObject({ proxyUrl: 'http://env:3128' });
  });

  it('lets the environment name a proxy when the system says DIRECT, and says so', async () => {
    const resolver = createProxyResolver({
      resolveProxy: () => Promise.resolve('DIRECT'),
      env: { https_proxy: 'http://env:3128' },
    });
    const choice = await resolver.resolve(url);
    expect(choice).toMatchObject({ kind: 'proxy', proxyUrl: 'http://env:3128' });
    expect(choice.kind === 'proxy' && choice.reason).toBe(
      "The system's settings say DIRECT; https_proxy names env:3128.",
    );
  });

  it("keeps the system's DIRECT when the environment names nothing", async () => {
    const resolver = createProxyResolver({ resolveProxy: () => Promise.resolve('DIRECT'), env: {} });
    expect(await resolver.resolve(url)).toMatchObject({ kind: 'direct', source: 'system' });
  });

  it('gives up on a Chromium answer that never comes, after the timeout', async () => {
    const resolver = createProxyResolver({
      resolveProxy: () => new Promise<string>(() => undefined),
      env: { HTTPS_PROXY: 'http://env:3128' },
      timeoutMs: 1,
    });
    expect(await resolver.resolve(url)).toMatchObject({ source: 'environment' });
  });
});
