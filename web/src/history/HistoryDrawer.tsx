import { Drawer, DrawerSize } from '@blueprintjs/core';
import { useState } from 'react';
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
  const [body, setBody] = useState<HTMLDivElement | null>(null);
  const history = useGetItemHistoryQuery({ kind, id, cursor }, { refetchOnMountOrArgChange: true });
  const data = history.data;
  return (
    <Drawer
      isOpen
      onClose={onClose}
      title={title}
      icon="history"
      size={narrow ? DrawerSize.LARGE : DrawerSize.STANDARD}
    >
      <div ref={setBody} className="kosh-history-drawer-body">
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
      </div>
    </Drawer>
  );
}
