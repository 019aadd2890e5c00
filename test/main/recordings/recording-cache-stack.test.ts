/**
 * The run's recording cache as main's stack wires it (createMainStack): the recordings of a
 * workspace are deleted when another workspace is opened, when the workspace is removed, and
 * when the stack closes (quit). The demo service on 127.0.0.1, a real temporary folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { createMainStack, type MainStack } from '../../../electron/main/main-stack';
import { recordingPath } from '../../../electron/main/recordings/recording-protocol';
import type { IpcResult, SessionInfo } from '../../../electron/shared/contract';
import { RESOURCES_DIR } from '../../fixtures/session-rig';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let demo: DemoServer;

beforeAll(async () => {
  demo = await startDemoServer({ resourcesDir: RESOURCES_DIR });
});
afterAll(async () => {
  await demo.close();
});

const tempDir = () => temporaryFolder('vr-recording-stack-');

async function session(stack: MainStack, method: 'openDemo' | 'connect' | 'removeWorkspace', ...args: unknown[]) {
  const result = (await stack.handlers[method](args)) as IpcResult<SessionInfo>;
  if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
  return result.value;
}

/** Plays the whole recording of `sid` through the stack's recording protocol. */
async function play(stack: MainStack, sid: string): Promise<void> {
  const response = await stack.recording(new Request(`vr-recording://local${recordingPath(sid)}`));
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

function recordingFiles(stack: MainStack): string[] {
  const folder = stack.recordings.folder();
  return folder && fs.existsSync(folder) ? fs.readdirSync(folder) : [];
}

describe('recordings of a workspace', () => {
  it('are deleted when another workspace is opened, when the workspace is removed, and at close', async () => {
    const root = path.join(tempDir(), 'recordings');
    const stack = createMainStack({
      userDataDir: tempDir(),
      secrets: createMemoryStore(),
      resourcesDir: RESOURCES_DIR,
      startDemo: () => Promise.resolve({ ...demo, close: () => Promise.resolve() }),
      recordingOrigin: 'vr-recording://local',
      log: quiet,
      peaksCacheDir: null,
      recordingCacheRoot: root,
    });
    const sid = (await session(stack, 'openDemo')).demoInteractions[0]!.sid;
    await play(stack, sid);
    expect(recordingFiles(stack)).toHaveLength(1);

    const other = await session(stack, 'connect', { name: 'Second', baseUrl: demo.baseUrl, apiKey: demo.apiKey });
    await expect.poll(() => recordingFiles(stack)).toEqual([]);

    await play(stack, sid);
    expect(recordingFiles(stack)).toHaveLength(1);
    await session(stack, 'removeWorkspace', other.workspace!.id);
    await expect.poll(() => recordingFiles(stack)).toEqual([]);

    await session(stack, 'openDemo');
    await play(stack, sid);
    const folder = stack.recordings.folder()!;
    expect(fs.readdirSync(folder)).toHaveLength(1);
    await stack.close();
    expect(fs.existsSync(folder)).toBe(false);
    expect(fs.readdirSync(root)).toEqual([]);
  });
});
