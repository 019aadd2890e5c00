/**
 * Preload: exposes the bridge (electron/shared/contract.ts) as `window.api`, functions only,
 * one per contract method. Raw `ipcRenderer` is never exposed. Runs sandboxed, so it imports
 * only `electron` and the bundled shared contract.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createRawApi } from '../shared/bridge';
import { channelOf } from '../shared/contract';

contextBridge.exposeInMainWorld(
  'api',
  createRawApi((channel, args) => ipcRenderer.invoke(channel, ...args), channelOf),
);
