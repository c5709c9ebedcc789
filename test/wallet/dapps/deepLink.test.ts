// How a WalletConnect URI reaches the wallet: pasted as `wc:…`, or in a `koinos-wallet://wc?uri=…` link the OS hands
// to the app on its command line or as open-url.
import { describe, expect, it } from 'vitest';
import { WalletError } from '../../../src-main/koinos/errors.ts';
import { deepLinkIn } from '../../../src-main/wallet/dapps/deepLink.ts';
import { declaredOrigin, pairingUri, toWalletConnectError } from '../../../src-main/wallet/dapps/walletConnect.ts';

const URI = `wc:${'ab'.repeat(32)}@2?expiryTimestamp=1795636181&relay-protocol=irn&symKey=${'cd'.repeat(32)}`;

describe('pairing URIs and links', () => {
  it('takes a pasted wc: URI as it is, spaces around it dropped', () => {
    expect(pairingUri(`  ${URI}\n`)).toBe(URI);
  });

  it('takes the URI out of a koinos-wallet://wc?uri= link, percent-encoded', () => {
    expect(pairingUri(`koinos-wallet://wc?uri=${encodeURIComponent(URI)}`)).toBe(URI);
  });

  it('refuses a version 1 URI, one without a symmetric key or a relay protocol, and another link', () => {
    for (const text of [
      `wc:${'ab'.repeat(32)}@1?bridge=x&key=${'cd'.repeat(32)}`,
      `wc:${'ab'.repeat(32)}@2?relay-protocol=irn`,
      `wc:${'ab'.repeat(32)}@2?symKey=${'cd'.repeat(32)}`, // sign-client refuses it: no relay-protocol
      `wc:${'ab'.repeat(32)}@2?relay-protocol=irn&xsymKey=${'cd'.repeat(32)}`,
      `wc:${'ab'.repeat(32)}@2?relay-protocol=irn&symKey=${'cd'.repeat(33)}`,
      'koinos-wallet://send?to=1abc',
      'https://x.example',
    ]) {
      expect(() => pairingUri(text)).toThrow(WalletError);
    }
  });

  it('finds the link among command-line arguments, and nothing else', () => {
    const link = `koinos-wallet://wc?uri=${encodeURIComponent(URI)}`;
    expect(deepLinkIn(['/opt/Koinos Wallet/koinos-desktop-wallet', '--no-sandbox', link])).toBe(link);
    expect(deepLinkIn(['/opt/koinos-desktop-wallet', '--inspect'])).toBeUndefined();
    expect(deepLinkIn([`koinos-wallet://wc?uri=${'x'.repeat(5000)}`])).toBeUndefined();
  });

  it('takes the link however the system spells the scheme, and with a slash after wc, on the command line as pasted', () => {
    const encoded = encodeURIComponent(URI);
    for (const link of [`KOINOS-WALLET://wc?uri=${encoded}`, `koinos-wallet://WC/?uri=${encoded}`]) {
      expect(deepLinkIn(['/opt/koinos-desktop-wallet', link])).toBe(link);
      expect(pairingUri(link)).toBe(URI);
    }
    for (const other of [
      `koinos-wallet://wc/pair?uri=${encoded}`,
      `koinos-wallet://send?uri=${encoded}`,
      'koinos-wallet:',
    ]) {
      expect(deepLinkIn([other])).toBeUndefined();
      expect(() => pairingUri(other)).toThrow(/expected a "koinos-wallet:\/\/wc\?uri=…" link/);
    }
  });

  it('names a dApp by the origin it declares, and refuses a declaration that is no URL', () => {
    expect(declaredOrigin('https://app.example:8443/path?q=1')).toBe('https://app.example:8443');
    expect(() => declaredOrigin('app.example')).toThrow(/declare its address as a URL/);
  });

  it("answers the dApp with WalletConnect's codes and the wallet's sentence, never an unknown error's text", () => {
    expect(toWalletConnectError(new WalletError('REJECTED', 'Rejected.'))).toEqual({
      code: 5000,
      message: 'Rejected.',
      data: 'REJECTED',
    });
    expect(toWalletConnectError(new WalletError('APPROVAL_REQUIRED', 'Not granted.'))).toMatchObject({ code: 3001 });
    expect(toWalletConnectError(new WalletError('WATCH_ONLY', 'Watch-only.'))).toMatchObject({
      code: -32000,
      message: 'Watch-only.',
    });
    expect(toWalletConnectError(new Error('/home/me/secret path'))).toEqual({
      code: -32000,
      message: 'The wallet could not answer this request.',
    });
  });
});
