/*
 * In-page instrumentation of the benchmark (scripts/bench/run.ts), installed with
 * page.addInitScript in every page (the app's and the references') before the page's own scripts,
 * so app and reference are timed by the same code. Plain browser JavaScript (not TypeScript)
 * because it is injected as text. All times are performance.now() values in milliseconds.
 *
 * It reads only what a person could see or the page itself exposes: the media element's events,
 * the DOM (buttons by their names, the transcript's rows by their text, the waveform slider's
 * aria-busy, the "Drawing waveform…" status) and the waveform's canvas pixels. On the app page
 * it also notes the time of every IPC result (when `window.__benchIpcBinding` names the preload
 * bridge's page function) so the transcript's paint can be counted from the response that
 * carried it, found afterwards by its text.
 */
(() => {
  'use strict';
  const now = () => performance.now();

  const FRESH = {
    t0: null,
    playingAt: null,
    playingTime: 0,
    advancingAt: null,
    rowsAt: null,
    paintedAt: null,
    waveformAt: null,
    quarterAt: null,
    waveformError: null,
    waveformBox: null,
    error: null,
    marker: null,
    autoPlay: false,
    clickedPlay: false,
    playClickedAt: null,
    mediaAt: null,
  };
  /** Shared state read by run.ts through page.evaluate. */
  const B = { ...FRESH, ipcResults: [] };
  window.__bench = B;
  let stale = new WeakSet();

  B.reset = () => {
    Object.assign(B, FRESH);
    B.ipcResults = [];
  };

  /** Marks `key` at the first moment after the next paint (a task queued from a frame callback). */
  const markAfterPaint = (key) => {
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (B[key] === null) B[key] = now();
      }, 0),
    );
  };

  /** Records 'playing' and the first time update after it in which currentTime advanced. */
  const watchMedia = (el) => {
    if (el.__benchWatched) return;
    el.__benchWatched = true;
    el.addEventListener('playing', () => {
      if (B.t0 !== null && B.playingAt === null) {
        B.playingAt = now();
        B.playingTime = el.currentTime;
      }
    });
    el.addEventListener('timeupdate', () => {
      if (B.playingAt !== null && B.advancingAt === null && el.currentTime > B.playingTime) B.advancingAt = now();
    });
    el.addEventListener('error', () => {
      if (B.t0 !== null) B.error = 'media error: ' + (el.error ? el.error.code + ' ' + el.error.message : 'unknown');
    });
  };

  // ---- IPC results on the app page ---------------------------------------------------------
  const binding = window.__benchIpcBinding;
  if (binding && typeof window[binding] === 'function') {
    const send = window[binding];
    window[binding] = (channel, args) =>
      send(channel, args).then((result) => {
        if (B.t0 !== null) B.ipcResults.push({ at: now(), result });
        return result;
      });
  }

  /** When the first IPC result holding `text` reached the page (null if none did). Run after a measurement. */
  B.responseHolding = (text) => {
    for (const { at, result } of B.ipcResults) {
      try {
        if (JSON.stringify(result).includes(text)) return at;
      } catch {
        // an unserializable result holds no transcript
      }
    }
    return null;
  };

  // ---- the app page: media, Play button, transcript rows, waveform --------------------------
  const findButton = (name) =>
    Array.from(document.querySelectorAll('button')).find(
      (b) => (b.getAttribute('aria-label') || b.textContent || '').trim() === name,
    );

  const containsMarker = (node) => {
    if (!B.marker) return false;
    if (node.nodeType === Node.TEXT_NODE) return (node.data || '').includes(B.marker);
    if (node.nodeType === Node.ELEMENT_NODE) return (node.textContent || '').includes(B.marker);
    return false;
  };

  const onMutations = (records) => {
    if (B.t0 === null) return;
    for (const media of document.querySelectorAll('audio, video')) {
      if (B.mediaAt === null && !media.__benchWatched && media.getAttribute('src')) B.mediaAt = now();
      watchMedia(media);
    }
    if (B.autoPlay && !B.clickedPlay) {
      const play = findButton('Play');
      if (play && !play.disabled) {
        B.clickedPlay = true;
        B.playClickedAt = now();
        play.click();
      }
    }
    if (B.marker && B.rowsAt === null) {
      for (const record of records) {
        const found =
          record.type === 'characterData'
            ? containsMarker(record.target)
            : Array.from(record.addedNodes).some(containsMarker);
        if (found) {
          B.rowsAt = now();
          markAfterPaint('paintedAt');
          break;
        }
      }
    }
  };
  // The app may give a media element its src before the element is in the page (it can start the
  // recording at "Show call"): note that moment too.
  const srcProperty = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'src');
  Object.defineProperty(HTMLMediaElement.prototype, 'src', {
    ...srcProperty,
    set(value) {
      if (B.t0 !== null && B.mediaAt === null && value) B.mediaAt = now();
      if (B.t0 !== null) watchMedia(this);
      srcProperty.set.call(this, value);
    },
  });
  new MutationObserver(onMutations).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['disabled'],
  });

  /** Canvases with a size under `root`, shadow roots included (wavesurfer draws in one). */
  const canvasesUnder = (root) => {
    const out = [];
    const visit = (node) => {
      for (const el of node.querySelectorAll('*')) {
        if (el.tagName === 'CANVAS' && el.width > 0 && el.height > 0 && !stale.has(el)) out.push(el);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    if (root.shadowRoot) visit(root.shadowRoot);
    visit(root);
    return out;
  };

  /** The app's waveform: the slider that holds canvases, and those canvases (or null). */
  const appWaveform = () => {
    for (const slider of document.querySelectorAll('[role="slider"]')) {
      const canvases = canvasesUnder(slider);
      if (canvases.length > 0) return { slider, canvases };
    }
    return null;
  };

  /** Text around the waveform (its box, where "Drawing waveform…" or why there is none is shown) and every status. */
  const statusText = () =>
    [
      ...Array.from(document.querySelectorAll('[role="slider"]'), (s) => s.parentElement),
      ...document.querySelectorAll('[role="status"]'),
    ]
      .map((e) => (e && e.textContent) || '')
      .join(' ');

  /**
   * True when some canvas has ink, away from its vertical middle (where silence is drawn as a
   * line), between `from` and `to` (fractions of the waveform's width).
   */
  const inkBetween = (slider, canvases, from, to) => {
    const box = slider.getBoundingClientRect();
    const left = box.left + from * box.width;
    const right = box.left + to * box.width;
    for (const canvas of canvases) {
      const rect = canvas.getBoundingClientRect();
      const x0 = Math.max(left, rect.left);
      const x1 = Math.min(right, rect.right);
      if (x1 <= x0 || rect.width === 0) continue;
      const scale = canvas.width / rect.width;
      const sx = Math.floor((x0 - rect.left) * scale);
      const sw = Math.max(1, Math.floor((x1 - x0) * scale));
      const context = canvas.getContext('2d');
      if (!context) continue;
      const { data } = context.getImageData(sx, 0, sw, canvas.height);
      const middle = canvas.height / 2;
      const margin = Math.max(3, canvas.height * 0.06);
      for (let y = 0; y < canvas.height; y++) {
        if (Math.abs(y - middle) < margin) continue;
        for (let x = 0; x < sw; x++) if (data[(y * sw + x) * 4 + 3] !== 0) return true;
      }
    }
    return false;
  };

  /** Size of the drawn waveform in CSS pixels: the slider's width, the canvases' height together. */
  const boxOf = (slider, canvases) => {
    const rects = canvases.map((c) => c.getBoundingClientRect());
    const top = Math.min(...rects.map((r) => r.top));
    const bottom = Math.max(...rects.map((r) => r.bottom));
    return { width: Math.round(slider.clientWidth), height: Math.round(bottom - top) };
  };

  /**
   * Watches the app's waveform every frame after "Show call": the first quarter is there when
   * the canvases have ink at 20-25 % of the width; the waveform is complete when the slider has
   * canvases, is not aria-busy (the app's "peaks still coming" state) and no "Drawing waveform…"
   * status is shown.
   */
  const watchWaveform = () => {
    if (B.t0 === null || B.waveformAt !== null || B.waveformError !== null) return;
    const text = statusText();
    const failed = /could not be drawn|No waveform for this/i.exec(text);
    if (failed) {
      B.waveformError = text.trim().slice(0, 200);
      return;
    }
    const found = appWaveform();
    if (found) {
      if (B.quarterAt === null && inkBetween(found.slider, found.canvases, 0.2, 0.25)) B.quarterAt = now();
      if (found.slider.getAttribute('aria-busy') !== 'true' && !/drawing waveform/i.test(text)) {
        B.waveformBox = boxOf(found.slider, found.canvases);
        if (B.quarterAt === null) B.quarterAt = now();
        markAfterPaint('waveformAt');
        return;
      }
    }
    requestAnimationFrame(watchWaveform);
  };

  const markStale = () => {
    stale = new WeakSet();
    for (const slider of document.querySelectorAll('[role="slider"]'))
      for (const canvas of canvasesUnder(slider)) stale.add(canvas);
  };

  /**
   * Starts one app measurement: the SID must already be in the SID field. Clicks "Show call"
   * (t0), presses Play as soon as it is enabled when `autoPlay`, and records the painted
   * transcript (first row holding `marker`), 'playing', and the waveform (canvases already on the
   * page, from an earlier call, do not count).
   */
  B.startApp = ({ autoPlay, marker }) => {
    B.reset();
    markStale();
    B.autoPlay = autoPlay;
    B.marker = marker;
    const show = findButton('Show call');
    if (!show) throw new Error('No "Show call" button on the page');
    B.t0 = now();
    show.click();
    requestAnimationFrame(watchWaveform);
  };

  /** Presses the app's Play button; false when there is none enabled. */
  B.pressPlay = () => {
    const play = findButton('Play');
    if (!play || play.disabled) return false;
    B.playClickedAt = now();
    play.click();
    return true;
  };

  /** Pauses every media element of the page. */
  B.pauseAll = () => {
    for (const media of document.querySelectorAll('audio, video')) media.pause();
  };

  /** Canvases of the app's waveform with ink on them (a sanity check after the waveform is complete). */
  B.waveformInk = () => {
    const found = appWaveform();
    return found ? (inkBetween(found.slider, found.canvases, 0, 1) ? found.canvases.length : 0) : 0;
  };

  /** Plays /bench/warmup.wav once (starts Chromium's audio output); resolves true when it ended. */
  B.warmUp = () =>
    new Promise((resolve) => {
      const audio = new Audio('/bench/warmup.wav');
      audio.addEventListener('ended', () => resolve(true), { once: true });
      audio.addEventListener('error', () => resolve(false), { once: true });
      audio.play().catch(() => resolve(false));
    });

  // ---- reference pages ---------------------------------------------------------------------
  /** Bare <audio> on `url`: t0 when src is set and play() is called. */
  B.startBare = (url) => {
    B.reset();
    const audio = document.createElement('audio');
    audio.preload = 'auto';
    document.body.append(audio);
    watchMedia(audio);
    B.t0 = now();
    audio.src = url;
    audio.play().catch((error) => {
      B.error = 'play(): ' + error.message;
    });
  };

  /** After wavesurfer's 'ready': marks waveformAt after the next paint once its canvases exist. */
  const whenDrawn = (container) => {
    const check = () => {
      if (canvasesUnder(container).length > 0) markAfterPaint('waveformAt');
      else requestAnimationFrame(check);
    };
    check();
  };

  const surfer = (options, size) => {
    const container = document.getElementById('wave');
    container.style.width = size.width + 'px';
    const ws = window.WaveSurfer.create({ container, height: size.height, ...options });
    window.__ws = ws;
    ws.on('ready', () => whenDrawn(container));
    ws.on('error', (error) => {
      B.error = 'wavesurfer: ' + (error && error.message ? error.message : String(error));
    });
    return ws;
  };

  /**
   * wavesurfer's default path on `url`: WaveSurfer.create({url}) fetches and decodes the whole
   * file, then plays (autoplay) and draws, at `size` ({width, height} in CSS px).
   */
  B.startWaveSurfer = (url, size) => {
    B.reset();
    B.t0 = now();
    const ws = surfer({ url, autoplay: true }, size);
    watchMedia(ws.getMediaElement());
  };

  /**
   * wavesurfer handed precomputed peaks (window.__peaks: {durationSeconds, channels}) and the
   * recording's URL for its media element, at `size`; two channels are drawn as two lanes.
   */
  B.startWaveSurferPeaks = (url, size) => {
    B.reset();
    const { durationSeconds, channels } = window.__peaks;
    const lanes = channels.length;
    B.t0 = now();
    surfer(
      {
        url,
        peaks: channels,
        duration: durationSeconds,
        ...(lanes > 1 ? { splitChannels: channels.map(() => ({})) } : {}),
      },
      { width: size.width, height: Math.round(size.height / lanes) },
    );
  };

  /** Paints window.__entries as the plain list (reference-pages.ts); paintedAt after the next paint. */
  B.paintPlain = () => {
    B.reset();
    B.t0 = now();
    window.referenceList.paint(window.__entries);
    markAfterPaint('paintedAt');
  };

  // ---- transcript measurements (app and plain list) -----------------------------------------
  /**
   * Types `text` into the transcript's search field one character at a time, as a person would,
   * and times each keystroke: from the input event to the first moment after the next paint
   * (requestAnimationFrame, then a task), by when the matches are counted, highlighted in the
   * rows shown and the current one scrolled into view. Resolves with one sample per keystroke:
   * { ms, marks } (marks = highlighted ranges in the DOM after that keystroke). Clears the field
   * (Escape) at the end.
   */
  B.measureSearch = async (text) => {
    const field = document.querySelector('input[aria-label="Search the transcript"]');
    if (!field) throw new Error('No transcript search field');
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    field.focus();
    const samples = [];
    for (let i = 1; i <= text.length; i++) {
      const start = now();
      setValue.call(field, text.slice(0, i));
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await afterPaint();
      samples.push({ ms: now() - start, marks: document.querySelectorAll('mark').length });
    }
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await afterPaint();
    return samples;
  };

  /**
   * Highlight cost per playback tick: plays from `startSeconds` at `rate` and, for `count`
   * 'timeupdate' events, measures from the event's capture on window (before the page's own
   * listeners) to the end of a listener added after them, which forces style and layout
   * (document.body.offsetHeight); a framework's update in a microtask between the two is included.
   * Resolves with [{ms, active}] where `active` is the text of the row matching `activeSelector`.
   */
  B.measureTicks = ({ count, startSeconds, rate, activeSelector }) =>
    new Promise((resolve, reject) => {
      const media = document.querySelector('audio, video');
      if (!media) {
        reject(new Error('No media element'));
        return;
      }
      const ticks = [];
      let start = null;
      const capture = (event) => {
        if (event.target === media) start = now();
      };
      const late = () => {
        if (start === null) return;
        void document.body.offsetHeight;
        const ms = now() - start;
        start = null;
        const active = document.querySelector(activeSelector);
        ticks.push({ ms, active: active ? (active.textContent || '').trim().slice(-40) : null });
        if (ticks.length >= count) {
          window.removeEventListener('timeupdate', capture, true);
          media.removeEventListener('timeupdate', late);
          media.pause();
          resolve(ticks);
        }
      };
      const begin = () => {
        window.addEventListener('timeupdate', capture, true);
        media.addEventListener('timeupdate', late);
        media.playbackRate = rate;
        media.play().catch(reject);
      };
      media.pause();
      media.currentTime = startSeconds;
      media.addEventListener('seeked', begin, { once: true });
    });
})();
