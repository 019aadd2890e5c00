/**
 * The app protocol (electron/main/shell/app-protocol.ts) serving a temp folder laid out like the built
 * renderer, with secrets placed next to it that must never be served.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler, resolveAppPath, withAppCors } from '../../../electron/main/shell/app-protocol';
import { APP_INDEX_URL, APP_ORIGIN, CONTENT_SECURITY_POLICY } from '../../../electron/main/shell/security';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const SECRET = 'TOP-SECRET-CONTENT-outside-the-app';
let base: string;
let root: string;
let serve: (request: Request) => Promise<Response>;

beforeAll(() => {
  base = temporaryFolder('vr-app-protocol-');
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets', 'fonts'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Voice Review</title>');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(join(root, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'assets', 'fonts', 'inter.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  writeFileSync(join(root, 'assets', 'decoder.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
  writeFileSync(join(root, 'assets', 'data.weird'), 'x');
  writeFileSync(join(root, 'with space.txt'), 'spaced');
  // What must stay unreachable: a file above the root, a sibling folder sharing the root's prefix,
  // and a symbolic link inside the root pointing out of it.
  writeFileSync(join(base, 'secret.txt'), SECRET);
  mkdirSync(join(base, 'renderer-private'));
  writeFileSync(join(base, 'renderer-private', 'secret.txt'), SECRET);
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
  serve = createAppProtocolHandler({ rootDir: root });
});

const get = (url: string, init?: RequestInit) => serve(new Request(url, init));

describe('app://voice-review serves the built renderer', () => {
  it('serves index.html as HTML with the CSP header, also for the bare origin', async () => {
    for (const url of [APP_INDEX_URL, `${APP_ORIGIN}/`]) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain('<title>Voice Review</title>');
    }
  });

  it('gives each asset its MIME type, and unknown files a type the page cannot run', async () => {
    const expected: Record<string, string> = {
      'assets/index-abc123.js': 'text/javascript; charset=utf-8',
      'assets/index-abc123.css': 'text/css; charset=utf-8',
      'assets/logo.svg': 'image/svg+xml',
      'assets/fonts/inter.woff2': 'font/woff2',
      'assets/decoder.wasm': 'application/wasm',
      'assets/data.weird': 'application/octet-stream',
      'with%20space.txt': 'text/plain; charset=utf-8',
    };
    for (const [path, type] of Object.entries(expected)) {
      const res = await get(`${APP_ORIGIN}/${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(res.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(Number(res.headers.get('content-length')), path).toBe((await res.arrayBuffer()).byteLength);
    }
  });

  it('answers 404 for missing files, folders and other hosts, with the CSP still set', async () => {
    for (const url of [
      `${APP_ORIGIN}/nope.js`,
      `${APP_ORIGIN}/assets`,
      `${APP_ORIGIN}/assets/`,
      'app://other-host/index.html',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('never serves anything outside the folder, however the path is written', async () => {
    const attempts = [
      `${APP_ORIGIN}/../secret.txt`,
      `${APP_ORIGIN}/assets/../../secret.txt`,
      `${APP_ORIGIN}/%2e%2e/secret.txt`,
      `${APP_ORIGIN}/%2E%2E/%2e%2e/secret.txt`,
      `${APP_ORIGIN}/..%2fsecret.txt`,
      `${APP_ORIGIN}/%2e%2e%2fsecret.txt`,
      `${APP_ORIGIN}/assets/..%2f..%2fsecret.txt`,
      `${APP_ORIGIN}/..%5csecret.txt`,
      `${APP_ORIGIN}/%252e%252e/secret.txt`,
      `${APP_ORIGIN}/..%2frenderer-private%2fsecret.txt`,
      `${APP_ORIGIN}/assets/link.txt`,
      `${APP_ORIGIN}/index.html%00.png`,
      `${APP_ORIGIN}/%E0%A4%A`,
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect(res.status, url).not.toBe(200);
      expect([400, 403, 404], url).toContain(res.status);
      expect(await res.text(), url).not.toContain(SECRET);
    }
    // The encoded slash cannot be normalised away by the URL parser: it is refused outright.
    expect((await get(`${APP_ORIGIN}/..%2fsecret.txt`)).status).toBe(403);
  });

  it('resolves paths only inside the root', () => {
    expect(resolveAppPath(root, '/')).toBe(join(root, 'index.html'));
    expect(resolveAppPath(root, '/assets/logo.svg')).toBe(join(root, 'assets', 'logo.svg'));
    expect(resolveAppPath(root, '/../secret.txt')).toBeNull();
    expect(resolveAppPath(root, '/%2e%2e/secret.txt')).toBeNull();
    expect(resolveAppPath(root, '/a//b')).toBeNull();
  });

  it('answers HEAD without a body and refuses other methods with 405 and Allow', async () => {
    const head = await get(APP_INDEX_URL, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const res = await get(APP_INDEX_URL, {
        method,
        ...(method === 'POST' || method === 'PUT' || method === 'PATCH' ? { body: 'x' } : {}),
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toBe('GET, HEAD');
    }
  });
});

describe('recordings fetched cross-origin by the app page', () => {
  const upstream = () =>
    Promise.resolve(new Response('audio', { status: 206, headers: { 'Content-Range': 'bytes 0-4/10' } }));

  it('lets only the app origin (and the dev server in development) read the response', async () => {
    const wrapped = withAppCors(upstream, 'http://localhost:5173');
    const fromApp = await wrapped(new Request('vr-recording://local/recording/x', { headers: { Origin: APP_ORIGIN } }));
    expect(fromApp.status).toBe(206);
    expect(fromApp.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(fromApp.headers.get('vary')).toContain('Origin');
    expect(await fromApp.text()).toBe('audio');

    const fromDev = await wrapped(
      new Request('vr-recording://local/recording/x', { headers: { Origin: 'http://localhost:5173' } }),
    );
    expect(fromDev.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');

    for (const origin of ['https://evil.example', 'app://voice-review.evil', 'null', 'file://']) {
      const res = await wrapped(new Request('vr-recording://local/recording/x', { headers: { Origin: origin } }));
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    const noDev = await withAppCors(upstream)(
      new Request('vr-recording://local/recording/x', { headers: { Origin: 'http://localhost:5173' } }),
    );
    expect(noDev.headers.get('access-control-allow-origin')).toBeNull();
  });
});
