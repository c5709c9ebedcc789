// Hex and the gateway's base64 (URL-safe, padded) written by koinos/bytes.ts, checked against Node's own encoders for
// every length up to a few blocks and across the length where the text is made in several pieces.
import { describe, expect, it } from 'vitest';
import { fromBase64, fromHex, toBase64Url, toHex } from '../../src-main/koinos/bytes.ts';

const LENGTHS = [...Array.from({ length: 70 }, (_, i) => i), 4095, 4096, 4097, 6143, 6144, 6145, 100_000];

function sample(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 255);
}

describe('hex and base64 text', () => {
  it('writes what Node writes, for short and long input', () => {
    for (const length of LENGTHS) {
      const bytes = sample(length);
      const node = Buffer.from(bytes);
      expect(toHex(bytes), `hex of ${length} bytes`).toBe(node.toString('hex'));
      const base64 = node.toString('base64url');
      expect(toBase64Url(bytes), `base64 of ${length} bytes`).toBe(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    }
  });

  it('reads back what it writes', () => {
    for (const length of LENGTHS) {
      const bytes = sample(length);
      expect(fromHex(toHex(bytes))).toEqual(bytes);
      expect(fromBase64(toBase64Url(bytes))).toEqual(bytes);
    }
  });
});
