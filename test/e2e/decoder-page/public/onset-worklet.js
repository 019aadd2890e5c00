/**
 * Finds the onset of a 1 kHz tone in what the page plays (an AudioWorklet on the media element's
 * source node, mixed to mono). Armed by a message from the page, it:
 * 1. waits for 20 ms of quiet (what still sounds of an earlier tone does not count);
 * 2. after each block, measures the share of the last 5 ms's energy at the tone's frequency
 *    (Goertzel); the tone is there once that share stays above 0.8 with loud samples for 30 ms
 *    running (a vowel of speech near 1 kHz does not last that pure that long);
 * 3. walks back from there to the tone's first loud sample after quiet, and posts that sample's
 *    frame on the context's timeline.
 */
/* global AudioWorkletProcessor, registerProcessor, sampleRate, currentFrame */
const TONE_HZ = 1000;
/** |x| above which a sample is loud (the tone's amplitude is 0.5; a mono mix of one lane halves it). */
const LOUD = 0.05;
/** Share of a window's energy at the tone's frequency for the window to sound like the tone. */
const TONE_SHARE = 0.8;
const WINDOW_SECONDS = 0.005;
const SUSTAIN_SECONDS = 0.03;
const QUIET_SECONDS = 0.02;

class OnsetProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.state = 'idle';
    this.window = Math.round(sampleRate * WINDOW_SECONDS);
    this.quietNeeded = Math.round(sampleRate * QUIET_SECONDS);
    // The last second of samples (mono), by frame, to walk back to the onset.
    this.history = new Float32Array(sampleRate);
    this.coefficient = 2 * Math.cos((2 * Math.PI * TONE_HZ) / sampleRate);
    this.port.onmessage = (event) => {
      if (event.data !== 'arm') return;
      this.state = 'clearing';
      this.quietRun = 0;
    };
  }

  sampleAt(frame) {
    return this.history[frame % this.history.length];
  }

  /** Share of the energy at TONE_HZ over the window ending before frame `end`, and whether it holds a loud sample. */
  measure(end) {
    let s1 = 0;
    let s2 = 0;
    let energy = 0;
    let loud = false;
    for (let k = end - this.window; k < end; k++) {
      const x = this.sampleAt(k);
      const s0 = x + this.coefficient * s1 - s2;
      s2 = s1;
      s1 = s0;
      energy += x * x;
      if (Math.abs(x) > LOUD) loud = true;
    }
    const power = s1 * s1 + s2 * s2 - this.coefficient * s1 * s2;
    return { share: energy > 0 ? (2 * power) / (this.window * energy) : 0, loud };
  }

  /** The first loud sample of the sound that ends at `end`, after at least 20 ms of quiet. */
  onsetBefore(end) {
    let onset = end - 1;
    let quiet = 0;
    for (let k = end - 1; k > Math.max(this.clearedAt, end - this.history.length + 1); k--) {
      if (Math.abs(this.sampleAt(k)) > LOUD) {
        onset = k;
        quiet = 0;
      } else if (++quiet >= this.quietNeeded) break;
    }
    return onset;
  }

  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const frames = input[0].length;
    for (let i = 0; i < frames; i++) {
      let x = 0;
      for (const channel of input) x += channel[i];
      this.history[(currentFrame + i) % this.history.length] = x / input.length;
    }
    const end = currentFrame + frames;
    if (this.state === 'clearing') {
      for (let k = currentFrame; k < end; k++) {
        this.quietRun = Math.abs(this.sampleAt(k)) > LOUD ? 0 : this.quietRun + 1;
        if (this.quietRun >= this.quietNeeded) {
          this.state = 'listening';
          this.clearedAt = k;
          this.toneSince = null;
          break;
        }
      }
      return true;
    }
    if (this.state !== 'listening' || end - this.clearedAt < this.window) return true;
    const { share, loud } = this.measure(end);
    if (!(loud && share > TONE_SHARE)) {
      this.toneSince = null;
      return true;
    }
    this.toneSince ??= end;
    if (end - this.toneSince < sampleRate * SUSTAIN_SECONDS) return true;
    this.state = 'idle';
    this.port.postMessage({ onsetFrame: this.onsetBefore(end), sampleRate });
    return true;
  }
}

registerProcessor('onset', OnsetProcessor);
