import type { ComponentChildren, HTMLAttributes } from 'preact';

/**
 * A table row whose last cell, Detail, shows (and hides) the row's detail in a row of its own
 * below it, as wide as the table's `columns`.
 */
export function RowWithDetail(props: {
  /** The row's own attributes, such as a `data-` id that finds the record's row. */
  row?: HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number>;
  columns: number;
  open: boolean;
  onToggle: () => void;
  detail: ComponentChildren;
  /** The cells before Detail. */
  children: ComponentChildren;
}) {
  return (
    <>
      <tr {...props.row}>
        {props.children}
        <td data-label="Detail">
          <button type="button" class="small" aria-expanded={props.open} onClick={props.onToggle}>
            {props.open ? 'Hide' : 'Details'}
          </button>
        </td>
      </tr>
      {props.open && (
        <tr class="detail-row">
          <td colSpan={props.columns}>{props.detail}</td>
        </tr>
      )}
    </>
  );
}
