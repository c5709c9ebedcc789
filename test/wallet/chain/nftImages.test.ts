// The NFT image and metadata fetcher against real local HTTP servers: a PNG comes back as a data URL; an SVG (even
// labelled image/png), HTML, an oversized answer (with or without a length), a non-200, a stalled server and a fourth
// redirect are refused; up to three redirects to http(s) are followed, each new address checked again.
import { describe, expect, it } from 'vitest';
import { FETCH_TIMEOUT_MS, MAX_REDIRECTS, fetchImage, fetchMetadata, mediaUrl, rasterType } from '../../../src-main/wallet/chain/nftImages.ts';
import { png, SVG } from './nftFixtures.ts';
import { testServer, walletErrorOf } from './helpers.ts';

const PNG = png(4, [200, 40, 40]);

/** A server of fixed routes: path -> status, headers and body. */
function routes(table: Record<string, { status?: number; headers?: Record<string, string>; body?: Buffer | string; stall?: boolean }>) {
  return testServer((req, res) => {
    const route = table[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    if (route.stall) return; // never answers
    res.writeHead(route.status ?? 200, route.headers ?? {});
    res.end(route.body ?? '');
  });
}

describe('NFT media addresses', () => {
  it('maps ipfs:// through the gateway and refuses other kinds of address', async () => {
    expect(mediaUrl('ipfs://bafyCID/7.png', 'https://ipfs.io/ipfs/').href).toBe('https://ipfs.io/ipfs/bafyCID/7.png');
    expect(mediaUrl('ipfs://ipfs/bafyCID', 'https://gw.example/ipfs/').href).toBe('https://gw.example/ipfs/bafyCID');
    expect(mediaUrl(' https://img.example/a.png ', 'https://ipfs.io/ipfs/').href).toBe('https://img.example/a.png');
    for (const bad of ['ipfs:////evil.example/x.png', 'ipfs://../../x.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', 'file:///etc/passwd', 'ftp://x/y.png', 'https://me:pw@img.example/a.png', 'not a url']) {
      const error = await walletErrorOf(Promise.resolve().then(() => mediaUrl(bad, 'https://ipfs.io/ipfs/')));
      expect(error.code, bad).toBe('IMAGE_REFUSED');
    }
  });

  it('tells raster formats by their magic numbers only', () => {
    expect(rasterType(PNG)).toBe('image/png');
    expect(rasterType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(rasterType(new TextEncoder().encode('GIF89a...'))).toBe('image/gif');
    expect(rasterType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(rasterType(new TextEncoder().encode(SVG))).toBeUndefined();
    expect(rasterType(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
  });
});

describe('fetching an NFT image over HTTP', () => {
  it('returns a PNG as a data URL of its own bytes', async () => {
    const server = await routes({ '/a.png': { headers: { 'content-type': 'application/octet-stream' }, body: PNG } });
    const dataUrl = await fetchImage(new URL(`${server.url}/a.png`));
    expect(dataUrl).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('refuses an SVG even when it is labelled image/png, and HTML', async () => {
    const server = await routes({
      '/x.svg': { headers: { 'content-type': 'image/png' }, body: SVG },
      '/x.html': { headers: { 'content-type': 'image/jpeg' }, body: '<html><script>alert(1)</script></html>' },
    });
    for (const path of ['/x.svg', '/x.html']) {
      const error = await walletErrorOf(fetchImage(new URL(`${server.url}${path}`)));
      expect(error.code).toBe('IMAGE_REFUSED');
      expect(error.shortMessage).toBe(`The image at ${server.url}${path} is not a PNG, JPEG, GIF or WebP image; other kinds (SVG among them) are not shown.`);
    }
  });

  it('refuses an answer above the cap, whether it declares its length or streams it', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
    const server = await testServer((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-length': String(big.length) }).end(big);
      } else {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        for (let i = 0; i < big.length; i += 1000) res.write(big.subarray(i, i + 1000));
        res.end();
      }
    });
    const declared = await walletErrorOf(fetchImage(new URL(`${server.url}/declared`), { maxBytes: 1024 }));
    expect(declared.shortMessage).toBe(`The image at ${server.url}/declared is ${big.length} bytes, more than the 1024 bytes allowed.`);
    const streamed = await walletErrorOf(fetchImage(new URL(`${server.url}/streamed`), { maxBytes: 1024 }));
    expect(streamed.shortMessage).toBe(`The image at ${server.url}/streamed is more than the 1024 bytes allowed.`);
    expect(await fetchImage(new URL(`${server.url}/streamed`), { maxBytes: big.length })).toMatch(/^data:image\/png;base64,/);
  });

  it(`follows up to ${MAX_REDIRECTS} redirects, and refuses a fourth and a redirect to another kind of address`, async () => {
    const server = await routes({
      '/r1': { status: 302, headers: { location: '/r2' } },
      '/r2': { status: 301, headers: { location: '/r3' } },
      '/r3': { status: 307, headers: { location: '/img' } },
      '/img': { body: PNG },
      '/r0': { status: 302, headers: { location: '/r1' } },
      '/file': { status: 302, headers: { location: 'file:///etc/passwd' } },
      '/nowhere': { status: 302 },
    });
    expect(await fetchImage(new URL(`${server.url}/r1`))).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    const four = await walletErrorOf(fetchImage(new URL(`${server.url}/r0`)));
    expect(four.shortMessage).toBe(`The image at ${server.url}/r0 redirects more than ${MAX_REDIRECTS} times; it was not followed further.`);
    const file = await walletErrorOf(fetchImage(new URL(`${server.url}/file`)));
    expect(file.shortMessage).toBe('expected an http(s) or ipfs:// address, got a file: address');
    const nowhere = await walletErrorOf(fetchImage(new URL(`${server.url}/nowhere`)));
    expect(nowhere.shortMessage).toBe(`The image at ${server.url}/nowhere answered a redirect without an address.`);
  });

  it('refuses a non-200 answer and a server that does not answer in time', async () => {
    const server = await routes({ '/gone': { status: 404 }, '/stall': { stall: true } });
    expect((await walletErrorOf(fetchImage(new URL(`${server.url}/gone`)))).shortMessage).toBe(`The image at ${server.url}/gone answered HTTP 404.`);
    const slow = await walletErrorOf(fetchImage(new URL(`${server.url}/stall`), { timeoutMs: 300 }));
    expect(slow.shortMessage).toBe(`The image at ${server.url}/stall did not answer within 0.3 s.`);
    expect(FETCH_TIMEOUT_MS).toBe(10_000);
  });

  it('reads metadata JSON objects only', async () => {
    const server = await routes({ '/m/0x01': { body: '{"name":"One","image":"ipfs://cid/1.png"}' }, '/m/0x02': { body: '[1,2]' }, '/m/0x03': { body: 'nope' } });
    expect(await fetchMetadata(new URL(`${server.url}/m/0x01`))).toEqual({ name: 'One', image: 'ipfs://cid/1.png' });
    expect((await walletErrorOf(fetchMetadata(new URL(`${server.url}/m/0x02`)))).shortMessage).toBe(`The metadata at ${server.url}/m/0x02 is not a JSON object.`);
    expect((await walletErrorOf(fetchMetadata(new URL(`${server.url}/m/0x03`)))).shortMessage).toBe(`The metadata at ${server.url}/m/0x03 is not JSON.`);
  });
});
