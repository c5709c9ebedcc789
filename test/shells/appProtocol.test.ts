// The Electron window's app://wallet/ scheme, answered without Electron: files of the renderer folder with their
// content types and the wallet's policy, 404 for every way out of the folder, another host or a hidden file.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_SCHEME_PRIVILEGES, answerAppRequest } from '../../src-main/shells/electron/appProtocol.ts';

let top: string;
let renderer: string;
beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'koinos-app-scheme-'));
  renderer = join(top, 'renderer');
  await mkdir(join(renderer, 'assets'), { recursive: true });
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>wallet</title>');
  await writeFile(join(renderer, 'assets', 'index-abc.js'), 'console.log(1);');
  await writeFile(join(renderer, 'assets', 'index-abc.css'), 'body{}');
  await writeFile(join(renderer, 'assets', 'logo.svg'), '<svg/>');
  await writeFile(join(renderer, 'assets', 'data.bin'), 'bytes');
  await writeFile(join(renderer, '.hidden'), 'hidden');
  await writeFile(join(top, 'secret.txt'), 'outside the renderer');
  await symlink(join(top, 'secret.txt'), join(renderer, 'assets', 'link.txt'));
});
afterAll(async () => {
  await rm(top, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => answerAppRequest({ url, method }, renderer);

describe('answerAppRequest', () => {
  it('serves index.html for the entry URL and for /, with the policy and nosniff', async () => {
    for (const url of [
      APP_ENTRY_URL,
      'app://wallet/',
      'app://wallet/index.html#/send',
      'app://wallet/index.html?x=1',
    ]) {
      const answer = await get(url);
      expect(answer.status, url).toBe(200);
      expect(await answer.text()).toBe('<!doctype html><title>wallet</title>');
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('gives each file its content type', async () => {
    const types: [string, string][] = [
      ['assets/index-abc.js', 'text/javascript; charset=utf-8'],
      ['assets/index-abc.css', 'text/css; charset=utf-8'],
      ['assets/logo.svg', 'image/svg+xml'],
      ['assets/data.bin', 'application/octet-stream'],
    ];
    for (const [path, type] of types) {
      const answer = await get(`app://wallet/${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type'), path).toBe(type);
    }
    expect(await (await get('app://wallet/assets/index-abc.js')).text()).toBe('console.log(1);');
  });

  it('answers 404 for every way out of the folder, hidden files, folders and missing files', async () => {
    const refused = [
      'app://wallet/../secret.txt',
      'app://wallet/%2e%2e/secret.txt',
      'app://wallet/..%2fsecret.txt',
      'app://wallet/assets/..%2f..%2fsecret.txt',
      'app://wallet/%252e%252e/secret.txt',
      'app://wallet/..%5csecret.txt',
      'app://wallet/assets%5c..%5c..%5csecret.txt',
      'app://wallet/assets/link.txt', // a symbolic link that leads out
      `app://wallet/${encodeURIComponent(join(top, 'secret.txt'))}`,
      'app://wallet//etc/passwd',
      'app://wallet/index.html%00.js',
      'app://wallet/.hidden',
      'app://wallet/assets',
      'app://wallet/assets/',
      'app://wallet/missing.js',
      'app://wallet/%E0%A4%A',
    ];
    for (const url of refused) {
      const answer = await get(url);
      expect(answer.status, url).toBe(404);
      expect(await answer.text(), url).toBe('Not found.');
    }
  });

  it('answers 404 for another host, another scheme or a port', async () => {
    for (const url of [
      'app://other/index.html',
      'app://wallet:1/index.html',
      'file:///index.html',
      'https://wallet/index.html',
      'not a url',
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });

  it('answers GET and HEAD (without a body) only', async () => {
    const head = await get(APP_ENTRY_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const answer = await get(APP_ENTRY_URL, method);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('registers the scheme as standard and secure (an origin, and a secure context for the clipboard), nothing more', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true, supportFetchAPI: true });
  });
});
