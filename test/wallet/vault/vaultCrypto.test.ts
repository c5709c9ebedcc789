// The vault's sealing: AES-256-GCM with a fresh nonce per write, bound to the entry's name; scrypt parameters read
// from a file are bounded before use; calibration stays within its floor and ceiling.
import { describe, expect, it } from 'vitest';
import { scryptSync } from 'node:crypto';
import {
  MAX_SCRYPT_LOG_N,
  MIN_SCRYPT_LOG_N,
  calibrateScrypt,
  deriveKey,
  isScryptParams,
  makeCheck,
  newSalt,
  open,
  scryptParamsProblem,
  seal,
  verifyCheck,
} from '../../../src-main/wallet/vault/vaultCrypto.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('vault cryptography', () => {
  it('derives the key with scrypt as node:crypto computes it', async () => {
    const params = { N: 1024, r: 8, p: 1, salt: newSalt() };
    const key = await deriveKey('pässword', params);
    const reference = scryptSync('pässword'.normalize('NFKC'), Buffer.from(params.salt, 'base64'), 32, {
      N: 1024,
      r: 8,
      p: 1,
    });
    expect(Buffer.from(key).toString('hex')).toBe(reference.toString('hex'));
  });

  it('seals with a fresh nonce each time and opens only with the same key and the same entry name', async () => {
    const key = await deriveKey('password 1', { N: 1024, r: 8, p: 1, salt: newSalt() });
    const other = await deriveKey('password 2', { N: 1024, r: 8, p: 1, salt: newSalt() });
    const a = seal(key, bytes('secret'), 'wallet/gen/secret/a');
    const again = seal(key, bytes('secret'), 'wallet/gen/secret/a');
    expect(a).not.toBe(again);
    expect(a.split('.')[1]).not.toBe(again.split('.')[1]);
    expect(new TextDecoder().decode(open(key, a, 'wallet/gen/secret/a'))).toBe('secret');
    // Moved to another entry's name (a swap of two keychain entries), opened with another key, or altered: refused.
    expect(open(key, a, 'wallet/gen/secret/b')).toBeUndefined();
    expect(open(other, a, 'wallet/gen/secret/a')).toBeUndefined();
    const body = a.split('.')[2]!;
    const altered = `v1.${a.split('.')[1]}.${body.slice(0, 4)}${body[4] === 'A' ? 'B' : 'A'}${body.slice(5)}`;
    expect(open(key, altered, 'wallet/gen/secret/a')).toBeUndefined();
    expect(open(key, 'not sealed', 'wallet/gen/secret/a')).toBeUndefined();
    expect(verifyCheck(key, makeCheck(key, 'w/g'), 'w/g')).toBe(true);
    expect(verifyCheck(other, makeCheck(key, 'w/g'), 'w/g')).toBe(false);
  });

  it('accepts from a file only the scrypt parameters the wallet writes: r=8, p=1, N from 2^15 to 2^20', () => {
    const salt = newSalt();
    expect(isScryptParams({ N: 2 ** 15, r: 8, p: 1, salt })).toBe(true);
    expect(isScryptParams({ N: 2 ** 20, r: 8, p: 1, salt })).toBe(true);
    expect(isScryptParams({ N: 2 ** 21, r: 8, p: 1, salt })).toBe(false);
    expect(isScryptParams({ N: 2 ** 14, r: 8, p: 1, salt })).toBe(false);
    expect(isScryptParams({ N: 2 ** 14, r: 8, p: 1, salt }, 2 ** 10)).toBe(true);
    expect(isScryptParams({ N: 3000, r: 8, p: 1, salt })).toBe(false);
    expect(isScryptParams({ N: 2 ** 16, r: 16, p: 1, salt })).toBe(false);
    expect(isScryptParams({ N: 2 ** 16, r: 8, p: 2, salt })).toBe(false);
    expect(isScryptParams({ N: 2 ** 16, r: 8, p: 1, salt: 'c2hvcnQ=' })).toBe(false);
    expect(scryptParamsProblem({ N: 2 ** 20, r: 32, p: 2, salt })).toBe(
      'expected scrypt with r=8, p=1 and N a power of two from 2^15 to 2^20, but found N=2^20 r=32 p=2',
    );
    expect(scryptParamsProblem({ N: 3000, r: '8', salt })).toBe(
      'expected scrypt with r=8, p=1 and N a power of two from 2^15 to 2^20, but found N=3000 r=string p=undefined',
    );
  });

  it('never runs scrypt above the ceiling, whoever calls it', async () => {
    await expect(deriveKey('password', { N: 2 ** 20, r: 32, p: 2, salt: newSalt() })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(deriveKey('password', { N: 2 ** 21, r: 8, p: 1, salt: newSalt() })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('calibrates within its bounds', async () => {
    const { N, r, p } = await calibrateScrypt();
    expect(Math.log2(N)).toBeGreaterThanOrEqual(MIN_SCRYPT_LOG_N);
    expect(Math.log2(N)).toBeLessThanOrEqual(MAX_SCRYPT_LOG_N);
    expect(Number.isInteger(Math.log2(N))).toBe(true);
    expect({ r, p }).toEqual({ r: 8, p: 1 });
    // A machine a thousand times faster would still get at most the ceiling; a slow one never less than the floor.
    expect(Math.log2((await calibrateScrypt(1)).N)).toBe(MIN_SCRYPT_LOG_N);
  });
});
