/**
 * Renderer memory for the benchmark. Two figures, both after a forced garbage collection:
 * - process: proportional set size (PSS, from Linux `/proc/<pid>/smaps_rollup`) of the page's
 *   renderer process. The renderer PIDs come from the browser-level CDP `SystemInfo.getProcessInfo`;
 *   the page's own one is found by touching a 128 MB ballast in the page and seeing which PSS jumps
 *   (then the ballast is dropped and collected before any reading). PSS counts what the JS heap does
 *   not: media buffers, decoded audio, blobs, DOM, canvases.
 * - JS heap: `JSHeapUsedSize` from the page's CDP `Performance.getMetrics`.
 * Linux only (reads /proc).
 */
import { readFileSync } from 'node:fs';
import type { Browser, CDPSession, Page } from 'playwright-core';

/** One reading, in bytes. */
export interface MemoryReading {
  processBytes: number;
  jsHeapBytes: number;
}

/** PSS of a process in bytes, or null when it is gone. */
function pssBytes(pid: number): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const match = /^Pss:\s+(\d+) kB/m.exec(text);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function rendererPss(browser: Browser): Promise<Map<number, number>> {
  const browserSession = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await browserSession.send('SystemInfo.getProcessInfo')) as {
      processInfo: Array<{ type: string; id: number }>;
    };
    const out = new Map<number, number>();
    for (const info of processInfo) {
      if (info.type !== 'renderer') continue;
      const bytes = pssBytes(info.id);
      if (bytes !== null) out.set(info.id, bytes);
    }
    return out;
  } finally {
    await browserSession.detach().catch(() => undefined);
  }
}

/**
 * PID of `page`'s renderer process: the renderer whose PSS grows by more than 100 MB while the page
 * holds a 128 MB ballast.
 * @throws Error when no renderer grew (e.g. not Linux, or the page shares no process with the list)
 */
export async function pageRendererPid(browser: Browser, page: Page, pageSession: CDPSession): Promise<number> {
  const before = await rendererPss(browser);
  await page.evaluate('window.__benchBallast = new Uint8Array(128e6).fill(7); true');
  const during = await rendererPss(browser);
  await page.evaluate('window.__benchBallast = null; true');
  await pageSession.send('HeapProfiler.collectGarbage');
  let best: { pid: number; grew: number } | null = null;
  for (const [pid, bytes] of during) {
    const grew = bytes - (before.get(pid) ?? bytes);
    if (!best || grew > best.grew) best = { pid, grew };
  }
  if (!best || best.grew < 100e6) throw new Error('Could not tell which renderer process runs the page');
  return best.pid;
}

/** Collects garbage in the page, then reads the renderer's PSS and the page's JS heap, in bytes. */
export async function readMemory(pid: number, pageSession: CDPSession): Promise<MemoryReading> {
  await pageSession.send('HeapProfiler.collectGarbage');
  await pageSession.send('Performance.enable');
  const { metrics } = await pageSession.send('Performance.getMetrics');
  const jsHeapBytes = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
  return { processBytes: pssBytes(pid) ?? Number.NaN, jsHeapBytes };
}

/** Memory added between two readings, in bytes. */
export function memoryAdded(before: MemoryReading, after: MemoryReading): MemoryReading {
  if (process.env.BENCH_DEBUG) {
    process.stderr.write(
      `  memory before ${(before.processBytes / 1e6).toFixed(1)} MB (heap ${(before.jsHeapBytes / 1e6).toFixed(1)}), after ${(after.processBytes / 1e6).toFixed(1)} MB (heap ${(after.jsHeapBytes / 1e6).toFixed(1)})\n`,
    );
  }
  return {
    processBytes: after.processBytes - before.processBytes,
    jsHeapBytes: after.jsHeapBytes - before.jsHeapBytes,
  };
}
