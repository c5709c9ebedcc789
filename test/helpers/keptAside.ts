// Where the wallet keeps a data file it could not read whole (jsonFileStore.ts keepAside), computed as its comment
// states the name: for a test that checks the name, or blocks the copy with a folder before the wallet makes it.
import { createHash } from 'node:crypto';

/**
 * `<path>.damaged-` and the first 12 hex digits of the content's SHA-256.
 * @example
 * keptAsidePath('/data/dapps.json', '{ "cut'); // '/data/dapps.json.damaged-<12 hex digits>'
 */
export function keptAsidePath(path: string, content: string | Uint8Array): string {
  return `${path}.damaged-${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
}
