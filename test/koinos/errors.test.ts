// hintedText: an error's sentence and its hints as the one line the CLI prints and the dApps screen shows.
import { describe, expect, it } from 'vitest';
import { WalletError, hintedText } from '../../src-main/koinos/errors.ts';

describe('hintedText', () => {
  it('is the sentence alone without hints', () => {
    expect(hintedText(new WalletError('VAULT_LOCKED', 'unlock the wallet first'))).toBe('unlock the wallet first');
  });

  it('puts a period between two parts only where the first ends without one', () => {
    const error = new WalletError('KEYCHAIN_UNAVAILABLE', 'expected the keychain to answer, but it did not', {
      metaMessages: ['Unlock it and try again.', 'Or move the file away:', 'dApps then connect again.'],
      details: 'not in the line',
    });
    expect(hintedText(error)).toBe(
      'expected the keychain to answer, but it did not. Unlock it and try again. Or move the file away: dApps then connect again.',
    );
  });
});
