/**
 * The confirmation every action goes through: a modal `<dialog>` (the browser's own focus trap and
 * Escape handling) that lists what will happen.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { ActionDescription } from '../actions/describe-action.js';

export function ConfirmDialog({
  description,
  busy,
  onConfirm,
  onCancel,
}: {
  description: ActionDescription;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class="confirm-dialog"
      data-testid="confirm-dialog"
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        // Escape: close through our state, so the dialog and the state never disagree.
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id="confirm-title">{description.title}</h2>
      {description.consequences.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <div class="dialog-buttons">
        <button type="button" data-testid="cancel-action" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          class={description.destructive ? 'danger' : 'primary'}
          data-testid="confirm-action"
          disabled={busy}
          onClick={onConfirm}
        >
          {busy ? 'Working…' : description.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
