// `--allow-risk NAME`: the CLI's explicit second confirmation. Every command that signs assesses what it is about to
// sign (riskFlags.ts) and refuses, before any signature, a flag the command line did not name.
import { WalletError } from '../koinos/errors.ts';
import type { RiskFlag } from '../wallet/chain/types.ts';
import { RISK_NAME_LIST, riskCodeOf, unacceptedRisks } from '../wallet/chain/riskFlags.ts';
import { listOption, type OptionSpec, type ParsedArgs } from './io.ts';

/** The option every signing command takes. */
export const ALLOW_RISK_OPTION: Record<string, OptionSpec> = { 'allow-risk': { type: 'string', multiple: true } };

/** Usage lines shared by the signing commands. */
export const ALLOW_RISK_USAGE = `--allow-risk NAME (repeatable) signs a transaction that carries the risk NAME; without it such a
      transaction is refused and nothing is signed or sent. NAME is one of:
        ${RISK_NAME_LIST.slice(0, 4).join(', ')},
        ${RISK_NAME_LIST.slice(4).join(', ')}.`;

/**
 * The `--allow-risk` names of the command line, each checked.
 * @throws WalletError INVALID_ARGUMENT for a name that is no risk's name (the valid ones listed).
 */
export function allowedRisks(args: ParsedArgs): string[] {
  const names = listOption(args, 'allow-risk');
  for (const name of names) riskCodeOf(name);
  return names;
}

/**
 * Refuses `risks` unless `allowed` names each one.
 * @throws WalletError INVALID_ARGUMENT listing the `--allow-risk` options needed and what each means.
 * @example
 * requireAllowed(assessRisks(tx, context), ['upload-contract']); // throws when 'replaces-account' is flagged too
 */
export function requireAllowed(risks: readonly RiskFlag[], allowed: readonly string[]): void {
  const missing = unacceptedRisks(risks, allowed);
  if (missing.length === 0) return;
  throw new WalletError(
    'INVALID_ARGUMENT',
    `refused to sign: the transaction needs ${missing.map((r) => `--allow-risk ${r.name}`).join(' ')} to be signed; nothing was signed or sent`,
    { metaMessages: missing.map((r) => `${r.name}: ${r.message}`) },
  );
}
