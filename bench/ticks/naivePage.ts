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
  const num = (text: string, extra = '') => h('td', { className: `quote-board__num ${extra}` }, h('span', { className: 'quote-board__value' }, text));
  return h(
    'table',
    { className: 'quote-board', 'aria-label': 'Cotizaciones' },
    h(
      'tbody',
      null,
      symbols.map((symbol) => {
        const cells = quoteCells(quotes[symbol]);
        return h(
          'tr',
          { key: symbol, 'data-symbol': symbol, 'data-stale': quotes[symbol] ? 'false' : 'true' },
          h('th', null, symbol),
          num(cells.bid),
          num(cells.offer),
          num(cells.last),
          num(cells.change, cells.direction > 0 ? 'is-up' : cells.direction < 0 ? 'is-down' : ''),
          num(cells.volume),
        );
      }),
    ),
  );
}

createRoot(document.getElementById('root')!).render(h(Board));
