// Contract ABIs read as koilib reads them: the prebuilt KCS-4 token of @koinosbox/contracts through its koilib_types
// and through its base64 FileDescriptorSet give koilib's own bytes; hostile ABIs are refused within their limits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Serializer } from 'koilib';
import { describe, expect, it } from 'vitest';
import { contractAbiOf, MAX_ABI_LENGTH, parseAbi } from '../../src-main/koinos/contractAbi.ts';
import { MAX_ABI_TYPES } from '../../src-main/koinos/abiTypes.ts';
import { WalletError } from '../../src-main/koinos/errors.ts';

const dir = join(import.meta.dirname, '../../node_modules/@koinosbox/contracts/assembly/token');
const text = readFileSync(join(dir, 'token-abi.json'), 'utf8');
const json = JSON.parse(text) as Record<string, unknown>;
const alice = '1NsQbH5AhQXgtSNg1ejpFqTi2hmCWz1eQS';
const bob = '1AYz8RCnoafLnifMjJbgNb2aeW5CbZj8Tp';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof WalletError ? `${e.code}: ${e.shortMessage}` : String(e);
  }
  return undefined;
}

describe('contract ABIs', () => {
  it('encodes arguments as koilib does, from koilib_types and from the base64 descriptor set alike', async () => {
    const withKoilibTypes = parseAbi(text);
    const withDescriptor = parseAbi(JSON.stringify({ ...json, koilib_types: undefined }));
    const args = { from: alice, to: bob, value: '300', memo: 'rent' };
    const expected = Buffer.from(
      await new Serializer(json.koilib_types as object).serialize(args, 'token.transfer_args'),
    ).toString('hex');
    for (const abi of [withKoilibTypes, withDescriptor]) {
      const bytes = abi.encodeArguments(abi.method('transfer'), args);
      expect(Buffer.from(bytes).toString('hex')).toBe(expected);
      expect(abi.decodeArguments(abi.method('transfer'), bytes)).toEqual(args);
      // koilib 9 decodeEvent: the ABI's event type for the event name.
      expect(abi.decodeEvent('token.transfer_event', bytes)).toEqual(args);
    }
    // The descriptor set keeps the btype option (field option 50000): addresses render as base58.
    expect(withDescriptor.json.koilib_types).toMatchObject({
      nested: {
        token: {
          nested: {
            transfer_args: { fields: { from: { type: 'bytes', id: 1, options: { '(koinos.btype)': 'ADDRESS' } } } },
          },
        },
      },
    });
  });

  it('reads methods with entry points, read-only flags and results', () => {
    const abi = parseAbi(text);
    const balanceOf = abi.method('balance_of');
    expect(balanceOf).toMatchObject({
      entryPoint: 0x5c721497,
      readOnly: true,
      argument: 'token.balance_of_args',
      return: 'token.uint64',
    });
    expect(abi.methodByEntryPoint(0x27f576ca)?.name).toBe('transfer');
    expect(abi.decodeResult(balanceOf, Uint8Array.of(0x08, 0x2a))).toEqual({ value: '42' });
    expect(abi.decodeResult(balanceOf, new Uint8Array(0))).toEqual({});
    expect(abi.encodeArguments(abi.method('name'), {})).toEqual(new Uint8Array(0));
  });

  it('says which methods exist, which field is wrong and what an address must be', () => {
    const abi = parseAbi(text);
    expect(code(() => abi.method('tranfer'))).toMatch(
      /^INVALID_ARGUMENT: method: expected one of the ABI's methods \(name, symbol, .*transfer.*\), got "tranfer"/,
    );
    expect(code(() => abi.encodeArguments(abi.method('transfer'), { from: alice, too: bob }))).toMatch(
      /^INVALID_JSON: too: .*closest valid name is "to"/,
    );
    expect(code(() => abi.encodeArguments(abi.method('transfer'), { from: alice, to: 'nope', value: '1' }))).toMatch(
      /^INVALID_ADDRESS: to:/,
    );
    expect(code(() => abi.encodeArguments(abi.method('transfer'), { value: 'ten' }))).toMatch(
      /^INVALID_JSON: value: expected an unsigned 64-bit integer/,
    );
    expect(code(() => abi.encodeArguments(abi.method('name'), { x: 1 }))).toMatch(
      /^INVALID_JSON: arguments of name: expected none/,
    );
  });

  it('reads an ABI written by koinos-abi-proto-gen (types only, entry-point in hex) for an sdk-as contract', () => {
    const abi = parseAbi(readFileSync(join(import.meta.dirname, '../contracts/guestbook.abi-proto-gen.abi'), 'utf8'));
    const sign = abi.method('sign');
    expect(sign).toMatchObject({ entryPoint: 0x0b6f395c, readOnly: false, argument: 'guestbook.sign_arguments' });
    const args = abi.codec.fromJson(sign.argument, {}, { strict: true });
    expect(abi.codec.encode(sign.argument, args)).toEqual(new Uint8Array(0));
    expect(abi.method('count').readOnly).toBe(true);
  });

  it('reads the older entry-point and read-only keys as koinos-rest fixAbi does', () => {
    const abi = parseAbi(
      JSON.stringify({
        methods: { get: { argument: '', return: '', 'entry-point': '0x0000002a', 'read-only': true } },
      }),
    );
    expect(abi.method('get')).toMatchObject({ entryPoint: 42, readOnly: true });
    expect(abi.json).toMatchObject({ methods: { get: { entry_point: 42, read_only: true } } });
  });

  it('refuses hostile ABIs within their limits', () => {
    expect(code(() => parseAbi('x'.repeat(MAX_ABI_LENGTH + 1)))).toMatch(
      /^INVALID_ABI: expected an ABI of at most 1048576 characters/,
    );
    expect(code(() => parseAbi('['.repeat(100_000)))).toMatch(/^INVALID_ABI: expected an ABI nested at most 64 levels/);
    const many = Object.fromEntries(Array.from({ length: MAX_ABI_TYPES + 1 }, (_, i) => [`t${i}`, { fields: {} }]));
    expect(code(() => parseAbi(JSON.stringify({ methods: {}, koilib_types: { nested: many } })))).toMatch(
      /^INVALID_ABI: ABI types: expected at most 2000 types/,
    );
    expect(
      code(() =>
        parseAbi(
          JSON.stringify({
            koilib_types: { nested: { __proto__x: { fields: { 'a b': { type: 'string', id: 1 } } } } },
          }),
        ),
      ),
    ).toMatch(/expected a protobuf identifier, got "a b"/);
    expect(
      code(() =>
        parseAbi(JSON.stringify({ koilib_types: { nested: { m: { fields: { a: { type: 'missing', id: 1 } } } } } })),
      ),
    ).toMatch(/^INVALID_ABI: expected protobuf types that load/);
    expect(code(() => parseAbi(JSON.stringify({ types: 'AAAA' })))).toMatch(
      /^INVALID_ABI: ABI types: expected a FileDescriptorSet/,
    );
    // A message that nests itself decodes only to protobuf's recursion limit, whatever the data.
    const loop = parseAbi(
      JSON.stringify({ methods: {}, koilib_types: { nested: { m: { fields: { m: { type: 'm', id: 1 } } } } } }),
    );
    let bytes = new Uint8Array(0);
    const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
    for (let i = 0; i < 200; i++) bytes = Uint8Array.of(0x0a, ...varint(bytes.length), ...bytes);
    expect(code(() => loop.codec.decode('m', bytes))).toMatch(
      /^INVALID_PROTOBUF: expected messages nested at most 100 deep/,
    );
  });

  it('caches an ABI by contract and text, and a bad one as its error', () => {
    expect(contractAbiOf('c1', text)).toBe(contractAbiOf('c1', text));
    expect(contractAbiOf('c2', text)).not.toBe(contractAbiOf('c1', text));
    expect(code(() => contractAbiOf('c3', '{'))).toMatch(/^INVALID_ABI: expected an ABI as JSON text/);
    expect(code(() => contractAbiOf('c3', '{'))).toMatch(/^INVALID_ABI/);
  });
});
