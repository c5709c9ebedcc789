// How much signature recovery a transaction can make the devnet do: no more than its rc_limit pays for (the node
// recovers lazily while metering, 29,630 compute a signature), and never more than MAX_TRANSACTION_SIGNATURES.
// Recoveries are counted by wrapping secp256k1Recovery.ts's two ways in: `recoverRemembered` for a pair not in the
// cache of recovered keys (what the signature checks on this thread call), and `recoverSignature` (what the workers'
// fallback calls); both recover with native or WebAssembly libsecp256k1.
import { describe, expect, it, vi } from 'vitest';
import { MAX_TRANSACTION_SIGNATURES, recoverableSignatures } from '../../src-main/devnet/chain/applyTransaction.ts';
import { COMPUTE, RESOURCE_LIMITS } from '../../src-main/devnet/state/resources.ts';
import { key, KOIN, rejection, snapshot, submit, testNodes, transferTx } from './helpers.ts';

const recoveries = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src-main/devnet/vm/secp256k1Recovery.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src-main/devnet/vm/secp256k1Recovery.ts')>();
  return {
    ...actual,
    recoverSignature: (...args: Parameters<typeof actual.recoverSignature>) => {
      recoveries.count++;
      return actual.recoverSignature(...args);
    },
    recoverRemembered: (...args: Parameters<typeof actual.recoverRemembered>) => {
      if (actual.knownRecovered(...args) === undefined) recoveries.count++;
      return actual.recoverRemembered(...args);
    },
  };
});

const node = testNodes();
const A = key(0);
const B = key(1);
const C = key(2);
/**
 * `count` different signatures by C (over other transactions): a signature the node has recovered once over a digest
 * is not recovered again, so a padding of copies would be recovered once whatever the rc_limit pays for.
 */
async function othersSignatures(n: Awaited<ReturnType<typeof node>>, count: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++)
    out.push((await transferTx(n, A, B, KOIN + BigInt(i), { signers: [C] })).signatures[0]!);
  return out;
}

/** Mana one signature recovery costs. */
const RECOVERY_RC = BigInt(COMPUTE.recover_public_key) * RESOURCE_LIMITS.compute_bandwidth_cost;

describe('signature recovery budget', () => {
  it('counts the signatures an rc_limit can pay the recovery of', () => {
    expect(recoverableSignatures(1000, 3n * RECOVERY_RC + RECOVERY_RC - 1n)).toBe(3);
    expect(recoverableSignatures(2, 10n * KOIN)).toBe(2);
    expect(recoverableSignatures(5, RECOVERY_RC - 1n)).toBe(0);
  });

  it('recovers only the signatures the rc_limit pays for, and fails with the node text when it runs out', async () => {
    const n = await node();
    const byC = await othersSignatures(n, 40);
    const tx = await transferTx(n, A, B, KOIN, { rcLimit: 400_000n });
    // 40 signatures by someone else before the payer's: the node would recover them one by one, charging each
    const padded = { ...tx, signatures: [...byC, tx.signatures[0]!] };
    const before = await snapshot(n, [A, B]);
    recoveries.count = 0;
    const e = await rejection(submit(n, padded));
    expect(e).toMatchObject({ code: -1, message: 'insufficient rc' });
    expect(recoveries.count).toBe(recoverableSignatures(41, 400_000n));
    expect(recoveries.count).toBeLessThan(10);
    expect(await snapshot(n, [A, B])).toEqual(before);
  });

  it('accepts the same transaction when its rc_limit pays for every recovery, as the node does', async () => {
    const n = await node();
    const byC = await othersSignatures(n, 40);
    const tx = await transferTx(n, A, B, KOIN);
    recoveries.count = 0;
    const receipt = await submit(n, { ...tx, signatures: [...byC, tx.signatures[0]!] });
    expect(receipt.reverted).toBe(false);
    expect(recoveries.count).toBe(41);
  });

  it(`rejects more than ${MAX_TRANSACTION_SIGNATURES} signatures before recovering any`, async () => {
    const n = await node();
    const tx = await transferTx(n, A, B, KOIN);
    const many = { ...tx, signatures: Array.from({ length: MAX_TRANSACTION_SIGNATURES + 1 }, () => tx.signatures[0]!) };
    const before = await snapshot(n, [A, B]);
    recoveries.count = 0;
    const e = await rejection(submit(n, many));
    expect(e.code).toBe(-1);
    expect(e.message).toBe(
      `transaction has ${MAX_TRANSACTION_SIGNATURES + 1} signatures, the devnet checks at most ${MAX_TRANSACTION_SIGNATURES}`,
    );
    expect(recoveries.count).toBe(0);
    expect(await snapshot(n, [A, B])).toEqual(before);
    // at the limit it is accepted: the payer's signature comes first
    const atLimit = { ...tx, signatures: Array.from({ length: MAX_TRANSACTION_SIGNATURES }, () => tx.signatures[0]!) };
    expect((await submit(n, atLimit)).reverted).toBe(false);
  });
});
