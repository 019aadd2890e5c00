import { EventEmitter } from 'node:events';
import type { AppUpdater } from 'electron-updater';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createUpdateController,
  releaseOf,
  updateErrorMessage,
  type UpdaterAdapter,
} from '../../../electron/main/network/update-controller';
import {
  parseRegQuery,
  policyFilePath,
  queryRegistryPolicy,
  readUpdatePolicy,
  type ExecFile,
  type UpdatePolicyInputs,
} from '../../../electron/main/network/update-policy';
import {
  canRestartNow,
  initialUpdateModel,
  updateTransition,
  type UpdateEvent,
  type UpdateModel,
} from '../../../electron/main/network/update-state';

/** electron-updater's autoUpdater fits the adapter (checked by the compiler). */
export const fitsAdapter = (updater: AppUpdater): UpdaterAdapter => updater;

const missing = () => Promise.reject(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }));

function inputs(overrides: Partial<UpdatePolicyInputs> = {}): UpdatePolicyInputs {
  return { env: {}, platform: 'linux', readFile: missing, ...overrides };
}

describe('the update policy', () => {
  it('allows updates when no source says otherwise', async () => {
    expect(await readUpdatePolicy(inputs())).toEqual({
      updatesAllowed: true,
      source: 'none',
      detail: 'No policy turns updates off.',
      warnings: [],
    });
  });

  it('is turned off by the environment variable', async () => {
    const policy = await readUpdatePolicy(inputs({ env: { VOICE_REVIEW_DISABLE_UPDATES: '1' } }));
    expect(policy).toMatchObject({ updatesAllowed: false, source: 'environment' });
    expect(await readUpdatePolicy(inputs({ env: { VOICE_REVIEW_DISABLE_UPDATES: '0' } }))).toMatchObject({
      updatesAllowed: true,
    });
  });

  it('reads policy.json in the machine-wide folder of each platform', async () => {
    const read: string[] = [];
    const readFile = (path: string) => {
      read.push(path);
      return Promise.resolve('{"disableUpdates": true, "laterKey": 3}');
    };
    expect(await readUpdatePolicy(inputs({ readFile }))).toMatchObject({
      updatesAllowed: false,
      source: 'policy-file',
    });
    await readUpdatePolicy(inputs({ readFile, platform: 'darwin' }));
    await readUpdatePolicy(inputs({ readFile, platform: 'win32', env: { ProgramData: 'D:\\PD' } }));
    expect(read).toEqual([
      '/etc/voice-review/policy.json',
      '/Library/Application Support/Voice Review/policy.json',
      'D:\\PD\\Voice Review\\policy.json',
    ]);
    expect(policyFilePath('win32', {})).toBe('C:\\ProgramData\\Voice Review\\policy.json');
  });

  it('allows updates for a policy.json that says false', async () => {
    const readFile = () => Promise.resolve('{"disableUpdates": false}');
    expect(await readUpdatePolicy(inputs({ readFile }))).toMatchObject({ updatesAllowed: true });
  });

  it('turns updates off for a policy.json it cannot understand, and says so', async () => {
    const broken = await readUpdatePolicy(inputs({ readFile: () => Promise.resolve('{disableUpdates: yes') }));
    expect(broken).toMatchObject({ updatesAllowed: false, source: 'policy-file' });
    expect(broken.detail).toMatch(/not valid JSON/);
    const wrongType = await readUpdatePolicy(inputs({ readFile: () => Promise.resolve('{"disableUpdates": "no"}') }));
    expect(wrongType.detail).toMatch(/must be true or false/);
    const denied = await readUpdatePolicy(
      inputs({ readFile: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })) }),
    );
    expect(denied).toMatchObject({ updatesAllowed: false });
    expect(denied.detail).toMatch(/could not be read \(EACCES\)/);
  });

  it('reads the Windows registry policy, and only on Windows', async () => {
    const readRegistry = () => Promise.resolve({ type: 'REG_DWORD', data: '0x1' });
    expect(await readUpdatePolicy(inputs({ platform: 'win32', readRegistry }))).toMatchObject({
      updatesAllowed: false,
      source: 'registry',
    });
    expect(await readUpdatePolicy(inputs({ platform: 'linux', readRegistry }))).toMatchObject({ updatesAllowed: true });
    const zero = () => Promise.resolve({ type: 'REG_DWORD', data: '0x0' });
    expect(await readUpdatePolicy(inputs({ platform: 'win32', readRegistry: zero }))).toMatchObject({
      updatesAllowed: true,
    });
  });

  it('keeps updates on with a warning when the registry cannot be queried', async () => {
    const readRegistry = () => Promise.reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }));
    const policy = await readUpdatePolicy(inputs({ platform: 'win32', readRegistry }));
    expect(policy).toMatchObject({ updatesAllowed: true });
    expect(policy.warnings).toEqual([
      'The policy in HKLM\\Software\\Policies\\Voice Review could not be read (ETIMEDOUT).',
    ]);
  });
});

describe('reg.exe', () => {
  const output =
    '\r\nHKEY_LOCAL_MACHINE\\Software\\Policies\\Voice Review\r\n    DisableUpdates    REG_DWORD    0x1\r\n\r\n';

  it('parses the value line', () => {
    expect(parseRegQuery(output, 'DisableUpdates')).toEqual({ type: 'REG_DWORD', data: '0x1' });
    expect(parseRegQuery('    DisableUpdates    REG_SZ    true\r\n', 'disableupdates')).toEqual({
      type: 'REG_SZ',
      data: 'true',
    });
    expect(parseRegQuery('nothing here', 'DisableUpdates')).toBeNull();
  });

  it('runs reg.exe by its full path, 64-bit view, with a timeout; exit 1 is absent', async () => {
    const calls: [string, readonly string[], number][] = [];
    const found: ExecFile = (file, args, options) => {
      calls.push([file, args, options.timeout]);
      return Promise.resolve({ stdout: output, stderr: '' });
    };
    expect(await queryRegistryPolicy(found, { SystemRoot: 'C:\\WINDOWS' })).toEqual({ type: 'REG_DWORD', data: '0x1' });
    expect(calls).toEqual([
      [
        'C:\\WINDOWS\\System32\\reg.exe',
        ['query', 'HKLM\\Software\\Policies\\Voice Review', '/v', 'DisableUpdates', '/reg:64'],
        5000,
      ],
    ]);
    const absent: ExecFile = () => Promise.reject(Object.assign(new Error('not found'), { code: 1 }));
    expect(await queryRegistryPolicy(absent, {})).toBeNull();
    const hung: ExecFile = () =>
      Promise.reject(Object.assign(new Error('killed'), { killed: true, signal: 'SIGTERM' }));
    await expect(queryRegistryPolicy(hung, {})).rejects.toThrow('killed');
  });
});

const release = { version: '1.2.0', name: 'Spring', notes: 'Faster waveforms.' };
const allowed = { updatesAllowed: true, detail: '' };

function run(model: UpdateModel, ...events: UpdateEvent[]) {
  let current = model;
  const effects: string[] = [];
  for (const event of events) {
    const result = updateTransition(current, event);
    current = result.model;
    effects.push(...result.effects);
  }
  return { model: current, effects };
}

describe('the update state machine', () => {
  it('offers nothing without a feed, whatever the updater says', () => {
    const start = initialUpdateModel({ feedConfigured: false, policy: allowed });
    const { model } = run(start, { type: 'update-available', release }, { type: 'update-downloaded', release });
    expect(model.state).toEqual({ status: 'no-feed' });
  });

  it('stays off by policy, saying why', () => {
    const start = initialUpdateModel({ feedConfigured: true, policy: { updatesAllowed: false, detail: 'Off by IT.' } });
    const { model, effects } = run(start, { type: 'update-downloaded', release }, { type: 'restart-requested' });
    expect(model.state).toEqual({ status: 'disabled-by-policy', detail: 'Off by IT.' });
    expect(effects).toEqual([]);
  });

  it('goes from checking to available to downloading with progress to downloaded', () => {
    const start = initialUpdateModel({ feedConfigured: true, policy: allowed });
    const progress = { percent: 40, bytesPerSecond: 1000, transferredBytes: 400, totalBytes: 1000 };
    let { model } = run(start, { type: 'checking-for-update' }, { type: 'update-available', release });
    expect(model.state).toEqual({ status: 'available', release });
    ({ model } = run(model, { type: 'download-progress', progress }));
    expect(model.state).toEqual({ status: 'downloading', release, progress });
    ({ model } = run(model, { type: 'update-downloaded', release }));
    expect(model.state).toEqual({ status: 'downloaded', release, restartRequested: false });
    expect(canRestartNow(model)).toBe(true);
  });

  it('restarts at once when nothing plays', () => {
    const start = initialUpdateModel({ feedConfigured: true, policy: allowed });
    expect(run(start, { type: 'update-downloaded', release }, { type: 'restart-requested' }).effects).toEqual([
      'quit-and-install',
    ]);
  });

  it('waits for playback to stop before restarting an update downloaded while playing', () => {
    const start = initialUpdateModel({ feedConfigured: true, policy: allowed });
    const playing = run(start, { type: 'playback', playing: true }, { type: 'update-downloaded', release });
    expect(canRestartNow(playing.model)).toBe(false);
    const pressed = run(playing.model, { type: 'restart-requested' });
    expect(pressed.effects).toEqual([]);
    expect(pressed.model.state).toMatchObject({ status: 'downloaded', restartRequested: true });
    expect(run(pressed.model, { type: 'playback', playing: true }).effects).toEqual([]);
    expect(run(pressed.model, { type: 'playback', playing: false }).effects).toEqual(['quit-and-install']);
  });

  it('never restarts on its own when playback stops without the button pressed', () => {
    const start = initialUpdateModel({ feedConfigured: true, policy: allowed });
    const { effects } = run(
      start,
      { type: 'playback', playing: true },
      { type: 'update-downloaded', release },
      { type: 'playback', playing: false },
    );
    expect(effects).toEqual([]);
  });

  it('keeps a downloaded update through a later failed check, until a newer one is announced', () => {
    const start = initialUpdateModel({ feedConfigured: true, policy: allowed });
    const downloaded = run(start, { type: 'update-downloaded', release });
    const after = run(downloaded.model, { type: 'checking-for-update' }, { type: 'error', message: 'x', atMs: 1 });
    expect(after.model.state).toMatchObject({ status: 'downloaded' });
    const newer = run(after.model, { type: 'update-available', release: { ...release, version: '1.3.0' } });
    expect(newer.model.state).toMatchObject({ status: 'available', release: { version: '1.3.0' } });
  });

  it('shows an error with when it happened, then checks again', () => {
    const start = initialUpdateModel({ feedConfigured: true, policy: allowed });
    const failed = run(start, { type: 'checking-for-update' }, { type: 'error', message: 'offline', atMs: 5 });
    expect(failed.model.state).toEqual({ status: 'error', message: 'offline', lastCheckedAtMs: 5 });
    expect(run(failed.model, { type: 'checking-for-update' }).model.state).toEqual({ status: 'checking' });
  });
});

/** An updater that emits what the test says, like electron-updater's autoUpdater. */
class FakeUpdater extends EventEmitter implements UpdaterAdapter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  checkForUpdates(): Promise<unknown> {
    this.checks++;
    this.emit('checking-for-update');
    return Promise.resolve(null);
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

describe('the update controller', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks at start and every few hours, downloading in the background', () => {
    const updater = new FakeUpdater();
    const controller = createUpdateController({ updater, policy: allowed, checkEveryMs: 3600_000 });
    controller.start();
    expect(updater.checks).toBe(1);
    expect(updater.autoDownload).toBe(true);
    vi.advanceTimersByTime(2 * 3600_000);
    expect(updater.checks).toBe(3);
    controller.stop();
  });

  it('is never started when the policy turns updates off', () => {
    const updater = new FakeUpdater();
    const controller = createUpdateController({ updater, policy: { updatesAllowed: false, detail: 'IT' } });
    controller.start();
    vi.advanceTimersByTime(24 * 3600_000);
    expect(updater.checks).toBe(0);
    expect(updater.listenerCount('update-downloaded')).toBe(0);
    expect(controller.model().state.status).toBe('disabled-by-policy');
  });

  it('installs a download finished during a call only after the call stops playing', () => {
    const updater = new FakeUpdater();
    const seen: string[] = [];
    const controller = createUpdateController({ updater, policy: allowed, onChange: (m) => seen.push(m.state.status) });
    controller.start();
    controller.setPlaying(true);
    updater.emit('update-available', { version: '2.0.0', releaseNotes: [{ version: '2.0.0', note: 'New.' }] });
    updater.emit('download-progress', { percent: 50, bytesPerSecond: 10, transferred: 5, total: 10 });
    updater.emit('update-downloaded', { version: '2.0.0' });
    controller.requestRestart();
    expect(updater.installs).toEqual([]);
    controller.setPlaying(false);
    expect(updater.installs).toEqual([[true, true]]);
    expect(seen.filter((status, i) => status !== seen[i - 1])).toEqual([
      'checking',
      'available',
      'downloading',
      'downloaded',
    ]);
    controller.stop();
  });

  it('words an updater error without query strings', () => {
    const updater = new FakeUpdater();
    const controller = createUpdateController({ updater, policy: allowed });
    updater.emit('error', new Error('HttpError: 403 "https://updates.example.com/latest.yml?token=abc"\nstack'));
    expect(controller.model().state).toMatchObject({
      status: 'error',
      message:
        'The update could not be checked or downloaded: HttpError: 403 "https://updates.example.com/latest.yml. Voice Review will try again later.',
    });
    expect(updateErrorMessage(new Error(''))).toMatch(/unknown error/);
  });

  it('joins the notes of several releases', () => {
    expect(
      releaseOf({
        version: '2.0.0',
        releaseNotes: [
          { version: '2.0.0', note: 'Two.' },
          { version: '1.9.0', note: null },
          { version: '1.8.0', note: 'Eight.' },
        ],
      }),
    ).toEqual({ version: '2.0.0', name: null, notes: '2.0.0\nTwo.\n\n1.8.0\nEight.' });
  });
});
