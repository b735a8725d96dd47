// One formula of the Fórmulas section: its name and unit, live value, change against its value
// at the legs' previous closes (the session's start; a price's in percent, a rate's or a
// ratio's in percentage points, src/lib/valueChange.ts), and the symbols it uses. Like a quote row,
// it renders once and writes each new value into its text nodes; it holds its legs with its
// element (the off-screen cadence while it is scrolled away).
import { memo, useLayoutEffect, useRef } from 'react';
import { isStaleQuote, subscribeQuotes, useMarketStatus, useStaleMarkets } from '../../../../data/store';
import { holdSymbol } from '../../../../data/worker';
import { compileFormula, formulaProblem, formulaValue } from '../../../../lib/formulaValue';
import { DEFAULT_DECIMALS, formatMarketTime, formatSigned } from '../../../../lib/numberFormat';
import { EMPTY_CELL } from '../../../../lib/quoteColumns';
import { describeChange, formatChange, formatUnitValue, UNIT_LABELS } from '../../../../lib/valueChange';
import { displaySymbol } from '../../../../lib/symbolNames';
import type { NamedFormula } from '../../../../protocol/workspace';

export const FormulaCard = memo(function FormulaCard({ formula }: { formula: NamedFormula }) {
  const marketLive = useMarketStatus().state === 'open';
  // Stale when any leg's market is not running (stopped, silent, reconnecting, closed).
  const staleMarkets = useStaleMarkets();
  const cardRef = useRef<HTMLElement>(null);
  const valueRef = useRef<HTMLSpanElement>(null);
  const changeRef = useRef<HTMLSpanElement>(null);
  const noteRef = useRef<HTMLParagraphElement>(null);
  const compiled = compileFormula(formula.expression);
  const unit = formula.unit;

  useLayoutEffect(() => {
    const card = cardRef.current!;
    const valueText = valueRef.current!.firstChild as Text;
    const change = changeRef.current!;
    const changeText = change.firstChild as Text;
    const noteText = noteRef.current!.firstChild as Text;
    const parsed = compileFormula(formula.expression);
    if (!parsed.ok) {
      noteText.nodeValue = parsed.error;
      return;
    }
    /** Where the change is measured from when the legs have no previous close: the first value seen. */
    let firstSeen: number | null = null;
    // Each text, sign and state is written only when it changes: a formula's legs move every
    // frame, and an unchanged write still costs style and layout.
    const shown = { value: '', change: '', title: '', sign: '', stale: '', note: '' };
    // Computed at once, then once per batch of ticks that moved any leg (subscribeQuotes).
    const stop = subscribeQuotes(parsed.symbols, (states) => {
      const result = formulaValue(parsed, (symbol) => states.get(symbol)?.quote);
      const stale = !marketLive || parsed.symbols.some((symbol) => isStaleQuote(states.get(symbol), staleMarkets));
      if (result.value != null) firstSeen ??= result.value;
      const base = result.close ?? firstSeen;
      const value = result.value == null ? EMPTY_CELL : formatUnitValue(unit, result.value, DEFAULT_DECIMALS);
      let changeLine = ' ';
      let title = '';
      let sign = '0';
      const moved = formatChange(unit, result.value, base);
      if (result.value != null && base != null) {
        const delta = result.value - base;
        const since = result.close != null ? 'vs. cierre anterior' : 'desde que se abrió';
        // A price says its change in pesos and in percent; a rate and a ratio in points only (a percent of them means nothing).
        if (unit === 'price') changeLine = `${formatSigned(delta, DEFAULT_DECIMALS)}${moved ? ` (${moved.text})` : ''} ${since}`;
        else if (moved) changeLine = `${moved.text} ${since}`;
        title = moved ? describeChange(moved) : '';
        sign = String(Math.sign(delta));
      }
      const note =
        formulaProblem(result) ?? (stale ? (result.time ? `Sin datos en vivo · último ${formatMarketTime(result.time)}` : 'Sin datos en vivo') : ' ');
      if (value !== shown.value) valueText.nodeValue = shown.value = value;
      if (changeLine !== shown.change) changeText.nodeValue = shown.change = changeLine;
      if (title !== shown.title) change.title = shown.title = title;
      if (sign !== shown.sign) change.dataset.sign = shown.sign = sign;
      if (String(stale) !== shown.stale) card.dataset.stale = shown.stale = String(stale);
      if (note !== shown.note) noteText.nodeValue = shown.note = note;
    });
    const releases = parsed.symbols.map((symbol) => holdSymbol(symbol, card));
    return () => {
      stop();
      releases.forEach((release) => release());
    };
  }, [formula.expression, unit, marketLive, staleMarkets]);

  return (
    <article className="vs-formula-card" ref={cardRef} data-formula={formula.name} data-unit={unit} data-stale="true" aria-label={formula.name}>
      <h3 className="vs-formula-card__name" title={formula.expression}>
        {formula.name}
      </h3>
      <p className="vs-formula-card__value">
        <span ref={valueRef} data-field="value">
          {EMPTY_CELL}
        </span>
      </p>
      <p className="vs-formula-card__change">
        <span ref={changeRef} data-field="change" data-sign="0">
          {' '}
        </span>
      </p>
      <p className="vs-formula-card__note" ref={noteRef}>
        {' '}
      </p>
      <div className="vs-formula-card__foot">
        <ul className="vs-formula-card__symbols" aria-label="Símbolos que usa">
          {compiled.symbols.map((symbol) => (
            <li key={symbol} title={symbol}>
              {displaySymbol(symbol)}
            </li>
          ))}
        </ul>
        <span className="vs-formula-unit" title="Qué es el valor: de eso depende cómo se lee su variación">
          {UNIT_LABELS[unit]}
        </span>
      </div>
    </article>
  );
});
