import { Button, Classes, Drawer, DrawerSize, H2 } from '@blueprintjs/core';
import { useId, useState } from 'react';
import { useNarrowScreen } from '../app/useNarrowScreen';
import { useReturnFocus } from '../app/useReturnFocus';
import './history.css';
import { type ItemHistoryArgs, useGetItemHistoryQuery } from './historyApi';
import { Timeline } from './Timeline';

type Props = { kind: ItemHistoryArgs['kind']; id: string; title: string; onClose: () => void };

/**
 * One loan's or transaction's history in a drawer, newest first, deleted items included. Mounted
 * only while open; focus goes back to the button that opened it.
 */
export function HistoryDrawer({ kind, id, title, onClose }: Props) {
  useReturnFocus();
  const narrow = useNarrowScreen();
  const [cursor, setCursor] = useState<string | null>(null);
  const [body, setBody] = useState<HTMLElement | null>(null);
  const history = useGetItemHistoryQuery({ kind, id, cursor }, { refetchOnMountOrArgChange: true });
  const data = history.data;
  const headingId = useId();
  return (
    <Drawer isOpen onClose={onClose} size={narrow ? DrawerSize.LARGE : DrawerSize.STANDARD}>
      {/* Blueprint's drawer has no dialog role: this section is the dialog, named by its heading. */}
      <section role="dialog" aria-modal="true" aria-labelledby={headingId} className="kosh-history-drawer">
        <div className={Classes.DRAWER_HEADER}>
          <H2 id={headingId} className={`${Classes.HEADING} kosh-history-drawer-title`}>
            {title}
          </H2>
          <Button variant="minimal" icon="cross" aria-label="Close" onClick={onClose} />
        </div>
        {/* A scrolling region a keyboard can reach and scroll (axe: scrollable-region-focusable). */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
        <section ref={setBody} className="kosh-history-drawer-body" tabIndex={0} aria-label={title}>
          <Timeline
            label={title}
            entries={data?.entries}
            loading={history.isLoading}
            fetching={history.isFetching}
            failed={history.isError}
            hasMore={Boolean(data?.nextCursor)}
            onMore={() => {
              if (data?.nextCursor && !history.isFetching) setCursor(data.nextCursor);
            }}
            scrollRoot={body}
          />
        </section>
      </section>
    </Drawer>
  );
}
