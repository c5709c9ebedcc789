// The renderer's content security policy, as written in index.html and as both shells serve it: one policy, with
// frames and workers forbidden (the renderer uses neither; 'self' would otherwise let an injected page frame any app
// file), and no framing of the wallet itself.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP_DIRECTIVES } from '../../src-main/shells/rendererFiles.ts';
import { answerAppRequest, APP_ENTRY_URL } from '../../src-main/shells/electron/appProtocol.ts';
import { browserShells, raw, rendererFixture } from './browserShellHelpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const REQUIRED = [
  "frame-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "script-src 'self'",
];

/** The directives of the first CSP <meta> of an HTML page. */
function metaPolicy(html: string): string[] {
  const content = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html)?.[1];
  if (content === undefined) throw new Error('the page has no CSP <meta>');
  return content
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|svelte|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('renderer content security policy', () => {
  it('is the same in src-renderer/index.html as in the shells, and forbids frames and workers', () => {
    const page = metaPolicy(readFileSync(join(ROOT, 'src-renderer/index.html'), 'utf8'));
    expect(page).toEqual([...RENDERER_CSP_DIRECTIVES]);
    expect(page).toEqual(expect.arrayContaining(REQUIRED));
  });

  it('lets images come only from the app and from data: URLs (NFT images main fetched and checked), never from the network', () => {
    const images = RENDERER_CSP_DIRECTIVES.filter((d) => d.startsWith('img-src'));
    expect(images).toEqual(["img-src 'self' data:"]);
    expect(RENDERER_CSP_DIRECTIVES.join('; ')).not.toMatch(/https?:|\*/);
  });

  it('matches what the renderer does: no workers, no frames anywhere in its sources', () => {
    for (const file of sourceFiles(join(ROOT, 'src-renderer'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/new\s+(Shared)?Worker\s*\(|serviceWorker|<iframe|<frame|<embed|<object/);
    }
  });

  it.skipIf(!existsSync(join(ROOT, 'out/renderer/index.html')))('is in the built index.html', () => {
    expect(metaPolicy(readFileSync(join(ROOT, 'out/renderer/index.html'), 'utf8'))).toEqual(
      expect.arrayContaining(REQUIRED),
    );
  });

  describe('as served', () => {
    const start = browserShells();

    it('by the browser shell: in the page and as a header with frame-ancestors', async () => {
      const shell = await start();
      const answer = await raw(shell, { path: '/' });
      expect(answer.status).toBe(200);
      expect(metaPolicy(answer.text)).toEqual(expect.arrayContaining(REQUIRED));
      const header = String(answer.headers['content-security-policy']).split('; ');
      expect(header).toEqual(expect.arrayContaining([...REQUIRED, "frame-ancestors 'none'"]));
    });

    it('by the Electron app scheme: in the page and as a header with frame-ancestors', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'koinos-renderer-'));
      try {
        await rendererFixture(dir);
        const answer = await answerAppRequest({ url: APP_ENTRY_URL, method: 'GET' }, dir);
        expect(metaPolicy(await answer.text())).toEqual(expect.arrayContaining(REQUIRED));
        expect(answer.headers.get('content-security-policy')!.split('; ')).toEqual(
          expect.arrayContaining([...REQUIRED, "frame-ancestors 'none'"]),
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
