// A node's transaction receipt as the wallet reports it: ids and mana as strings, token events decoded, an NFT
// collection's events said in words.
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { decodeEventJson } from '../../koinos/koin.ts';
import type { TransactionReceipt } from '../../koinos/types.ts';
import type { SubmitReceipt } from './types.ts';
import { describeNftEvent } from './kcs5.ts';

export function toSubmitReceipt(receipt: TransactionReceipt, broadcast: boolean): SubmitReceipt {
  return {
    transactionId: bytesToJson(receipt.id, BTYPE.TRANSACTION_ID),
    rcUsed: receipt.rc_used.toString(),
    rcLimit: receipt.rc_limit.toString(),
    reverted: receipt.reverted,
    events: receipt.events.map((e) => {
      const json = decodeEventJson(e);
      const source = bytesToJson(e.source, BTYPE.CONTRACT_ID);
      const summary = describeNftEvent(e, source);
      return {
        name: e.name,
        source,
        impacted: e.impacted.map((a) => bytesToJson(a, BTYPE.ADDRESS)),
        data: json['data'] ?? null,
        ...(summary ? { summary } : {}),
      };
    }),
    broadcast,
  };
}
