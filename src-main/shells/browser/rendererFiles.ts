// The built renderer (out/renderer) as the browser shell serves it: files inside that folder only, index.html with
// the bridge's <script> injected ahead of the app's module scripts, and the response headers of a hardened page.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contentSecurityPolicy, resolveRendererFile } from '../rendererFiles.ts';
import { BRIDGE_PATH } from './bridgeScript.ts';

/** The renderer's policy (src-renderer/index.html), plus what only a header can carry (frame-ancestors). */
const CONTENT_SECURITY_POLICY = contentSecurityPolicy(false);

/** Headers of every response: no framing, no sniffing, no referrer, nothing cached (the page and bridge change per launch). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
});

/**
 * The folder of the built renderer: beside the bundled shell (out/main/../renderer) or, when run from the sources,
 * out/renderer at the top of the checkout.
 */
export function defaultRendererDir(): string {
  const candidates = [
    resolve(import.meta.dirname, '../renderer'),
    resolve(import.meta.dirname, '../../../out/renderer'),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[candidates.length - 1]!;
}

/** Adds the bridge script before the page's first <script> (module scripts run after a classic one that precedes them). */
function injectBridge(html: string): string {
  const tag = `<script src="${BRIDGE_PATH}"></script>`;
  const first = html.search(/<script\b/i);
  if (first >= 0) return `${html.slice(0, first)}${tag}\n    ${html.slice(first)}`;
  const head = html.search(/<\/head>/i);
  if (head >= 0) return `${html.slice(0, head)}${tag}\n  ${html.slice(head)}`;
  return `${tag}\n${html}`;
}

export interface RendererFile {
  body: Buffer;
  contentType: string;
}

/**
 * Reads the file a URL path names inside `root` (`/` is index.html, with the bridge injected). Returns undefined for
 * anything outside `root`, hidden names, folders and missing files.
 */
export async function readRendererFile(root: string, urlPath: string): Promise<RendererFile | undefined> {
  const file = await resolveRendererFile(root, urlPath);
  if (!file) return undefined;
  const raw = await readFile(file.path);
  const body = file.relative === 'index.html' ? Buffer.from(injectBridge(raw.toString('utf8'))) : raw;
  return { body, contentType: file.contentType };
}
