// The wallet window's own scheme, app://wallet/, serving the built renderer instead of file:// (review 3, L1): under
// file:// the policy's 'self' means every file on the disk, and Electron grants file pages extra reads. Pure apart
// from reading the renderer folder, so that a test serves requests without Electron.
import { readFile } from 'node:fs/promises';
import { contentSecurityPolicy, resolveRendererFile } from '../rendererFiles.ts';

/** The scheme registered as privileged before the app is ready. */
export const APP_SCHEME = 'app';
/** The one host of the scheme; any other host is not the wallet. */
export const APP_HOST = 'wallet';
/** The page the window loads. */
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Privileges of the scheme (Electron's CustomScheme privileges): standard (an origin, relative URLs), secure (a
 * secure context, which the Clipboard API needs), and fetch for the module scripts. No service workers, no CSP
 * bypass, no CORS from other origins.
 */
export const APP_SCHEME_PRIVILEGES = Object.freeze({ standard: true, secure: true, supportFetchAPI: true });

/** Headers of every answer: the wallet's policy, no sniffing, nothing cached across versions of the app. */
const APP_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': contentSecurityPolicy(false),
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

/**
 * The answer to one request on the app scheme (the handler given to `protocol.handle`): a file of `rendererDir`
 * with its content type, 404 for anything else (another host, a path outside the folder, a hidden or missing
 * file), 405 for a method other than GET and HEAD.
 * @example
 * protocol.handle(APP_SCHEME, (request) => answerAppRequest(request, rendererDir));
 */
export async function answerAppRequest(
  request: { url: string; method: string },
  rendererDir: string,
): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return notFound();
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound();
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed.', {
      status: 405,
      headers: { ...APP_HEADERS, 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' },
    });
  }
  const file = await resolveRendererFile(rendererDir, url.pathname);
  if (!file) return notFound();
  const body = await readFile(file.path);
  const headers = { ...APP_HEADERS, 'content-type': file.contentType, 'content-length': String(body.length) };
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}

function notFound(): Response {
  return new Response('Not found.', {
    status: 404,
    headers: { ...APP_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
  });
}
