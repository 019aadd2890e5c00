/**
 * Finds the onset of a 1 kHz tone in what the page plays (an AudioWorklet on the media element's
 * source node). Armed by a message from the page; then, for every window of 5 ms, compares the
 * energy at the tone's frequency (Goertzel) with the window's whole energy, so speech before the
 * tone is not taken for it; once the tone is there, walks back to the first sample of the tone
 * (the first loud sample after quiet) and posts its frame on the context's timeline.
 */
/* global AudioWorkletProcessor, registerProcessor, sampleRate, currentFrame */
const TONE_HZ = 1000;
/** |x| above which a sample is loud (the tone's amplitude is 0.5, a mono downmix halves it). */
const LOUD = 0.05;
/** Share of a window's energy at the tone's frequency for it to count as the tone. */
const TONE_SHARE = 0.6;

class OnsetProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.armed = false;
    this.window = Math.round(sampleRate * 0.005);
    // The last second of samples, to walk back to the onset.
    this.history = new Float32Array(sampleRate);
    this.written = 0;
    this.coefficient = 2 * Math.cos((2 * Math.PI * TONE_HZ) / sampleRate);
    this.port.onmessage = (event) => {
      if (event.data === 'arm') {
        this.armed = true;
        this.armedAt = currentFrame;
      }
    };
  }

  /** Ratio of the energy at TONE_HZ to the whole energy, over the `n` samples before frame `end`. */
  toneShare(end, n) {
    let s1 = 0;
    let s2 = 0;
    let energy = 0;
    const size = this.history.length;
    for (let k = end - n; k < end; k++) {
      const x = this.history[((k % size) + size) % size];
      const s0 = x + this.coefficient * s1 - s2;
      s2 = s1;
      s1 = s0;
      energy += x * x;
    }
    const power = s1 * s1 + s2 * s2 - this.coefficient * s1 * s2;
    return energy > 0 ? (2 * power) / (n * energy) : 0;
  }

  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const frames = input[0].length;
    const size = this.history.length;
    for (let i = 0; i < frames; i++) {
      let x = 0;
      for (const channel of input) x += channel[i];
      this.history[(currentFrame + i) % size] = x / input.length;
    }
    if (!this.armed) return true;
    const end = currentFrame + frames;
    const n = this.window;
    const peak = Math.abs(this.history[(end - 1) % size]);
    if (end - this.armedAt >= n && (peak > LOUD || this.loudIn(end, n)) && this.toneShare(end, n) > TONE_SHARE) {
      // Walk back over the tone to the first loud sample after at least 20 ms of quiet.
      let onset = end - 1;
      let quiet = 0;
      const quietNeeded = Math.round(sampleRate * 0.02);
      for (let k = end - 1; k > Math.max(this.armedAt, end - size + 1); k--) {
        if (Math.abs(this.history[k % size]) > LOUD) {
          onset = k;
          quiet = 0;
        } else if (++quiet >= quietNeeded) break;
      }
      this.armed = false;
      this.port.postMessage({ onsetFrame: onset, sampleRate });
    }
    return true;
  }

  loudIn(end, n) {
    const size = this.history.length;
    for (let k = end - n; k < end; k++) if (Math.abs(this.history[k % size]) > LOUD) return true;
    return false;
  }
}

registerProcessor('onset', OnsetProcessor);
