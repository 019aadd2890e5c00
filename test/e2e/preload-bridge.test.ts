/**
 * The built preload in the page, end to end: `window.api` is what out/preload/index.js exposes
 * (functions only, one per contract method, read-only), its calls reach main through the channels
 * registerIpc registered and the IPC sender guard, with the calling frame's real URL. A frame on
 * another origin gets the same preload, and main refuses its calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_SENDER_RESULT } from '../../electron/main/shell/security';
import { API_METHODS } from '../../electron/shared/contract';
import { ensureBuilt } from './build';
import { checkPageErrorsEachTest } from './page-errors';
import { startHarness, type Harness } from './harness';

let h: Harness;
let foreign: Server;
let foreignOrigin: string;

type PageApi = Record<'getSession' | 'connect', (...args: unknown[]) => Promise<unknown>>;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
  // Another origin on loopback: a server of its own, so on another port than the app's, which alone
  // makes its origin foreign (an origin is scheme, host and port). It is addressed as `localhost`
  // (the app as 127.0.0.1) only so the two read differently in the log. A page with an iframe.
  foreign = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      req.url === '/inner.html'
        ? '<!doctype html><title>inner</title><p>inner</p>'
        : '<!doctype html><title>foreign</title><iframe src="/inner.html"></iframe>',
    );
  });
  await new Promise<void>((ok) => foreign.listen(0, '127.0.0.1', ok));
  foreignOrigin = `http://localhost:${String((foreign.address() as AddressInfo).port)}`;
});

checkPageErrorsEachTest(() => h);

afterAll(async () => {
  await h.close();
  foreign.closeAllConnections();
  await new Promise<void>((ok) => foreign.close(() => ok()));
});

describe('the built preload on the app page', () => {
  it('exposes one read-only function per contract method, and nothing of Electron', async () => {
    const exposure = await h.page.evaluate(() => {
      const api = (window as unknown as { api: PageApi }).api;
      return {
        methods: Object.keys(api).sort(),
        nonFunctions: Object.entries(api)
          .filter(([, v]) => typeof v !== 'function')
          .map(([k]) => k),
        writable: Object.getOwnPropertyDescriptor(window, 'api')?.writable,
        frozen: Object.isFrozen(api),
        require: typeof (window as unknown as { require?: unknown }).require,
        ipcRenderer: 'ipcRenderer' in window,
      };
    });
    expect(exposure).toEqual({
      methods: [...API_METHODS].sort(),
      nonFunctions: [],
      writable: false,
      frozen: true,
      require: 'undefined',
      ipcRenderer: false,
    });
  });

  it('reaches the handler through the guard, which accepts the app page', async () => {
    const result = await h.page.evaluate(() => (window as unknown as { api: PageApi }).api.getSession());
    expect(result).toMatchObject({ ok: true, value: { workspace: null } });
    expect(h.mainLog.filter((line) => line.includes('Refused'))).toEqual([]);
  });
});

describe('a frame on another origin', () => {
  it('is refused, page and iframe alike, and the refusal is logged with its origin', async () => {
    const page = await h.context.newPage();
    try {
      await page.goto(`${foreignOrigin}/index.html`);
      const inner = page.frames().find((frame) => frame.url().endsWith('/inner.html'));
      expect(inner).toBeDefined();
      for (const frame of [page.mainFrame(), inner!]) {
        const result = await frame.evaluate(() => (window as unknown as { api: PageApi }).api.getSession());
        expect(result).toEqual(REFUSED_SENDER_RESULT);
      }
      // A write from there never reaches the handler: no workspace was added.
      const connect = await page.evaluate(() =>
        (window as unknown as { api: PageApi }).api.connect({
          name: 'Foreign',
          baseUrl: 'http://127.0.0.1:1/v1',
          apiKey: 'foreign_key_123',
        }),
      );
      expect(connect).toEqual(REFUSED_SENDER_RESULT);
      expect((await h.session.info()).workspaces).toEqual([]);
      expect(
        h.mainLog.filter((line) => line.includes(`Refused IPC call getSession from ${foreignOrigin}`)),
      ).toHaveLength(2);
      expect(h.mainLog.some((line) => line.includes(`Refused IPC call connect from ${foreignOrigin}`))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
