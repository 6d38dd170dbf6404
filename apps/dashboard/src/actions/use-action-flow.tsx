/**
 * Confirm → POST → show the result, for any action button. Buttons call `request()`; the page
 * renders `element` once (the dialog while confirming, then the result banner).
 */
import type { VNode } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import { asApiRequestError } from '../api/api-error.js';
import { postAction } from '../api/client.js';
import type { ActionName } from '../api/types.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { type ActionContext, type ActionDescription, describeAction } from './describe-action.js';

interface Outcome {
  action: ActionName;
  ok: boolean;
  message: string;
  hint?: string;
}

export interface ActionFlow {
  request: (action: ActionName, context: ActionContext) => void;
  element: VNode;
}

export function useActionFlow(executionId: string, onFinished?: () => void): ActionFlow {
  const [pending, setPending] = useState<{ action: ActionName; text: ActionDescription }>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  const request = useCallback((action: ActionName, context: ActionContext) => {
    setOutcome(undefined);
    setPending({ action, text: describeAction(action, context) });
  }, []);

  const confirm = async (action: ActionName, target: string | undefined) => {
    setBusy(true);
    try {
      const result = await postAction(executionId, action, target);
      setOutcome({ action, ok: result.ok, message: result.message });
    } catch (failure) {
      const error = asApiRequestError(failure);
      setOutcome({ action, ok: false, message: error.message, hint: error.hint });
    } finally {
      setBusy(false);
      setPending(undefined);
      onFinished?.();
    }
  };

  const element = (
    <>
      {pending !== undefined && (
        <ConfirmDialog
          description={pending.text}
          busy={busy}
          onCancel={() => setPending(undefined)}
          onConfirm={() => void confirm(pending.action, pending.text.target)}
        />
      )}
      {outcome !== undefined && (
        <div
          class={`panel action-result ${outcome.ok ? 'ok' : 'failed'}`}
          role="status"
          data-testid="action-result"
          data-action={outcome.action}
          data-ok={String(outcome.ok)}
        >
          <strong>{outcome.ok ? `${outcome.action}: done` : `${outcome.action} failed`}</strong>
          <span data-testid="action-result-message">{outcome.message}</span>
          {outcome.hint !== undefined && <span class="hint">{outcome.hint}</span>}
          <button type="button" class="link" onClick={() => setOutcome(undefined)}>
            dismiss
          </button>
        </div>
      )}
    </>
  );
  return { request, element };
}
