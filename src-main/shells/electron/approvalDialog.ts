// The Electron shell's approver: main shows every signing request in a native dialog it draws itself, so a window
// (compromised or not) can neither draw the approval nor click it. A flagged request asks a second time, naming each
// risk. A dApp's transaction comes back once signed and dry-run: a second dialog lists its effects (or why it failed)
// before the signature leaves main. Pure over the `showMessageBox` it is given, so it is tested in plain Node.
import type { MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import type { ApprovalRequest } from '../../ipc/contract.ts';
import type { DialogApprover } from '../../wallet/approvals/approvalQueue.ts';
import { approvalAction, approvalText } from '../../wallet/approvals/approvalText.ts';

export type ShowMessageBox = (options: MessageBoxOptions) => Promise<MessageBoxReturnValue>;

/** The dialogs of one request: the review, then (when flagged) the second confirmation. Reject is the default. */
export function approvalDialogs(request: ApprovalRequest): MessageBoxOptions[] {
  const { title, lines, riskLines } = approvalText(request);
  const action = approvalAction(request);
  const effects = request.review.effects;
  if (effects) {
    // The warnings were confirmed in the first step; this one releases (or, failed, only informs).
    const failed = effects.failure !== undefined;
    return [
      {
        type: failed ? 'error' : 'question',
        title: failed ? 'A transaction failed' : 'Confirm what the transaction does',
        message: title,
        detail: lines.join('\n'),
        buttons: failed ? ['Close'] : ['Reject', action],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      },
    ];
  }
  const dialogs: MessageBoxOptions[] = [
    {
      type: riskLines.length > 0 ? 'warning' : 'question',
      title: request.review.kind === 'connect' ? 'Approve a connection' : 'Approve a signature',
      message: title,
      detail: [...lines, ...(riskLines.length > 0 ? ['', 'Warnings:', ...riskLines] : [])].join('\n'),
      buttons: ['Reject', action],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    },
  ];
  if (riskLines.length > 0) {
    dialogs.push({
      type: 'warning',
      title: 'Confirm the warnings',
      message: 'This request is flagged. Sign it anyway?',
      detail: [...riskLines, '', 'Sign only if you made this request yourself and know what it does.'].join('\n'),
      buttons: ['Reject', `I understand: ${action.toLowerCase()}`],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
  }
  return dialogs;
}

/**
 * One request's dialogs at a time, in the order the requests came: two dialogs open at once would stack their action
 * buttons in one place, and a dialog that appears just before a click meant for another would take it. A request
 * rejected or expired while it waits is never shown.
 * @example
 * const approver = dialogApprover((options) => dialog.showMessageBox(mainWindow, options));
 * const wallet = await createWalletApp({ dataDir, approver });
 */
export function dialogApprover(show: ShowMessageBox): DialogApprover {
  let previous: Promise<unknown> = Promise.resolve();
  const ask = async (request: ApprovalRequest, signal: AbortSignal): Promise<boolean> => {
    for (const options of approvalDialogs(request)) {
      if (signal.aborted) return false;
      const { response } = await show({ ...options, signal });
      if (signal.aborted || response !== 1) return false;
    }
    return !signal.aborted;
  };
  return {
    mode: 'dialog',
    decide(request, signal) {
      const turn = previous.then(() => ask(request, signal));
      previous = turn.catch(() => undefined);
      return turn;
    },
  };
}
