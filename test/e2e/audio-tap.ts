/**
 * What the page sends to its speakers, for end-to-end tests of the lanes' audio: an init script
 * that taps the first node the player's Web Audio graph connects to the destination with one
 * AnalyserNode per channel (window.__laneTap), and counts the AudioContexts open
 * (window.__openContexts). The app itself has no test hook.
 */
import type { Page } from 'playwright-core';

/**
 * Before any page script: when a node is first connected to the destination, also feed it to a
 * channel splitter with one AnalyserNode per channel (window.__laneTap), and count the AudioContexts open.
 */
export function installAudioTap(): void {
  const w = window as unknown as { __laneTap?: { left: AnalyserNode; right: AnalyserNode }; __openContexts: number };
  w.__openContexts = 0;
  const Original = window.AudioContext;
  window.AudioContext = class extends Original {
    constructor(options?: AudioContextOptions) {
      super(options);
      w.__openContexts += 1;
    }
    override async close(): Promise<void> {
      await super.close();
      w.__openContexts -= 1;
    }
  };
  const connect = Reflect.get(AudioNode.prototype, 'connect') as (this: AudioNode, ...args: unknown[]) => unknown;
  AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
    if (args[0] instanceof AudioDestinationNode && !w.__laneTap) {
      const splitter = this.context.createChannelSplitter(2);
      const left = this.context.createAnalyser();
      const right = this.context.createAnalyser();
      connect.call(this, splitter);
      connect.call(splitter, left, 0);
      connect.call(splitter, right, 1);
      w.__laneTap = { left, right };
    }
    return connect.apply(this, args);
  } as typeof AudioNode.prototype.connect;
}

/**
 * The loudest sample per channel (0..1) reaching the speakers while the recording plays from
 * `fromSeconds` to `toSeconds` of its own time (not the wall clock's), read from the tap more
 * often than it fills. The player is paused at the end.
 * @throws Error when the tap or the media element is missing
 */
export async function loudnessBetween(
  page: Page,
  fromSeconds: number,
  toSeconds: number,
): Promise<{ left: number; right: number }> {
  return page.evaluate(
    async ({ fromSeconds, toSeconds }) => {
      const tap = (window as unknown as { __laneTap?: { left: AnalyserNode; right: AnalyserNode } }).__laneTap;
      const audio = document.querySelector('audio');
      if (!tap || !audio) throw new Error('No audio tap or no media element');
      audio.currentTime = fromSeconds;
      await new Promise((resolve) => audio.addEventListener('seeked', resolve, { once: true }));
      await audio.play();
      const peak = { left: 0, right: 0 };
      const buffer = new Float32Array(tap.left.fftSize);
      while (audio.currentTime < toSeconds && !audio.paused && !audio.ended) {
        for (const side of ['left', 'right'] as const) {
          tap[side].getFloatTimeDomainData(buffer);
          for (const v of buffer) peak[side] = Math.max(peak[side], Math.abs(v));
        }
        // An analyser holds its last 2048 samples (43 ms at 48 kHz): read it more often than that.
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      audio.pause();
      return peak;
    },
    { fromSeconds, toSeconds },
  );
}
