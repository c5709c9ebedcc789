// Token events and allowances in words: the KCS-4 event type of an event's name, and the sentence a review, a dApp's
// effects step and a receipt say of it. No codec here: the renderer reads these without protobufjs and the chain's
// descriptor, which koin.ts brings (about 38 KB of its gzipped JavaScript).

const TOKEN = 'koinos.contracts.token';

const TOKEN_EVENT =
  /(?:^|\.)(?:token|koin|kcs4)\.(transfer|mint|burn|approve)(?:_event)?$|^(transfer|mint|burn|approve)_event$/;

/**
 * The token event type of an event name, matched by suffix: the current KOIN's `token.transfer_event`, the launch
 * contract's `koinos.contracts.token.transfer_event` (older blocks), `koin.transfer`, `koinos.contracts.kcs4.approve`,
 * and the bare `transfer_event` some KCS-4 tokens built from older koinos-sdk-as examples emit.
 */
export function tokenEventType(name: string): string | undefined {
  const match = TOKEN_EVENT.exec(name);
  const kind = match?.[1] ?? match?.[2];
  return kind ? `${TOKEN}.${kind}_event` : undefined;
}

/** The largest amount a KCS-4 token holds (uint64): an allowance of it is one without a limit in practice. */
export const U64_MAX = (1n << 64n) - 1n;

/**
 * The sentence of a token allowance (an approve call, or the event it emits): the spender may take it from the owner
 * later, in transfers nobody is asked about again.
 * @example
 * allowanceSummary('1Spender…', '2.5 KOIN', 250_000_000n, '1Owner…');
 * // 'Allow 1Spender… to spend up to 2.5 KOIN from 1Owner…'
 * allowanceSummary('1Spender…', '0 KOIN', 0n, '1Owner…');
 * // 'Set the allowance of 1Spender… to 0 KOIN: it may spend nothing more from 1Owner…'
 */
export function allowanceSummary(spender: string, amount: string, value: unknown, owner: string): string {
  if (value === 0n) return `Set the allowance of ${spender} to ${amount}: it may spend nothing more from ${owner}`;
  return `Allow ${spender} to spend up to ${amount}${value === U64_MAX ? ' (no limit)' : ''} from ${owner}`;
}

/**
 * The sentence of a token event of `type` (as {@link tokenEventType} names it: a transfer, mint, burn or allowance),
 * its parties in full ('(nobody)' for one it leaves empty) and `amount` its value in the token's units: what a dApp's
 * effects step (main) and a receipt (the renderer) say of it.
 * @example
 * tokenEventSentence('koinos.contracts.token.transfer_event', { from: '1Abc…', to: '1Def…' }, '1.5 KOIN', 150_000_000n);
 * // 'Transfer 1.5 KOIN from 1Abc… to 1Def…'
 */
export function tokenEventSentence(
  type: string,
  parties: { from?: string; to?: string; owner?: string; spender?: string },
  amount: string,
  value: bigint,
): string {
  const who = (address: string | undefined) => address || '(nobody)';
  if (type.endsWith('transfer_event')) return `Transfer ${amount} from ${who(parties.from)} to ${who(parties.to)}`;
  if (type.endsWith('mint_event')) return `Mint ${amount} to ${who(parties.to)}`;
  if (type.endsWith('approve_event')) return allowanceSummary(who(parties.spender), amount, value, who(parties.owner));
  return `Burn ${amount} from ${who(parties.from)}`;
}
