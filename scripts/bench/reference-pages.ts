/**
 * The benchmark's references: the simplest thing that does each of the app's jobs in the same
 * browser. Plain pages, no framework; the timing is done by scripts/bench/agent.js, installed in
 * every page, so app and reference are timed by the same code.
 * - bare.html: a bare `<audio>` element (agent.js `startBare`): the machine's own speed to first audio.
 * - wavesurfer.html: wavesurfer.js from node_modules, either on its default path (fetch and decode
 *   the whole file, agent.js `startWaveSurfer`) or handed precomputed `peaks` + `duration`
 *   (`startWaveSurferPeaks`), drawn at the app's waveform size.
 * - list.html: a transcript as a plain list, with its own few lines of script below: paint every
 *   entry as an `<li>`; on 'timeupdate' move one class to the entry being spoken (binary search of
 *   the offsets); on input, scan every message case-insensitively and mark the matches in the
 *   rows in view (the first match scrolled into view).
 */

/** A bare page: agent.js adds the `<audio>` element. */
export const BARE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bare audio</title></head>
<body><h1>bare &lt;audio&gt;</h1></body></html>`;

/** wavesurfer.js on a page of its own; agent.js creates it in #wave. */
export const WAVESURFER_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>wavesurfer</title></head>
<body><h1>wavesurfer.js</h1><div id="wave" style="width: 1200px"></div>
<script type="module">import WaveSurfer from '/bench/wavesurfer.esm.js'; window.WaveSurfer = WaveSurfer;</script>
</body></html>`;

/**
 * The plain transcript list. `window.referenceList.paint(entries)` replaces the list with
 * `entries` (wire format: role, message, timestamp in seconds); `load(url)` gives the page's
 * `<audio>` the recording whose 'timeupdate' moves the `current` class.
 */
export const LIST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>plain list</title>
<style>
  #list { position: relative; height: 600px; width: 760px; overflow: auto; font: 14px sans-serif; }
  #list li { padding: 4px 8px; }
  #list li[data-role="agent"] { background: #f4f6fb; }
  #list li.current { outline: 2px solid #2255cc; }
  mark { background: #ffe066; }
</style></head>
<body>
<input type="search" aria-label="Search the transcript"> <span id="count"></span>
<audio id="audio" preload="metadata"></audio>
<div id="list"></div>
<script>
  const list = document.getElementById('list');
  const audio = document.getElementById('audio');
  const search = document.querySelector('input');
  const count = document.getElementById('count');
  let rows = [], texts = [], lower = [], offsets = [], current = -1, marked = [];

  window.referenceList = {
    paint(entries) {
      const ol = document.createElement('ol');
      rows = entries.map((entry) => {
        const li = document.createElement('li');
        li.dataset.role = entry.role;
        li.textContent = entry.message;
        ol.append(li);
        return li;
      });
      texts = entries.map((entry) => entry.message);
      lower = texts.map((text) => text.toLowerCase());
      offsets = entries.map((entry) => entry.timestamp);
      current = -1;
      marked = [];
      list.replaceChildren(ol);
    },
    load(url) {
      audio.src = url;
    },
  };

  audio.addEventListener('timeupdate', () => {
    const t = audio.currentTime;
    let low = 0, high = offsets.length - 1, at = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (offsets[mid] <= t) { at = mid; low = mid + 1; } else high = mid - 1;
    }
    if (at === current) return;
    if (current >= 0) rows[current].classList.remove('current');
    if (at >= 0) rows[at].classList.add('current');
    current = at;
  });

  function mark(i, query) {
    const text = texts[i], li = rows[i];
    li.textContent = '';
    let at = 0, k;
    while ((k = lower[i].indexOf(query, at)) !== -1) {
      li.append(text.slice(at, k));
      const m = document.createElement('mark');
      m.textContent = text.slice(k, k + query.length);
      li.append(m);
      at = k + query.length;
    }
    li.append(text.slice(at));
  }

  search.addEventListener('input', () => {
    for (const i of marked) rows[i].textContent = texts[i];
    marked = [];
    const query = search.value.trim().toLowerCase();
    if (!query) { count.textContent = ''; return; }
    const hits = [];
    for (let i = 0; i < lower.length; i++) if (lower[i].includes(query)) hits.push(i);
    count.textContent = hits.length + ' matches';
    if (hits.length === 0) return;
    rows[hits[0]].scrollIntoView({ block: 'nearest' });
    const top = list.scrollTop, bottom = top + list.clientHeight;
    for (const i of hits) {
      const row = rows[i];
      if (row.offsetTop + row.offsetHeight < top) continue;
      if (row.offsetTop > bottom) break;
      mark(i, query);
      marked.push(i);
    }
  });
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    search.value = '';
    search.dispatchEvent(new Event('input'));
  });
</script>
</body></html>`;

/** A quarter second of silence, 8 kHz mono 16-bit WAV (the warm-up sound, see agent.js `warmUp`). */
export function silentWav(): Buffer {
  const samples = 2000;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  return wav;
}
