/**
 * Preload: exposes the bridge (electron/shared/contract.ts) as `window.api`, functions only,
 * one per contract method, and main's pushes as `window.appEvents` (subscriptions only; the
 * callbacks get the payload, never Electron's event). Raw `ipcRenderer` is never exposed. Runs
 * sandboxed, so it imports only `electron` and the bundled shared contract.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createAppEvents, createRawApi } from '$shared/bridge';
import { channelOf } from '$shared/contract';

contextBridge.exposeInMainWorld(
  'api',
  createRawApi((channel, args) => ipcRenderer.invoke(channel, ...args), channelOf),
);

contextBridge.exposeInMainWorld(
  'appEvents',
  createAppEvents((channel, listener) => {
    const relay = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, relay);
    return () => {
      ipcRenderer.removeListener(channel, relay);
    };
  }),
);
