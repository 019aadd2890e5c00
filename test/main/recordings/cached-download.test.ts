/**
 * One recording's download into the run's cache (electron/main/recordings/cached-download.ts) when the disk
 * is slow: a reader at the front of the download (the player's first bytes, the peaks decoder)
 * gets bytes that are still being written, the upstream is read on meanwhile, and a failed write
 * fails the download with its readers. The upstream is a stream the test feeds; the file's writes
 * can be held (node:fs/promises' `open` wrapped), everything else is a real temporary file.
 */
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecordingFetcher } from '../../../electron/main/api/recording-fetcher';
import { CachedDownload } from '../../../electron/main/recordings/cached-download';
import { temporaryFolder } from '../../fixtures/temporary-folder';

/** How the wrapped file handles write: at once, held until the test lets them go, or failing. */
const disk = {
  mode: 'normal' as 'normal' | 'held' | 'failing',
  held: [] as Array<() => void>,
  writesStarted: 0,
};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (...args: Parameters<typeof real.open>): Promise<FileHandle> => {
    const handle = await real.open(...args);
    const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<unknown>;
    return new Proxy(handle, {
      get(target, prop, receiver) {
        if (prop !== 'write') {
          const value = Reflect.get(target, prop, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        }
        return async (...a: unknown[]) => {
          disk.writesStarted++;
          if (disk.mode === 'failing')
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          if (disk.mode === 'held') await new Promise<void>((resolve) => disk.held.push(resolve));
          return write(...a);
        };
      },
    });
  };
  return { ...real, open, default: { ...real, open } };
});

afterEach(() => {
  disk.mode = 'normal';
  for (const release of disk.held.splice(0)) release();
  disk.writesStarted = 0;
});

/** An upstream whose body the test feeds chunk by chunk, and a download of it into a temporary file. */
function downloadFromFeed(size: number) {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (controller) => void (feed = controller) });
  const fetcher: RecordingFetcher = {
    fetch: () =>
      Promise.resolve({
        status: 200,
        headers: new Headers({ 'content-length': String(size) }),
        contentType: 'audio/mpeg',
        size,
        body,
      }),
  };
  const folder = temporaryFolder('vr-cached-download-');
  const problems: unknown[] = [];
  const download = new CachedDownload(
    {
      workspaceId: 'workspace-1',
      recordingUrl: 'https://recordings.example.com/call.mp3',
      fetcher: () => fetcher,
      report: (problem) => problems.push(problem),
    },
    path.join(folder, '1.rec'),
    () => undefined,
  );
  return { download, feed, problems, file: path.join(folder, '1.rec') };
}

/** `length` bytes counting up from `from` (mod 256), so any misplaced byte shows. */
function bytesFrom(from: number, length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (from + i) % 256);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

describe('a download while the disk is slow', () => {
  it('hands the first bytes to a reader before they are written, and reads the upstream on meanwhile', async () => {
    disk.mode = 'held';
    const { download, feed } = downloadFromFeed(3 * 1000);
    await download.head;
    const player = download.stream(0).getReader();
    feed.enqueue(bytesFrom(0, 1000));
    // The first bytes reach the player while their write has not finished.
    const first = await player.read();
    expect(Array.from(first.value ?? [])).toEqual(Array.from(bytesFrom(0, 1000)));
    expect(disk.held.length).toBeGreaterThan(0);
    expect(download.complete()).toBe(false);
    // The next bytes are taken from upstream and handed on too, still with nothing on disk.
    feed.enqueue(bytesFrom(1000, 1000));
    feed.enqueue(bytesFrom(2000, 1000));
    feed.close();
    const rest = [];
    for (let got = 0; got < 2000;) {
      const next = await player.read();
      rest.push(...(next.value ?? []));
      got += next.value?.byteLength ?? 0;
    }
    expect(rest).toEqual(Array.from(bytesFrom(1000, 2000)));
    expect(download.complete()).toBe(false);
    // Once the disk answers, the download is complete and any range is read from the file.
    disk.mode = 'normal';
    while (!download.complete()) {
      for (const release of disk.held.splice(0)) release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await readAll(download.stream(1500, 2499))).toEqual(bytesFrom(1500, 1000));
    expect(await readAll(download.stream(0))).toEqual(bytesFrom(0, 3000));
    await player.cancel();
    await download.discard();
  });

  it('a reader in the middle of bytes still being written gets them from where it asked', async () => {
    disk.mode = 'held';
    const { download, feed } = downloadFromFeed(2000);
    await download.head;
    feed.enqueue(bytesFrom(0, 700));
    feed.enqueue(bytesFrom(700, 700));
    feed.enqueue(bytesFrom(1400, 600));
    feed.close();
    // A seek to byte 500 spans three pieces not on disk yet.
    expect(await readAll(download.stream(500, 1599))).toEqual(bytesFrom(500, 1100));
    disk.mode = 'normal';
    for (const release of disk.held.splice(0)) release();
    await download.discard();
  });

  it('a write that fails ends the download and its readers with that problem', async () => {
    disk.mode = 'failing';
    const { download, feed, problems } = downloadFromFeed(4000);
    await download.head;
    const reader = download.stream(0, 3999).getReader();
    feed.enqueue(bytesFrom(0, 1000));
    // The bytes that arrived are handed on; the download then fails on its failed write.
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(1000);
    await expect(reader.read()).rejects.toThrow(/no space left/);
    expect(download.failed()).toBe(true);
    expect(problems.at(-1)).not.toBeNull();
    await download.discard();
  });
});
