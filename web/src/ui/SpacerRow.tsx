/**
 * The stand-in for rows a windowed table does not render (useRowWindow): one empty row of their
 * height, hidden from assistive technology (the table's aria-rowcount counts the real rows).
 */
export function SpacerRow({ height, columns }: { height: number; columns: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a table row holding one empty cell is not focusable
    <tr aria-hidden="true" className="kosh-spacer-row">
      <td
        colSpan={columns}
        style={{ height, padding: 0, border: 0, boxShadow: 'none', background: 'transparent' }}
      />
    </tr>
  );
}
