// The naive design the bench compares against: this page opens its own market socket (one
// per tab) and makes a React state update for every message. Same table, same columns, same
// cell formatting (quoteCells) and the same CSS as the quote board, so only the data path
// differs. (createElement rather than JSX: the bench is type-checked without a JSX setting.)
import { createElement as h, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { quoteCells } from '../../src/features/quoteBoard/quoteCells';
import type { Quote } from '../../src/lib/quote';

const symbols = (new URLSearchParams(location.search).get('simbolos') ?? '').split(',').filter(Boolean);

function Board() {
  const [quotes, setQuotes] = useState<Record<string, Quote>>({});
  useEffect(() => {
    const socket = new WebSocket(`ws://${location.host}/ws/market`);
    socket.onopen = () => socket.send(JSON.stringify({ action: 'auth', token: 'bench-token' }));
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as Record<string, unknown>;
      if (message.event === 'authenticated') {
        socket.send(JSON.stringify({ action: 'subscribe', symbols, requestId: 'naive' }));
        return;
      }
      if ('event' in message) return;
      delete message.requestId;
      setQuotes((current) => ({ ...current, ...(message as Record<string, Quote>) }));
    };
    return () => socket.close();
  }, []);
  const num = (field: string, text: string, extra = '') => h('span', { role: 'cell', className: `quote-board__num ${extra}`, 'data-field': field }, text);
  return h(
    'div',
    { role: 'table', className: 'quote-board', 'aria-label': 'Cotizaciones' },
    h(
      'div',
      { role: 'rowgroup' },
      symbols.map((symbol) => {
        const cells = quoteCells(quotes[symbol]);
        return h(
          'div',
          { key: symbol, role: 'row', className: 'quote-board__row', 'data-symbol': symbol, 'data-stale': quotes[symbol] ? 'false' : 'true' },
          h('span', { role: 'rowheader', className: 'quote-board__symbol' }, symbol),
          num('bid', cells.bid),
          num('offer', cells.offer),
          num('last', cells.last),
          num('change', cells.change, cells.direction > 0 ? 'is-up' : cells.direction < 0 ? 'is-down' : ''),
          num('volume', cells.volume),
          h('span', { role: 'cell' }),
        );
      }),
    ),
  );
}

createRoot(document.getElementById('root')!).render(h(Board));
