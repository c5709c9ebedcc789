// An approval request as plain text, for surfaces that show no markup: Electron's native dialog (drawn by main, so the
// window cannot fake it) and the CLI. Addresses in full, grouped for reading; amounts as the review decoded them.
import { formatAmount } from '../../koinos/amounts.ts';
import type { ApprovalRequest, DecodedEvent, TransactionEffects } from './types.ts';
import type { RiskFlag } from '../chain/types.ts';

/**
 * An address in groups of four characters, for reading it aloud or comparing it with another: never shortened.
 * @example
 * groupAddress('1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'); // '1GE2 JqXw 5LMQ aU1s j82D y8ZE e2BR XQS1 cs'
 */
export function groupAddress(address: string): string {
  return address.match(/.{1,4}/g)?.join(' ') ?? '';
}

/** The words of a request's kind: what approving it does. */
export function approvalAction(request: ApprovalRequest): string {
  if (request.review.effects)
    return request.review.effects.failure !== undefined
      ? 'Close'
      : request.review.kind === 'send'
        ? 'Send it'
        : 'Hand the signature over';
  switch (request.review.kind) {
    case 'send':
      return 'Sign and send';
    case 'connect':
      return 'Connect';
    case 'message':
      return 'Sign message';
    default:
      return 'Sign';
  }
}

/**
 * The request as a title, the lines of its review, and the lines of its second confirmation (empty when no risk).
 * @example
 * const { title, lines } = approvalText(request);
 * // title: 'Sign and send on Koinos Mainnet?'; lines: ['Requested by: This wallet', 'Transfer 1.5 KOIN …', …]
 */
export function approvalText(request: ApprovalRequest): { title: string; lines: string[]; riskLines: string[] } {
  const r = request.review;
  const where = r.networkName ? ` on ${r.networkName}` : '';
  const lines = [`Requested by: ${r.origin}`];
  if (r.kind === 'connect' && r.connection)
    return {
      title: `Connect ${r.connection.name}?`,
      lines: [...lines, ...connectionLines(r.connection)],
      riskLines: [],
    };
  if (r.effects) return effectsText(request, r.effects, where);
  if (r.kind === 'message') {
    // The text exactly as it is signed; a dialog shows it as plain text, so nothing in it can style or hide the rest.
    lines.push(`Signed by: ${groupAddress(r.signer)}`, 'Message:', r.message ?? '');
    return { title: `Sign a message${where}?`, lines, riskLines: [] };
  }
  r.operations.forEach((op, i) => {
    const head = r.operations.length > 1 ? `${i + 1}. ` : '';
    lines.push(`${head}${op.summary ?? `Call ${op.entryPoint}`}`);
    if (op.contract !== '') lines.push(`   contract ${groupAddress(op.contract)}`);
    for (const [name, value] of addressArguments(op.args)) lines.push(`   ${name}: ${groupAddress(value)}`);
  });
  lines.push(`Signed by: ${groupAddress(r.signer)}`);
  for (const other of r.coSigners ?? []) lines.push(`Also signed by: ${groupAddress(other)}`);
  if (r.payer !== r.signer) lines.push(`Mana paid by: ${groupAddress(r.payer)}`);
  if (r.payee && r.payee !== r.signer) lines.push(`On behalf of: ${groupAddress(r.payee)}`);
  const estimate =
    r.rcEstimate !== undefined ? ` (about ${formatAmount(BigInt(r.rcEstimate))} expected, an estimate)` : '';
  lines.push(`Mana: at most ${formatAmount(BigInt(r.rcLimit))}${estimate}`);
  lines.push(`Nonce: ${r.nonce}`, `Chain ID: ${r.chainId}`);
  return { title: `${approvalAction(request)}${where}?`, lines, riskLines: riskLines(r.risks) };
}

/** The held transaction was not sent: only a dry run may have run, on the copy DRY_RUN_COPY tells of. */
export const NOT_SENT = 'It was not sent: the node saw at most the copy signed for its dry run.';

/**
 * A signed dry run needs a valid signature: the node has seen a copy of the transaction, signed after the first step
 * with the same nonce and the approved mana limit, which a node could send on its own until the nonce is used.
 */
const DRY_RUN_COPY =
  'Its dry run ran on the node with a copy signed after your first approval: a node you do not trust could still send that copy.';

/** The second step of a dApp's transaction: what its signed dry run did, or why the steps after the approval failed. */
function effectsText(
  request: ApprovalRequest,
  effects: TransactionEffects,
  where: string,
): { title: string; lines: string[]; riskLines: string[] } {
  const r = request.review;
  const lines = [`Requested by: ${r.origin}`];
  for (const op of r.operations) lines.push(`Approved: ${op.summary ?? `Call ${op.entryPoint} on ${op.contract}`}`);
  if (effects.failure !== undefined) {
    lines.push('', effects.failure, '', NOT_SENT);
    return { title: `This transaction failed after your approval${where}`, lines, riskLines: [] };
  }
  lines.push(
    '',
    r.kind === 'send'
      ? 'It is signed and held: it is sent only if you confirm.'
      : 'It is signed and held: the dApp gets the signature only if you confirm.',
  );
  if (!effects.dryRun) {
    lines.push('No dry run could run (another transaction of this account is still pending): its events are unknown.');
  } else {
    lines.push(DRY_RUN_COPY);
    if (effects.events.length === 0) lines.push('Its dry run emitted no events.');
    else {
      lines.push('Its dry run emitted:');
      effects.events.forEach((event, i) => lines.push(`${i + 1}. ${eventLine(event)}`));
    }
  }
  const used = effects.rcUsed !== undefined ? `${formatAmount(BigInt(effects.rcUsed))} used in the dry run; ` : '';
  lines.push(`Mana: ${used}at most ${formatAmount(BigInt(effects.rcLimit))} (the rc_limit it is signed with)`);
  lines.push(`Transaction ID: ${effects.transactionId}`);
  return { title: `${approvalAction(request)}${where}?`, lines, riskLines: [] };
}

/** One event as a line: its sentence (a token event), else its name, contract and decoded data. */
function eventLine(event: DecodedEvent): string {
  if (event.summary) return event.summary;
  const data =
    event.data === null || event.data === undefined || event.data === '' ? '' : ` ${JSON.stringify(event.data)}`;
  return `${event.name}${event.contract ? ` from ${event.contract}` : ''}${data}`;
}

function connectionLines(c: NonNullable<ApprovalRequest['review']['connection']>): string[] {
  const names = new Map(c.available.map((a) => [a.address, a]));
  return [
    `Declared address: ${c.url} (declared by the dApp, not verified)`,
    `Networks: ${c.chains.map((x) => `${x.networkName} (${x.chain})`).join(', ')}`,
    'Accounts it will see and may ask to sign with:',
    ...c.accounts.map(
      (a) =>
        `   ${names.get(a)?.name ?? 'Account'}${names.get(a)?.watchOnly ? ' (watch-only)' : ''}: ${groupAddress(a)}`,
    ),
    `Methods: ${c.methods.join(', ')}`,
    'Every signature still asks for your approval.',
  ];
}

function riskLines(risks: readonly RiskFlag[]): string[] {
  return risks.map((risk) => `⚠ ${risk.message}`);
}

/** The address-valued arguments of a decoded call (`from`, `to`, `owner`, `spender`), in their order. */
function addressArguments(args: unknown): [string, string][] {
  if (args === null || typeof args !== 'object') return [];
  return Object.entries(args as Record<string, unknown>).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === 'string' && /^[1-9A-HJ-NP-Za-km-z]{25,35}$/.test(entry[1]),
  );
}
