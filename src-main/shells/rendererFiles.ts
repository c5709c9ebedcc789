// The built renderer (out/renderer) as both shells serve it: which file a URL path names (inside the folder only),
// its content type, and the page's content security policy - one policy for the Electron scheme and the browser shell.
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

/**
 * The policy of src-renderer/index.html's <meta> (a test keeps the two equal). No frames and no workers: the
 * renderer uses neither, and with `'self'` as their fallback a compromised page could frame or run any app file.
 */
export const RENDERER_CSP_DIRECTIVES: readonly string[] = Object.freeze([
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // NFT images reach the page only as data: URLs of bytes main fetched and checked to be raster images.
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
]);

/**
 * The policy sent as a header: the page's, plus frame-ancestors (which only a header can carry). Vite's dev server
 * injects component styles as <style> elements, so inline styles are allowed in development only.
 * @example
 * contentSecurityPolicy(false); // "default-src 'self'; script-src 'self'; ...; frame-ancestors 'none'"
 */
export function contentSecurityPolicy(development: boolean): string {
  return [...RENDERER_CSP_DIRECTIVES, "frame-ancestors 'none'"]
    .map((directive) =>
      development && directive === "style-src 'self'" ? "style-src 'self' 'unsafe-inline'" : directive,
    )
    .join('; ');
}

/** Content types of the files a Vite build writes; anything else is served as bytes (and `nosniff` keeps it so). */
const CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
});

/** A file of the renderer folder that a URL path names. */
export interface ResolvedRendererFile {
  /** The real path of the file, inside the renderer folder. */
  path: string;
  /** The path relative to the folder, `/` separated (`index.html` for `/`). */
  relative: string;
  contentType: string;
}

/**
 * The file a URL path (still percent-encoded, as in a URL) names inside `root`: `/` is index.html. Undefined for
 * anything outside `root` (`..`, encoded separators, symbolic links that lead out), hidden names, NUL, folders and
 * missing files.
 * @example
 * await resolveRendererFile('/app/out/renderer', '/assets/index-abc.js'); // { path: '/app/out/renderer/assets/index-abc.js', ... }
 * await resolveRendererFile('/app/out/renderer', '/..%2f..%2fetc/passwd'); // undefined
 */
export async function resolveRendererFile(root: string, urlPath: string): Promise<ResolvedRendererFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((part) => part.startsWith('.')))
    return undefined;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  let base: string;
  let path: string;
  try {
    base = await realpath(root);
    path = await realpath(resolve(base, relative));
    if (!path.startsWith(base + sep) || !(await stat(path)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return { path, relative, contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream' };
}
