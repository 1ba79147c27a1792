import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal `<dialog>`: the browser keeps focus inside it, Escape closes it, and focus goes
 * back where it was when it closes.
 */
export function Modal(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog ref={dialog} aria-label={props.title} onClose={props.onClose} onCancel={props.onClose}>
      <header class="dialog-header">
        <h2>{props.title}</h2>
        <button type="button" class="small" onClick={props.onClose}>
          Close
        </button>
      </header>
      {props.children}
    </dialog>
  );
}
