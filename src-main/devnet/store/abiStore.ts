// The devnet's contract meta store: the ABI sent with each upload_contract, kept when its block is applied, outside
// consensus state (not in the state merkle root) and in the node's store under `c <contract id>`, so it survives a
// restart. As koinos-contract-meta-store does (cmd/koinos-contract-meta-store/main.go, the koinos.block.accept
// handler), each upload replaces the contract's item, and an upload without an ABI leaves none.
import { decode, encode } from '../../koinos/codec.ts';
import type { Transaction } from '../../koinos/types.ts';
import type { Store, StoreOp } from './store.ts';
import { abiKey, abiKeyText, abiPrefix, keyText } from './storeKeys.ts';

const ITEM = 'koinos.contract_meta_store.contract_meta_item';

/** What a block's application changes in the meta store: its batch operations, and the cache update once written. */
export interface AbiUpdate {
  ops: StoreOp[];
  /** Call once the block's batch is written. */
  commit(): void;
}

/** The ABIs of uploaded contracts, read through a cache over the node's store. */
export class AbiStore {
  /** Contract id (keyText) → ABI text; null: known to have none. */
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly store: Store) {}

  /** The ABI uploaded with the contract, if any. */
  async get(contractId: Uint8Array): Promise<string | undefined> {
    const key = keyText(contractId);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const bytes = await this.store.get(abiKey(contractId));
    const abi = bytes ? decode(ITEM, bytes).abi : '';
    if (this.cache.size > 10_000) this.cache.clear();
    // A block committed while this read was under way has put the newer value in the cache already.
    if (!this.cache.has(key)) this.cache.set(key, abi === '' ? null : abi);
    return abi === '' ? undefined : abi;
  }

  /**
   * The meta store changes of a block's transactions, in order: every upload_contract of a transaction that did not
   * revert. (koinos-contract-meta-store reads the ABI of every upload in an accepted block, reverted or not; the devnet
   * keeps only uploads that happened, so a reverted upload cannot replace a contract's ABI.)
   */
  blockUpdate(transactions: { tx: Transaction; reverted: boolean }[]): AbiUpdate {
    const latest = new Map<string, { id: Uint8Array; abi: string }>();
    for (const { tx, reverted } of transactions) {
      if (reverted) continue;
      for (const op of tx.operations) {
        const upload = op.upload_contract;
        if (upload) latest.set(keyText(upload.contract_id), { id: upload.contract_id, abi: upload.abi ?? '' });
      }
    }
    const ops: StoreOp[] = [...latest.values()].map(({ id, abi }) =>
      abi === '' ? { type: 'del', key: abiKey(id) } : { type: 'put', key: abiKey(id), value: encode(ITEM, { abi }) },
    );
    return {
      ops,
      commit: () => {
        for (const [key, { abi }] of latest) this.cache.set(key, abi === '' ? null : abi);
      },
    };
  }

  /** Every stored item (contract id keyText → item bytes), for a snapshot. */
  async all(): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    for await (const [key, value] of this.store.entries(abiPrefix())) out.set(abiKeyText(key), value);
    return out;
  }

  /** Forgets what it read (after a reset or a revert rewrote the store). */
  forget(): void {
    this.cache.clear();
  }
}
