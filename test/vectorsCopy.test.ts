// The project's copy of the known-answer vectors (test/vectors/koinos.json) is the shared file, wherever the shared
// folder sits next to the checkout; in a clone without it, the copy alone is checked for its shape and sources.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromBase64 } from '../src-main/koinos/bytes.ts';
import { nonceFromBytes } from '../src-main/koinos/transaction.ts';
import { SHARED_VECTORS_PATH, VECTORS_PATH, loadVectors } from './vectors.ts';

describe('vector copy', () => {
  it('equals ../shared/vectors/koinos.json where that file exists', () => {
    const copy = readFileSync(VECTORS_PATH, 'utf8');
    if (existsSync(SHARED_VECTORS_PATH)) {
      expect(copy, `test/vectors/koinos.json differs from ${SHARED_VECTORS_PATH}: copy the shared file again`).toBe(
        readFileSync(SHARED_VECTORS_PATH, 'utf8'),
      );
    } else {
      console.log(`vectorsCopy: ${SHARED_VECTORS_PATH} does not exist here; checking the copy on its own`);
    }
    const file = loadVectors();
    expect(file.vectors.length).toBeGreaterThan(0);
    for (const v of file.vectors) {
      expect(typeof v.id).toBe('string');
      expect(v.source, `${v.id} names no source`).toMatch(/\S/);
    }
  });

  it('carries the corrected note, which the codec confirms: the nonce KOLwAw== is 63586', () => {
    const holders = loadVectors().vectors.filter(
      (v) => typeof v.extra_derived?.note === 'string' && v.extra_derived.note.includes("'KOLwAw=='"),
    );
    expect(holders).toHaveLength(1);
    const stated = /'KOLwAw==' decodes to uint64_value (\d+)/.exec(holders[0]!.extra_derived.note)?.[1];
    expect(stated).toBe(nonceFromBytes(fromBase64('KOLwAw==')).toString());
    expect(stated).toBe('63586');
  });
});
