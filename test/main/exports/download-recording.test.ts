/**
 * Saving out of the app through main's stack: the recording download (bytes as served, from the
 * run's recording cache, atomic, cancellable, one at a time) and the transcript export, with the
 * save dialog stood in by a chooser of temporary paths. The demo service on 127.0.0.1.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { writeAtomically } from '../../../electron/main/exports/atomic-write';
import { electronSaveChooser, type SaveDialogRequest } from '../../../electron/main/exports/save-dialog';
import { recordingExtension } from '../../../electron/main/exports/service';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { createMainStack, type MainStack } from '../../../electron/main/main-stack';
import { recordingPath } from '../../../electron/main/recordings/recording-protocol';
import type { ApiMethod, IpcResult, RecordingSessionPush } from '../../../electron/shared/contract';
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

const tempDir = () => temporaryFolder('vr-download-');

/** A stack on the demo service whose save dialog is `choose` (every request is kept in `asked`). */
async function demoStack(choose: (request: SaveDialogRequest) => Promise<string | null>) {
  const asked: SaveDialogRequest[] = [];
  const stack = createMainStack({
    userDataDir: tempDir(),
    secrets: createMemoryStore(),
    resourcesDir: RESOURCES_DIR,
    startDemo: () => Promise.resolve({ ...demo, close: () => Promise.resolve() }),
    recordingOrigin: 'vr-recording://local',
    log: quiet,
    peaksCacheDir: null,
    recordingCacheRoot: path.join(tempDir(), 'recordings'),
    chooseSavePath: (request) => {
      asked.push(request);
      return choose(request);
    },
  });
  await call(stack, 'openDemo');
  return { stack, asked, sid: demo.interactions[0]!.sid };
}

async function call(stack: MainStack, method: ApiMethod, ...args: unknown[]): Promise<IpcResult<unknown>> {
  return stack.handlers[method](args);
}

const demoFile = (sid: string) => fs.readFileSync(path.join(RESOURCES_DIR, 'demo', 'recordings', `${sid}.ogg`));

describe('downloading a recording', () => {
  it('saves the bytes as served under a name from the SID, start time and content type', async () => {
    const folder = tempDir();
    const { stack, asked, sid } = await demoStack((r) => Promise.resolve(path.join(folder, r.defaultName)));
    // The call's recording session is told how the download goes.
    const pushed: RecordingSessionPush[] = [];
    await stack.handlers.openRecordingSession([sid], {
      frameKey: '1:1',
      push: (_channel, payload) => pushed.push(payload as RecordingSessionPush),
    });
    const result = await call(stack, 'downloadRecording', sid);
    expect(result).toEqual({ ok: true, value: { saved: asked[0]?.defaultName } });
    expect(asked[0]?.defaultName).toMatch(/^interaction_.*_\d{4}-\d\d-\d\d_\d{4}\.ogg$/);
    expect(asked[0]).toMatchObject({ title: 'Download recording', filters: [{ extensions: ['ogg'] }] });
    const saved = path.join(folder, asked[0]!.defaultName);
    expect(fs.readFileSync(saved).equals(demoFile(sid))).toBe(true);
    expect(fs.statSync(saved).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(folder)).toEqual([asked[0]!.defaultName]);
    const downloads = pushed.flatMap((p) => (p.event.type === 'download' ? [p.event.progress] : []));
    expect(downloads[0]).toEqual({ receivedBytes: 0, totalBytes: demoFile(sid).length });
    expect(downloads.at(-1)).toBeNull();
    await stack.close();
  });

  it('serves a recording the player already fetched from the run cache (no second download)', async () => {
    const folder = tempDir();
    const { stack, sid } = await demoStack(() => Promise.resolve(path.join(folder, 'call.ogg')));
    const response = await stack.recording(new Request(`vr-recording://local${recordingPath(sid)}`));
    await response.arrayBuffer();
    const cached = fs.readdirSync(stack.recordings.folder()!);
    expect(cached).toHaveLength(1);
    expect((await call(stack, 'downloadRecording', sid)).ok).toBe(true);
    expect(fs.readdirSync(stack.recordings.folder()!)).toEqual(cached);
    expect(fs.readFileSync(path.join(folder, 'call.ogg')).equals(demoFile(sid))).toBe(true);
    await stack.close();
  });

  it('writes nothing when the dialog is cancelled or the download is cancelled before writing', async () => {
    const folder = tempDir();
    const cancelled = await demoStack(() => Promise.resolve(null));
    expect(await call(cancelled.stack, 'downloadRecording', cancelled.sid)).toEqual({
      ok: true,
      value: { saved: null },
    });
    await cancelled.stack.close();

    const racing = await demoStack(async () => {
      await call(racing.stack, 'cancelDownload', racing.sid);
      return path.join(folder, 'call.ogg');
    });
    expect(await call(racing.stack, 'downloadRecording', racing.sid)).toEqual({ ok: true, value: { saved: null } });
    expect(fs.readdirSync(folder)).toEqual([]);
    await racing.stack.close();
  });

  it('refuses a second download of the same recording while one runs, with words', async () => {
    let answer: (p: string | null) => void = () => undefined;
    const { stack, asked, sid } = await demoStack(() => new Promise((resolve) => (answer = resolve)));
    const first = call(stack, 'downloadRecording', sid);
    await expect.poll(() => asked.length).toBe(1);
    await expect
      .poll(async () => {
        const second = await call(stack, 'downloadRecording', sid);
        return second.ok ? null : second.error.message;
      })
      .toMatch(/already being downloaded/);
    answer(null);
    expect(await first).toEqual({ ok: true, value: { saved: null } });
    await stack.close();
  });

  it('says in words when the folder cannot be written, and leaves nothing', async () => {
    const folder = tempDir();
    const { stack, sid } = await demoStack(() => Promise.resolve(path.join(folder, 'gone', 'call.ogg')));
    const result = await call(stack, 'downloadRecording', sid);
    expect(result.ok ? null : result.error.kind).toBe('bad_input');
    expect(result.ok ? null : result.error.message).toMatch(
      /"call\.ogg" could not be saved: that folder does not exist/,
    );
    expect(fs.readdirSync(folder)).toEqual([]);
    await stack.close();
  });

  it('refuses with words when no save dialog is wired', async () => {
    const stack = createMainStack({
      userDataDir: tempDir(),
      secrets: createMemoryStore(),
      resourcesDir: RESOURCES_DIR,
      startDemo: () => Promise.resolve({ ...demo, close: () => Promise.resolve() }),
      recordingOrigin: 'vr-recording://local',
      log: quiet,
      peaksCacheDir: null,
      recordingCacheRoot: path.join(tempDir(), 'recordings'),
    });
    await call(stack, 'openDemo');
    const result = await call(stack, 'exportTranscript', demo.interactions[0]!.sid, 'srt');
    expect(result.ok ? null : result.error.message).toMatch(/Saving files is not available here/);
    await stack.close();
  });
});

describe('exporting a transcript', () => {
  it('writes the chosen format under a default name; refuses an unknown format', async () => {
    const folder = tempDir();
    const { stack, asked, sid } = await demoStack((r) => Promise.resolve(path.join(folder, r.defaultName)));
    const result = await call(stack, 'exportTranscript', sid, 'vtt');
    expect(result).toEqual({ ok: true, value: { saved: asked[0]!.defaultName } });
    expect(asked[0]!.defaultName.startsWith(`${sid}_`)).toBe(true);
    const text = fs.readFileSync(path.join(folder, asked[0]!.defaultName), 'utf8');
    expect(text.startsWith(`WEBVTT\n\nNOTE Interaction ${sid}\n`)).toBe(true);
    const refused = await call(stack, 'exportTranscript', sid, 'docx');
    expect(refused.ok ? null : refused.error).toEqual({ kind: 'bad_input', message: 'Choose TXT, JSON, SRT or VTT.' });
    await stack.close();
  });
});

describe('atomic writes', () => {
  it('a cancel during a stalled stream rejects and leaves neither the file nor a temporary one', async () => {
    const folder = tempDir();
    const target = path.join(folder, 'call.ogg');
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2, 3]));
      },
    });
    const abort = new AbortController();
    const writing = writeAtomically(target, stalled, { signal: abort.signal, onBytes: () => abort.abort() });
    await expect(writing).rejects.toThrow();
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('keeps an existing file whole when a write fails', async () => {
    const folder = tempDir();
    const target = path.join(folder, 'call.txt');
    fs.writeFileSync(target, 'old');
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1]));
        controller.error(new Error('connection lost'));
      },
    });
    await expect(writeAtomically(target, failing)).rejects.toThrow('connection lost');
    expect(fs.readdirSync(folder)).toEqual(['call.txt']);
    expect(fs.readFileSync(target, 'utf8')).toBe('old');
  });

  it('picks the extension from the content type', () => {
    expect(recordingExtension('audio/mpeg')).toBe('mp3');
    expect(recordingExtension('audio/ogg; codecs=opus')).toBe('ogg');
    expect(recordingExtension('audio/wav')).toBe('wav');
    expect(recordingExtension('application/octet-stream')).toBe('bin');
  });
});

describe("the app's save dialog", () => {
  it('opens in the given folder with the suggested name, asks before overwriting, and maps a cancel to null', async () => {
    const shown: unknown[] = [];
    let answer = { canceled: false, filePath: '/home/me/Downloads/call.srt' };
    const dialog = {
      showSaveDialog: (window: string, options: unknown) => {
        shown.push([window, options]);
        return Promise.resolve(answer);
      },
    };
    const choose = electronSaveChooser(dialog, () => 'main window', '/home/me/Downloads');
    const request = {
      title: 'Export transcript',
      defaultName: 'call.srt',
      filters: [{ name: 'SRT', extensions: ['srt'] }],
    };
    expect(await choose(request)).toBe('/home/me/Downloads/call.srt');
    expect(shown[0]).toEqual([
      'main window',
      {
        title: 'Export transcript',
        defaultPath: path.join('/home/me/Downloads', 'call.srt'),
        filters: request.filters,
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      },
    ]);
    answer = { canceled: true, filePath: '' };
    expect(await choose(request)).toBeNull();
  });
});
