import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so. */
export function CopyButton(props: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button type="button" class="small" onClick={copy} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select and copy it' : (props.label ?? 'Copy')}
    </button>
  );
}
