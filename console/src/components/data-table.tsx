import type { ComponentChildren } from 'preact';

/**
 * A table of records: column heads, a caption for screen readers, sideways scrolling when a
 * wide screen still lacks room, and one card per row on a narrow one (each cell then shows
 * its `data-label`). A column given as `false` is left out.
 */
export function DataTable(props: { caption: string; class: string; columns: readonly (ComponentChildren | false)[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table class={`cards ${props.class}`}>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns
              .filter((column) => column !== false)
              .map((column, index) => (
                <th key={index} scope="col">
                  {column}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
