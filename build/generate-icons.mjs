/**
 * Draws the app icon (the header's four bars, white on dark blue, and a teal one for the moment
 * found, in a rounded square) and writes what electron-builder takes from this folder:
 * icon.png (1024 × 1024, Linux and the source of any other size), icon.ico (Windows: PNG images
 * of 16 to 256 pixels) and icon.icns (macOS: PNG images of 16 to 1024 pixels). Plain Node, no
 * image tools: `node build/generate-icons.mjs`. The output is committed; run again only to change
 * the drawing.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Shapes on a 1024 grid: rounded rectangles [x0, y0, x1, y1, radius, rgb]. */
const SHAPES = [
  [64, 64, 960, 960, 200, [0x1e, 0x3a, 0x5f]],
  [190, 428, 274, 596, 42, [0xff, 0xff, 0xff]],
  [330, 316, 414, 708, 42, [0xff, 0xff, 0xff]],
  [470, 232, 554, 792, 42, [0xff, 0xff, 0xff]],
  [610, 372, 694, 652, 42, [0xff, 0xff, 0xff]],
  [750, 456, 834, 568, 42, [0x5e, 0xea, 0xd4]],
];

/** True when point (x, y) of the 1024 grid is inside the rounded rectangle. */
function inside([x0, y0, x1, y1, r], x, y) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** RGBA pixels of the icon at `size` × `size`, 4 × 4 samples per pixel. */
function draw(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const scale = 1024 / size;
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) * scale;
          const y = (py + (sy + 0.5) / samples) * scale;
          const shape = SHAPES.findLast((s) => inside(s, x, y));
          if (!shape) continue;
          sum[0] += shape[5][0];
          sum[1] += shape[5][1];
          sum[2] += shape[5][2];
          sum[3] += 255;
        }
      }
      const n = samples * samples;
      const coverage = sum[3] / 255;
      const at = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) pixels[at + c] = coverage === 0 ? 0 : Math.round(sum[c] / coverage);
      pixels[at + 3] = Math.round(sum[3] / n);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG file (8-bit RGBA, no interlace) of the icon at `size`. */
function png(size) {
  const pixels = draw(size);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO file holding PNG images (Windows Vista and later read PNG entries). */
function ico(sizes) {
  const images = sizes.map((size) => png(size));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map((image, i) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(sizes[i] >= 256 ? 0 : sizes[i], 0);
    entry.writeUInt8(sizes[i] >= 256 ? 0 : sizes[i], 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(image.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += image.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images]);
}

/** An ICNS file holding PNG images under their OSType codes. */
function icns(types) {
  const entries = types.map(([type, size]) => {
    const image = png(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(image.length + 8, 4);
    return Buffer.concat([head, image]);
  });
  const body = Buffer.concat(entries);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

writeFileSync(join(HERE, 'icon.png'), png(1024));
writeFileSync(join(HERE, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256]));
writeFileSync(
  join(HERE, 'icon.icns'),
  icns([
    ['icp4', 16],
    ['icp5', 32],
    ['icp6', 64],
    ['ic07', 128],
    ['ic08', 256],
    ['ic09', 512],
    ['ic10', 1024],
  ]),
);
