/**
 * Tables that become a column of cards on a phone (style.css, `.stack-on-phone`): each row is a
 * block whose cells flow and wrap, each cell led by its column's name, so that scores and the
 * Replay button stay on screen instead of behind a sideways scroll. The names are copied from the
 * header into each cell's `data-label` (CSS cannot read another element's text), again whenever
 * rows are added (pages of history load later).
 */
export function stackOnPhone(table: HTMLTableElement): HTMLTableElement {
  table.classList.add('stack-on-phone');
  const label = (): void => {
    const names = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => {
        const name = names[i] ?? '';
        if (name !== '' && cell instanceof HTMLElement && cell.dataset['label'] !== name) cell.dataset['label'] = name;
      });
    }
  };
  label();
  new MutationObserver(label).observe(table, { childList: true, subtree: true });
  return table;
}
