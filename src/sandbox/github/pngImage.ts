import { deflateSync } from "node:zlib";

/** Lets the demo world's version stamp change when this generator code changes. */
export const PNG_IMAGE_MODULE_URL = import.meta.url;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A real PNG (RGBA, 8 bits) of a gear-like pattern, drawn by code so the repository holds a genuine
 * binary file without a committed fixture. `variant` changes the colours.
 */
export function gearPng(size: number, variant: number): Buffer {
  const rows: Buffer[] = [];
  const centre = (size - 1) / 2;
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x += 1) {
      const dx = x - centre;
      const dy = y - centre;
      const radius = Math.sqrt(dx * dx + dy * dy);
      const teeth = Math.cos(Math.atan2(dy, dx) * 12) > 0 ? size * 0.46 : size * 0.4;
      const inside = radius < teeth && radius > size * 0.12;
      const offset = 1 + x * 4;
      row[offset] = inside ? (40 + variant * 50) % 256 : 255;
      row[offset + 1] = inside ? (90 + variant * 30) % 256 : 255;
      row[offset + 2] = inside ? 160 : 255;
      row[offset + 3] = inside ? 255 : 0;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    // Level 0 (stored blocks): the bytes do not depend on the zlib version.
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 0 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
