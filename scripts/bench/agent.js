/*
 * In-page instrumentation of the benchmark (scripts/bench/run.ts), installed with
 * page.addInitScript in every page before the page's own scripts. Plain browser JavaScript (not
 * TypeScript) because it is injected as text. All times are performance.now() values in
 * milliseconds; durations derived from them are milliseconds.
 *
 * On the app page `window.api` is the app's built preload (test/fixtures/preload-bridge.ts, set
 * up by run.ts before this script). When `window.__benchIpc` names the binding its IPC goes
 * through and the channels of getInteraction and getPeaks, this script wraps that binding to
 * record when those calls leave the renderer and when their results reach it.
 */
(() => {
  'use strict';
  const now = () => performance.now();

  /** Shared state read by run.ts through page.evaluate. */
  const B = {
    t0: null,
    playingAt: null,
    playingTime: 0,
    advancingAt: null,
    responseAt: null,
    rowsAt: null,
    paintedAt: null,
    peaksAt: null,
    peaksFromCache: null,
    peaksError: null,
    waveformAt: null,
    quarterAt: null,
    error: null,
    marker: null,
    autoPlay: false,
    clickedPlay: false,
    playClickedAt: null,
    mediaAt: null,
    peaksRequestedAt: null,
  };
  window.__bench = B;

  B.reset = () => {
    for (const key of [
      't0',
      'playingAt',
      'advancingAt',
      'responseAt',
      'rowsAt',
      'paintedAt',
      'peaksAt',
      'peaksFromCache',
      'peaksError',
      'waveformAt',
      'quarterAt',
      'error',
      'marker',
      'playClickedAt',
      'mediaAt',
      'peaksRequestedAt',
    ])
      B[key] = null;
    B.playingTime = 0;
    B.autoPlay = false;
    B.clickedPlay = false;
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

  // ---- IPC timing on the app page ---------------------------------------------------------
  // The page has the first quarter of the waveform when a getPeaksProgress answer covers a quarter
  // of the media element's duration (it draws that answer at once), or when getPeaks answers.
  const coversQuarter = (result) => {
    const media = document.querySelector('audio');
    const duration = media ? media.duration : NaN;
    const covered = result && result.ok && result.value ? result.value.coveredSeconds : 0;
    return Number.isFinite(duration) && duration > 0 && covered >= duration / 4;
  };
  const ipc = window.__benchIpc;
  if (ipc && typeof window[ipc.binding] === 'function') {
    const send = window[ipc.binding];
    window[ipc.binding] = (channel, args) => {
      if (channel === ipc.getPeaks && B.t0 !== null && B.peaksRequestedAt === null) B.peaksRequestedAt = now();
      return send(channel, args).then((result) => {
        if (channel === ipc.getInteraction && B.t0 !== null && B.responseAt === null) B.responseAt = now();
        if (channel === ipc.getPeaksProgress && B.t0 !== null && B.quarterAt === null && coversQuarter(result)) {
          B.quarterAt = now();
        }
        if (channel === ipc.getPeaks && B.t0 !== null && B.peaksAt === null) {
          B.peaksAt = now();
          if (B.quarterAt === null && result && result.ok) B.quarterAt = B.peaksAt;
          B.peaksFromCache = result && result.ok ? Boolean(result.value.fromCache) : null;
          B.peaksError =
            result && result.ok ? null : (result && result.error && result.error.message) || 'getPeaks failed';
        }
        return result;
      });
    };
  }

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
      // First sight of the app's media element: its src was set in the flush that just ended.
      if (B.mediaAt === null && !media.__benchWatched) B.mediaAt = now();
      // Diagnostic only (BENCH_PRELOAD=metadata): what if the app's element did not buffer ahead?
      if (window.__benchPreload && !media.__benchWatched) media.preload = window.__benchPreload;
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
    if (B.marker && B.responseAt !== null && B.rowsAt === null) {
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
  // The app may give a media element its src before the element is in the page (it starts the
  // recording at "Show call"): first audio "from media src" counts from that moment.
  const srcProperty = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'src');
  Object.defineProperty(HTMLMediaElement.prototype, 'src', {
    ...srcProperty,
    set(value) {
      if (B.t0 !== null && B.mediaAt === null && value) B.mediaAt = now();
      if (B.t0 !== null) watchMedia(this);
      srcProperty.set.call(this, value);
    },
  });
  const observer = new MutationObserver(onMutations);
  const observe = () =>
    observer.observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['disabled'],
    });
  observe();

  /** Canvases under the player's waveform (wavesurfer draws in a shadow root inside the slider). */
  const waveformCanvases = () => {
    const out = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.tagName === 'CANVAS' && el.width > 0 && el.height > 0) out.push(el);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    for (const slider of document.querySelectorAll('[role="slider"]')) {
      if (slider.shadowRoot) visit(slider.shadowRoot);
      visit(slider);
    }
    return out;
  };
  const drawingShown = () =>
    Array.from(document.querySelectorAll('[role="status"]')).some((e) => /drawing waveform/i.test(e.textContent || ''));

  const watchWaveform = () => {
    if (B.t0 === null || B.waveformAt !== null) return;
    if (B.peaksAt !== null && B.peaksError === null && !drawingShown() && waveformCanvases().length > 0) {
      B.waveformAt = now();
      return;
    }
    requestAnimationFrame(watchWaveform);
  };

  /**
   * Starts one app measurement: `sid` must already be in the SID field. Clicks "Show call" (t0),
   * presses Play as soon as it is enabled when `autoPlay`, and records the response, the painted
   * transcript (first row holding `marker`), 'playing', and the drawn waveform.
   */
  B.startApp = ({ autoPlay, marker }) => {
    B.reset();
    B.autoPlay = autoPlay;
    B.marker = marker;
    const show = findButton('Show call');
    if (!show) throw new Error('No "Show call" button on the page');
    B.t0 = now();
    show.click();
    requestAnimationFrame(watchWaveform);
  };

  /** Canvases with something drawn on them (a sanity check after the waveform is complete). */
  B.waveformInk = () =>
    waveformCanvases().filter((canvas) => {
      const context = canvas.getContext('2d');
      if (!context) return false;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4 * 7) if (data[i] !== 0) return true;
      return false;
    }).length;

  /** Plays /bench/warmup.wav once (starts Chromium's audio output); resolves true when it ended. */
  B.warmUp = () =>
    new Promise((resolve) => {
      const audio = new Audio('/bench/warmup.wav');
      audio.addEventListener('ended', () => resolve(true), { once: true });
      audio.addEventListener('error', () => resolve(false), { once: true });
      audio.play().catch(() => resolve(false));
    });

  // ---- bench pages -----------------------------------------------------------------------
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

  /** wavesurfer's default path: WaveSurfer.create({url}) fetches and decodes the whole file; autoplay as soon as it can. */
  B.startWaveSurfer = (url) => {
    B.reset();
    const container = document.getElementById('wave');
    B.t0 = now();
    const ws = window.WaveSurfer.create({ container, url, autoplay: true, height: 88 });
    window.__ws = ws;
    watchMedia(ws.getMediaElement());
    ws.on('ready', () => markAfterPaint('waveformAt'));
    ws.on('error', (error) => {
      B.error = 'wavesurfer: ' + (error && error.message ? error.message : String(error));
    });
  };

  /**
   * Highlight cost per playback tick: plays from `startSeconds` at `rate` and, for `count`
   * 'timeupdate' events, measures from the event's capture on window (before the app's listener)
   * to the end of a listener added after the app's, which forces style and layout
   * (document.body.offsetHeight). Svelte's update runs in the microtask between the two.
   * Resolves with [{ms, active}] where `active` is the highlighted row's text (to count changes).
   */
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

  B.measureTicks = ({ count, startSeconds, rate }) =>
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
        const active = document.querySelector('[aria-current="true"]');
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
