/**
 * The `ipcMain` stand-in's "http" transport (test/fixtures/preload-bridge.ts), which the benchmark
 * uses in place of Electron's IPC: a posted call runs the handler registered for its channel with
 * the calling frame's URL as the sender (so main's sender guard decides, as in Electron), and
 * fails as Electron's `invoke` does for a channel without a handler or a handler that throws.
 */
import { describe, expect, it } from 'vitest';
import { createIpcMainStandIn, IPC_CALL_PATH } from '../fixtures/preload-bridge';

const APP_URL = 'http://127.0.0.1:4000/index.html';

function post(body: unknown): Request {
  return new Request(`http://127.0.0.1:4000${IPC_CALL_PATH}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('ipcMain stand-in over HTTP', () => {
  it('runs the channel handler with the frame URL as sender and answers its result', async () => {
    const ipcMain = createIpcMainStandIn();
    const seen: string[] = [];
    ipcMain.handle('vr:getInteraction', (event, sid) => {
      seen.push(event.senderFrame?.url ?? '');
      return { ok: true, value: { sid } };
    });

    const answer = await ipcMain.serveCall(
      post({ channel: 'vr:getInteraction', args: ['interaction_1'], frameUrl: APP_URL }),
    );

    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ result: { ok: true, value: { sid: 'interaction_1' } } });
    expect(seen).toEqual([APP_URL]);
  });

  it('refuses an unknown channel, a throwing handler and a body that is not a call', async () => {
    const ipcMain = createIpcMainStandIn();
    ipcMain.handle('vr:fails', () => {
      throw new Error('Refused: not the app window.');
    });

    const unknown = await ipcMain.serveCall(post({ channel: 'vr:nothing', args: [], frameUrl: APP_URL }));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("No handler registered for 'vr:nothing'");

    const thrown = await ipcMain.serveCall(post({ channel: 'vr:fails', args: [], frameUrl: APP_URL }));
    expect(thrown.status).toBe(500);
    expect(await thrown.text()).toBe('Refused: not the app window.');

    for (const body of ['not json', { channel: 'vr:fails', args: 'x', frameUrl: APP_URL }, { channel: 1 }]) {
      expect((await ipcMain.serveCall(post(body))).status).toBe(400);
    }
  });
});
