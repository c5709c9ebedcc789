// The block build's pauses (blockBuilder.ts): the block timer's build lets requests through between its steps, and
// a build that paused makes the same block and the same batch as one made at once; its block receipt sums what the
// transactions used.
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { digestOfMultihash, multihashSha256, sha256 } from '../../src-main/koinos/hash.ts';
import { signDigest } from '../../src-main/koinos/keys.ts';
import { koinOperation } from '../../src-main/koinos/koin.ts';
import { nonceToBytes, prepareTransaction as prepareSigned } from '../../src-main/koinos/transaction.ts';
import { prepareTransaction } from '../../src-main/devnet/chain/applyTransaction.ts';
import { buildBlock, type BlockInput, type IncludedTransaction } from '../../src-main/devnet/chain/blockBuilder.ts';
import { stateKey, KERNEL_SPACES } from '../../src-main/devnet/state/state.ts';
import { genesisKey, key } from './helpers.ts';

const CHAIN_ID = multihashSha256(sha256(new Uint8Array([1])));
const KOIN_ADDRESS = key(9).addressBytes;

/** A transfer of `value` from key(index) as the block applied it (a receipt with what it used). */
function included(index: number, value: bigint): IncludedTransaction {
  const from = key(index);
  const unsigned = prepareSigned({
    id: new Uint8Array(),
    header: {
      chain_id: CHAIN_ID,
      rc_limit: 1_000_000n,
      nonce: nonceToBytes(1n),
      operation_merkle_root: new Uint8Array(),
      payer: from.addressBytes,
      payee: new Uint8Array(),
    },
    operations: [koinOperation(KOIN_ADDRESS, 'transfer', { from: from.addressBytes, to: key(0).addressBytes, value })],
    signatures: [],
  });
  const tx = { ...unsigned, signatures: [signDigest(digestOfMultihash(unsigned.id), from.privateKey)] };
  const prepared = prepareTransaction(tx);
  const receipt = {
    id: tx.id,
    payer: from.addressBytes,
    max_payer_rc: 1_000_000n,
    rc_limit: 1_000_000n,
    rc_used: 1000n + BigInt(index),
    disk_storage_used: 100n,
    network_bandwidth_used: BigInt(prepared.bytes.length),
    compute_bandwidth_used: 5000n,
    reverted: false,
    events: [],
    logs: [],
    state_delta_entries: [],
  };
  return {
    prepared,
    receiptBytes: encode('koinos.protocol.transaction_receipt', receipt),
    disk: receipt.disk_storage_used,
    compute: receipt.compute_bandwidth_used,
    reverted: receipt.reverted,
    impacted: [from.addressBytes, key(0).addressBytes],
  };
}

function input(count: number, persistent: boolean): BlockInput {
  const changes = new Map<string, Uint8Array | null>([
    [stateKey(KERNEL_SPACES.metadata, new Uint8Array([1, 2])), new Uint8Array([3])],
    [stateKey(KERNEL_SPACES.metadata, new Uint8Array([4])), null],
  ]);
  return {
    parent: {
      height: 7n,
      id: multihashSha256(sha256(new Uint8Array([7]))),
      previous: multihashSha256(sha256(new Uint8Array([6]))),
      timestamp: 1_700_000_000_000n,
      stateMerkleRoot: multihashSha256(sha256(new Uint8Array([8]))),
    },
    timestamp: 1_700_000_003_000n,
    entries: Array.from({ length: count }, (_, i) => included(1 + (i % 8), BigInt(i + 1))),
    changes,
    signer: genesisKey(),
    history: { persistent, nextSeq: () => 5 },
  };
}

describe('building a block in steps', () => {
  for (const persistent of [false, true]) {
    it(`makes the same block and batch whether it pauses or not (${persistent ? 'on disk' : 'in memory'})`, async () => {
      const atOnce = await buildBlock(input(12, persistent));
      let pauses = 0;
      let otherWork = 0;
      const paused = await buildBlock(input(12, persistent), () => {
        pauses++;
        // Other work runs in each pause, as the timer's submissions do.
        return new Promise<void>((resolve) =>
          setImmediate(() => {
            otherWork++;
            resolve();
          }),
        );
      });
      expect(paused).toEqual(atOnce);
      expect(atOnce.head.height).toBe(8n);
      // Between every transaction's records, besides the steps before them.
      expect(pauses).toBeGreaterThanOrEqual(12);
      expect(otherWork).toBe(pauses);
    });
  }

  it("sums the transactions' disk and compute into the block receipt, and charges the block's size as network", async () => {
    const block = input(5, false);
    block.entries = block.entries.map((entry, i) => ({
      ...entry,
      disk: BigInt(10 + i),
      compute: BigInt(1000 * (i + 1)),
    }));
    const built = await buildBlock(block);
    const item = decode('koinos.devnet.encoded_block_item', built.ops[0]!.value!);
    const receipt = decode('koinos.devnet.encoded_block_receipt', item.receipt);
    expect([receipt.disk_storage_used, receipt.compute_bandwidth_used]).toEqual([10n + 11n + 12n + 13n + 14n, 15_000n]);
    expect([receipt.disk_storage_charged, receipt.compute_bandwidth_charged]).toEqual([60n, 15_000n]);
    expect(receipt.network_bandwidth_used).toBe(BigInt(item.block.length));
    expect(receipt.transaction_receipts).toEqual(block.entries.map((entry) => entry.receiptBytes));
  });

  it('goes on at once when the pause says so', async () => {
    let asked = 0;
    const built = await buildBlock(input(3, false), () => {
      asked++;
      return undefined;
    });
    expect(asked).toBeGreaterThanOrEqual(3);
    expect(built).toEqual(await buildBlock(input(3, false)));
  });
});
