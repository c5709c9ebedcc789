// Loads the known-answer vectors for tests: the project's copy (test/vectors/koinos.json) of the shared file
// `../shared/vectors/koinos.json`. Tests read values from here at run time; they never copy numbers out of the file.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The project's copy of the vectors (public facts, each naming its source), so that any clone can run the tests. */
export const VECTORS_PATH = fileURLToPath(new URL('./vectors/koinos.json', import.meta.url));

/** The shared file the copy comes from, in the `shared` folder next to the checkout, where that folder exists. */
export const SHARED_VECTORS_PATH = fileURLToPath(new URL('../../shared/vectors/koinos.json', import.meta.url));

/** One vector: `id`, `kind`, `source`, and fields that depend on the kind (read them as the file has them). */
export interface Vector {
  id: string;
  kind: string;
  source: string;
  // Fields differ per vector; tests read them by name, as in the JSON file.
  [field: string]: any;
}

export interface VectorFile {
  about: string;
  sources: Record<string, string>;
  vectors: Vector[];
}

let cache: VectorFile | undefined;

/**
 * The whole vector file, read once.
 * @throws Error naming the expected path when the file is missing or is not the expected JSON.
 */
export function loadVectors(): VectorFile {
  if (cache) return cache;
  if (!existsSync(VECTORS_PATH)) {
    throw new Error(
      `Known-answer vectors not found at ${VECTORS_PATH}: the repository keeps them there (test/vectors/koinos.json).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(VECTORS_PATH, 'utf8'));
  } catch (cause) {
    throw new Error(`Known-answer vectors at ${VECTORS_PATH} are not valid JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as VectorFile).vectors)) {
    throw new Error(`Known-answer vectors at ${VECTORS_PATH} have no "vectors" array.`);
  }
  cache = parsed as VectorFile;
  return cache;
}

/**
 * The vector with this id.
 * @throws Error listing the known ids when there is none.
 * @example
 * const key = vector('koilib-key-1').private_key_hex as string;
 */
export function vector<T extends object = Vector>(id: string): T & Vector {
  const found = loadVectors().vectors.find((v) => v.id === id);
  if (!found) {
    const known = loadVectors()
      .vectors.map((v) => v.id)
      .join(', ');
    throw new Error(`No vector with id "${id}" in ${VECTORS_PATH}; known ids: ${known}`);
  }
  return found as T & Vector;
}
