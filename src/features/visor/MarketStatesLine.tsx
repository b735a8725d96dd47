// The visor's one line about the markets its sections show (the market socket's `markets`
// event): a feed stopped, silent or reconnecting and since when, a market closed, and that the
// prices are simulated (lib/marketStateTexts.ts). It goes by itself when the feed comes back.
// A status region, present while the visor is, so a change is read out once, calmly; while the
// market socket is down the connection's own banner speaks instead.
import { useEffect, useState } from 'react';
import { useMarketStatus, useShownMarketStates } from '../../data/store';
import { marketsLine } from '../../lib/marketStateTexts';

/** The clock to the minute: the line writes a time of another day with its date. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function MarketStatesLine() {
  const connected = useMarketStatus().state === 'open';
  const markets = useShownMarketStates();
  const now = useMinuteClock();
  const line = connected && markets ? marketsLine(markets.event, markets.shown, now) : null;
  return (
    <p className="visor-markets" role="status" data-tone={line?.tone}>
      {line?.text}
    </p>
  );
}
