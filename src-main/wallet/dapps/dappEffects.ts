// What a dApp's transaction did in its signed dry run, as the second step of its approval shows it: the events decoded
// (token transfers, mints and burns as sentences with amounts in the token's decimals, other events with the dApp's or
// the node's ABI), the mana used against the rc_limit it is signed with, or why the steps after the approval failed.
import { formatAmount } from '../../koinos/amounts.ts';
import { BTYPE, bytesToJson, decode } from '../../koinos/codec.ts';
import type { ContractDecoder } from '../../koinos/contractDecoder.ts';
import { WalletError } from '../../koinos/errors.ts';
import { tokenEventSentence, tokenEventType } from '../../koinos/tokenEvents.ts';
import type { EventData } from '../../koinos/types.ts';
import type { DecodedEvent, TransactionEffects } from '../approvals/types.ts';
import type { TokenInfo } from '../chain/types.ts';
import type { HeldSignature } from '../chain/approvedSubmit.ts';
import { withEventTokens } from '../chain/tokens.ts';
import { describeNftEvent } from '../chain/kcs5.ts';
import type { ChainNetwork } from './chains.ts';

/** A dry run emits at most a few dozen events; more than this many are summed up in one line, not decoded. */
const MAX_SHOWN_EVENTS = 100;

/**
 * The sentence of a token event (`token.transfer_event`, `mint`, `burn`, `approve`), or undefined for any other event.
 */
function tokenEventSummary(event: EventData, token: TokenInfo | undefined): string | undefined {
  const type = tokenEventType(event.name);
  if (!type) return undefined;
  let data: { from?: Uint8Array; to?: Uint8Array; owner?: Uint8Array; spender?: Uint8Array; value?: bigint };
  try {
    data = decode(type, event.data);
  } catch {
    return undefined; // named like a token event, but its data is not one: shown as an event
  }
  const contract = bytesToJson(event.source, BTYPE.CONTRACT_ID);
  // A symbol only a contract the wallet lists may give alone: any contract can call itself KOIN.
  const amount = !token
    ? `${(data.value ?? 0n).toString()} base units of ${contract}`
    : `${formatAmount(data.value ?? 0n, token.decimals)} ${token.symbol}${token.unlisted ? ` (unlisted token ${contract})` : ''}`;
  const party = (bytes: Uint8Array | undefined) =>
    bytes && bytes.length > 0 ? bytesToJson(bytes, BTYPE.ADDRESS) : undefined;
  const parties = {
    from: party(data.from),
    to: party(data.to),
    owner: party(data.owner),
    spender: party(data.spender),
  };
  return tokenEventSentence(type, parties, amount, data.value ?? 0n);
}

/**
 * The effects of a held transaction: its dry run's events decoded with `decoder` (the dApp's ABIs, then the node's),
 * token and NFT events as sentences, and the mana used against the rc_limit it is signed with.
 * @example
 * const effects = await describeEffects(ctx, held, tokens, decoder);
 * effects.events[0].summary; // 'Transfer 1.5 KOIN from 1Abc… to 1Def…'
 */
export async function describeEffects(
  ctx: ChainNetwork,
  held: HeldSignature,
  known: readonly TokenInfo[],
  decoder: ContractDecoder,
): Promise<TransactionEffects> {
  const base = { rcLimit: held.rcLimit.toString(), transactionId: bytesToJson(held.signed.id, BTYPE.TRANSACTION_ID) };
  if (!held.dryRun) return { dryRun: false, events: [], ...base };
  const all = held.dryRun.events;
  const shown = all.slice(0, MAX_SHOWN_EVENTS);
  const tokens = await withEventTokens(ctx.node, shown, known);
  const events: DecodedEvent[] = [];
  for (const event of shown) {
    const contract = bytesToJson(event.source, BTYPE.CONTRACT_ID);
    const json = await decoder.event(event).catch(() => undefined);
    const summary =
      tokenEventSummary(
        event,
        tokens.find((t) => t.contract === contract),
      ) ?? describeNftEvent(event, contract);
    events.push({
      contract,
      name: typeof json?.['name'] === 'string' ? json['name'] : event.name,
      data: json?.['data'] ?? bytesToJson(event.data, BTYPE.BASE64),
      impacted: event.impacted.map((a) => bytesToJson(a, BTYPE.ADDRESS)),
      ...(summary ? { summary } : {}),
    });
  }
  if (all.length > shown.length) {
    events.push({
      contract: '',
      name: 'more events',
      data: null,
      impacted: [],
      summary: `… and ${all.length - shown.length} more events, not shown`,
    });
  }
  return { dryRun: true, events, rcUsed: held.dryRun.rc_used.toString(), ...base };
}

/**
 * The effects step of a transaction whose steps after the approval failed: the reason as the person reads it (the
 * error's sentence and its hints, the node's log among them). Nothing was released.
 */
export function failedEffects(error: unknown, rcLimit: bigint): TransactionEffects {
  const failure =
    error instanceof WalletError
      ? [error.shortMessage, ...error.metaMessages].join(' ')
      : 'The transaction could not be checked after its approval (an unexpected error; see the wallet log). Nothing was sent.';
  return { dryRun: false, events: [], rcLimit: rcLimit.toString(), transactionId: '', failure };
}
