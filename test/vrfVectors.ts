// Loads the VRF known answers (test/vectors/vrf.json, koinos-crypto-cpp's vrf_tests) for the VRF and host tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One VRF vector: `id`, `source` and the fields its kind has (hex strings, `message_utf8`). */
export interface VrfVector {
  id: string;
  source: string;
  // Fields differ per vector; tests read them by name, as in the JSON file.
  [field: string]: any;
}

const PATH = fileURLToPath(new URL('./vectors/vrf.json', import.meta.url));
let cache: VrfVector[] | undefined;

/**
 * The vector with this id.
 * @throws Error naming the file and the id when the vector is not there.
 */
export function vrfVector(id: string): VrfVector {
  cache ??= (JSON.parse(readFileSync(PATH, 'utf8')) as { vectors: VrfVector[] }).vectors;
  const found = cache.find((v) => v.id === id);
  if (!found) throw new Error(`${PATH} has no vector ${id}`);
  return found;
}
