// The NFT image and metadata fetcher against real local HTTP servers: a PNG comes back as a data URL; an SVG (even
// labelled image/png), HTML, oversized or late answers and a fourth redirect are refused; addresses on the user's own
// network (however spelled, resolved or redirected to) are refused before any connection; the checked address is used.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  FETCH_TIMEOUT_MS,
  MAX_REDIRECTS,
  fetchImage,
  fetchMetadata,
  mediaUrl,
  rasterType,
} from '../../../src-main/wallet/chain/nftImages.ts';
import { png, SVG } from './nftFixtures.ts';
import { onCleanup, testServer } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

const PNG = png(4, [200, 40, 40]);
/** The test servers listen on 127.0.0.1: only these tests may fetch from loopback. */
const LOCAL = { allowLoopbackForTests: true } as const;

/** A server of fixed routes: path -> status, headers and body. */
function routes(
  table: Record<string, { status?: number; headers?: Record<string, string>; body?: Buffer | string; stall?: boolean }>,
) {
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
    for (const bad of [
      'ipfs:////evil.example/x.png',
      'ipfs://../../x.png',
      'data:image/png;base64,AAAA',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'ftp://x/y.png',
      'https://me:pw@img.example/a.png',
      'not a url',
    ]) {
      const error = await expectWalletError(Promise.resolve().then(() => mediaUrl(bad, 'https://ipfs.io/ipfs/')));
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
    const dataUrl = await fetchImage(new URL(`${server.url}/a.png`), LOCAL);
    expect(dataUrl).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('refuses an SVG even when it is labelled image/png, and HTML', async () => {
    const server = await routes({
      '/x.svg': { headers: { 'content-type': 'image/png' }, body: SVG },
      '/x.html': { headers: { 'content-type': 'image/jpeg' }, body: '<html><script>alert(1)</script></html>' },
    });
    for (const path of ['/x.svg', '/x.html']) {
      const error = await expectWalletError(fetchImage(new URL(`${server.url}${path}`), LOCAL));
      expect(error.code).toBe('IMAGE_REFUSED');
      expect(error.shortMessage).toBe(
        `The image at ${server.url}${path} is not a PNG, JPEG, GIF or WebP image; other kinds (SVG among them) are not shown.`,
      );
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
    const declared = await expectWalletError(
      fetchImage(new URL(`${server.url}/declared`), { ...LOCAL, maxBytes: 1024 }),
    );
    expect(declared.shortMessage).toBe(
      `The image at ${server.url}/declared is ${big.length} bytes, more than the 1024 bytes allowed.`,
    );
    const streamed = await expectWalletError(
      fetchImage(new URL(`${server.url}/streamed`), { ...LOCAL, maxBytes: 1024 }),
    );
    expect(streamed.shortMessage).toBe(`The image at ${server.url}/streamed is more than the 1024 bytes allowed.`);
    expect(await fetchImage(new URL(`${server.url}/streamed`), { ...LOCAL, maxBytes: big.length })).toMatch(
      /^data:image\/png;base64,/,
    );
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
    expect(await fetchImage(new URL(`${server.url}/r1`), LOCAL)).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    const four = await expectWalletError(fetchImage(new URL(`${server.url}/r0`), LOCAL));
    expect(four.shortMessage).toBe(
      `The image at ${server.url}/r0 redirects more than ${MAX_REDIRECTS} times; it was not followed further.`,
    );
    const file = await expectWalletError(fetchImage(new URL(`${server.url}/file`), LOCAL));
    expect(file.shortMessage).toBe('expected an http(s) or ipfs:// address, got a file: address');
    const nowhere = await expectWalletError(fetchImage(new URL(`${server.url}/nowhere`), LOCAL));
    expect(nowhere.shortMessage).toBe(`The image at ${server.url}/nowhere answered a redirect without an address.`);
  });

  it('refuses a non-200 answer and a server that does not answer in time', async () => {
    const server = await routes({ '/gone': { status: 404 }, '/stall': { stall: true } });
    expect((await expectWalletError(fetchImage(new URL(`${server.url}/gone`), LOCAL))).shortMessage).toBe(
      `The image at ${server.url}/gone answered HTTP 404.`,
    );
    const slow = await expectWalletError(fetchImage(new URL(`${server.url}/stall`), { ...LOCAL, timeoutMs: 300 }));
    expect(slow.shortMessage).toBe(`The image at ${server.url}/stall did not answer within 0.3 s.`);
    expect(FETCH_TIMEOUT_MS).toBe(10_000);
  });

  it('reads metadata JSON objects only', async () => {
    const server = await routes({
      '/m/0x01': { body: '{"name":"One","image":"ipfs://cid/1.png"}' },
      '/m/0x02': { body: '[1,2]' },
      '/m/0x03': { body: 'nope' },
    });
    expect(await fetchMetadata(new URL(`${server.url}/m/0x01`), LOCAL)).toEqual({
      name: 'One',
      image: 'ipfs://cid/1.png',
    });
    expect((await expectWalletError(fetchMetadata(new URL(`${server.url}/m/0x02`), LOCAL))).shortMessage).toBe(
      `The metadata at ${server.url}/m/0x02 is not a JSON object.`,
    );
    expect((await expectWalletError(fetchMetadata(new URL(`${server.url}/m/0x03`), LOCAL))).shortMessage).toBe(
      `The metadata at ${server.url}/m/0x03 is not JSON.`,
    );
  });
});

/** A real server on 127.0.0.1 that counts the TCP connections it accepts (a refused fetch must open none). */
async function countingServer(): Promise<{ port: number; connections: () => number; server: Server }> {
  let connections = 0;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, connections: () => connections, server };
}

const OWN = 'NFT images and metadata are not loaded from addresses on your own network.';

describe("refusing addresses on the user's own network", () => {
  it('refuses loopback, private, link-local and unspecified addresses in every spelling before connecting', async () => {
    const { port, connections } = await countingServer();
    const cases: [url: string, shown: string, why: string][] = [
      [`http://127.0.0.1:${port}/a.png`, `http://127.0.0.1:${port}/a.png`, '127.0.0.1 is a loopback address'],
      [`http://[::1]:${port}/a.png`, `http://[::1]:${port}/a.png`, '::1 is a loopback address'],
      [`http://0x7f000001:${port}/a.png`, `http://127.0.0.1:${port}/a.png`, '127.0.0.1 is a loopback address'],
      [`http://2130706433:${port}/a.png`, `http://127.0.0.1:${port}/a.png`, '127.0.0.1 is a loopback address'],
      [`http://0177.0.0.1:${port}/a.png`, `http://127.0.0.1:${port}/a.png`, '127.0.0.1 is a loopback address'],
      [`http://127.1:${port}/a.png`, `http://127.0.0.1:${port}/a.png`, '127.0.0.1 is a loopback address'],
      [
        `http://[::ffff:127.0.0.1]:${port}/a.png`,
        `http://[::ffff:7f00:1]:${port}/a.png`,
        '::ffff:7f00:1 is a loopback address',
      ],
      [
        `http://[64:ff9b::127.0.0.1]:${port}/a.png`,
        `http://[64:ff9b::7f00:1]:${port}/a.png`,
        '64:ff9b::7f00:1 is a loopback address',
      ],
      [`http://0.0.0.0:${port}/a.png`, `http://0.0.0.0:${port}/a.png`, '0.0.0.0 is an unspecified address'],
      [`http://[::]:${port}/a.png`, `http://[::]:${port}/a.png`, ':: is an unspecified address'],
      ['http://10.0.0.1/a.png', 'http://10.0.0.1/a.png', '10.0.0.1 is a private address'],
      ['http://172.16.5.4/a.png', 'http://172.16.5.4/a.png', '172.16.5.4 is a private address'],
      ['http://192.168.1.1/a.png', 'http://192.168.1.1/a.png', '192.168.1.1 is a private address'],
      ['http://100.64.0.1/a.png', 'http://100.64.0.1/a.png', '100.64.0.1 is a shared (carrier NAT) address'],
      [
        'http://169.254.169.254/latest/meta-data/',
        'http://169.254.169.254/latest/meta-data/',
        '169.254.169.254 is a link-local address',
      ],
      ['http://[::ffff:a9fe:a9fe]/x', 'http://[::ffff:a9fe:a9fe]/x', '::ffff:a9fe:a9fe is a link-local address'],
      ['http://[fd00::1]/a.png', 'http://[fd00::1]/a.png', 'fd00::1 is a private address'],
      ['http://[fe80::1]/a.png', 'http://[fe80::1]/a.png', 'fe80::1 is a link-local address'],
      ['http://224.0.0.1/a.png', 'http://224.0.0.1/a.png', '224.0.0.1 is a multicast address'],
    ];
    for (const [url, shown, why] of cases) {
      const error = await expectWalletError(fetchImage(new URL(url), { timeoutMs: 2_000 }));
      expect(error.code, url).toBe('IMAGE_REFUSED');
      expect(error.shortMessage, url).toBe(`The image at ${shown} is on your own network (${why}): ${OWN}`);
    }
    const metadata = await expectWalletError(fetchMetadata(new URL(`http://127.0.0.1:${port}/m/0x01`)));
    expect(metadata.shortMessage).toBe(
      `The metadata at http://127.0.0.1:${port}/m/0x01 is on your own network (127.0.0.1 is a loopback address): ${OWN}`,
    );
    expect(connections()).toBe(0);
    // The same server is reachable: the refusals above are the policy's, not a closed port's.
    expect(await fetchImage(new URL(`http://127.0.0.1:${port}/a.png`), LOCAL)).toMatch(/^data:image\/png;base64,/);
    expect(connections()).toBe(1);
  });

  it('refuses a host name that resolves to a loopback address (localhost)', async () => {
    const { port, connections } = await countingServer();
    const error = await expectWalletError(fetchImage(new URL(`http://localhost:${port}/a.png`)));
    expect(error.code).toBe('IMAGE_REFUSED');
    expect(error.shortMessage).toMatch(
      new RegExp(
        `^The image at http://localhost:${port}/a\\.png is on your own network \\(localhost resolves to (127\\.0\\.0\\.1|::1), a loopback address\\): `,
      ),
    );
    expect(connections()).toBe(0);
  });

  it('refuses a name when any one of its addresses is on the own network, whichever comes first', async () => {
    const { port, connections } = await countingServer();
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '192.168.0.10', family: 4 },
    ];
    const error = await expectWalletError(fetchImage(new URL(`http://images.invalid:${port}/a.png`), { resolve }));
    expect(error.shortMessage).toBe(
      `The image at http://images.invalid:${port}/a.png is on your own network (images.invalid resolves to 192.168.0.10, a private address): ${OWN}`,
    );
    expect(connections()).toBe(0);
  });

  it('connects to the address it checked, not to a second resolution of the name', async () => {
    // images.invalid resolves nowhere (RFC 6761): the fetch reaches the server only if it connects to the checked address.
    const { port, server } = await countingServer();
    let host = '';
    server.prependListener('request', (req) => (host = req.headers.host ?? ''));
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    expect(await fetchImage(new URL(`http://images.invalid:${port}/a.png`), { ...LOCAL, resolve })).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    expect(lookups).toBe(1);
    expect(host).toBe(`images.invalid:${port}`);
  });

  it('checks every redirect again and refuses one into the own network', async () => {
    const server = await routes({
      '/meta': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/mapped': { status: 302, headers: { location: `http://[::ffff:10.0.0.1]/a.png` } },
    });
    const meta = await expectWalletError(fetchImage(new URL(`${server.url}/meta`), LOCAL));
    expect(meta.shortMessage).toBe(
      `The image at ${server.url}/meta redirects to http://169.254.169.254/latest/meta-data/, which is on your own network (169.254.169.254 is a link-local address): ${OWN}`,
    );
    const mapped = await expectWalletError(fetchImage(new URL(`${server.url}/mapped`), LOCAL));
    expect(mapped.shortMessage).toBe(
      `The image at ${server.url}/mapped redirects to http://[::ffff:a00:1]/a.png, which is on your own network (::ffff:a00:1 is a private address): ${OWN}`,
    );
    expect(server.requests).toHaveLength(2); // the two redirects, and nothing after them
  });
});
