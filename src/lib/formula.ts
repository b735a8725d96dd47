// Formulas over symbols (spec section 5): whitespace is stripped; operators + - * / and
// parentheses; numbers; symbols written `EXCHANGE:TICKER` (`ROFEX:DLR/DIC26`, `BYMA:AL30`)
// or in BYMA's long form (`MERV - XMEV - AL30 - CI`). A `/` followed by a month code
// (`DIC26`) or by SPOT belongs to a futures symbol; any other `/` divides. Pure, no I/O.
import { parseMonthCode } from './calendar';

export type FormulaNode =
  | { kind: 'number'; value: number }
  | { kind: 'symbol'; symbol: string }
  | { kind: 'negate'; operand: FormulaNode }
  | { kind: 'binary'; operator: '+' | '-' | '*' | '/'; left: FormulaNode; right: FormulaNode };

export type ParsedFormula =
  { ok: true; ast: FormulaNode; symbols: string[]; hasOperators: boolean } | { ok: false; error: string; symbols: string[]; hasOperators: boolean };

/** Spec section 5: a formula has operators if it contains any of + - * /. */
export function hasOperators(formula: string): boolean {
  return /[+\-*/]/.test(formula);
}

const BYMA_LONG = /^MERV-XMEV-([A-Z0-9.]+)-(CI|24HS|48HS)/i;
const PREFIXED = /^([A-Za-z]+):([A-Za-z0-9.]+)/;
const MONTH_SEGMENT = /^\/([A-Z]{3}\d{2})(A?)/;
const SPOT_SEGMENT = /^\/SPOT(?![A-Za-z0-9])/i;
const NUMBER = /^\d+(?:\.\d+)?/;
const BARE_TICKER = /^[A-Za-z][A-Za-z0-9.]*(?:\/[A-Za-z]{3}\d{2})*/;

class FormulaError extends Error {
  constructor(
    readonly problem: string,
    /** Index in the formula without whitespace. */
    readonly at: number,
  ) {
    super(problem);
  }
}

function parse(source: string, symbols: string[]): FormulaNode {
  let pos = 0;
  const fail = (message: string): never => {
    throw new FormulaError(message, pos);
  };
  const peek = () => source[pos];

  const readSymbol = (): string | null => {
    const rest = source.slice(pos);
    const long = BYMA_LONG.exec(rest);
    if (long) {
      pos += long[0].length;
      const term = long[2]!.toUpperCase() === 'CI' ? 'CI' : long[2]!.toLowerCase();
      return `MERV - XMEV - ${long[1]!.toUpperCase()} - ${term}`;
    }
    const prefixed = PREFIXED.exec(rest);
    if (!prefixed) return null;
    pos += prefixed[0].length;
    let symbol = `${prefixed[1]!.toUpperCase()}:${prefixed[2]!.toUpperCase()}`;
    // The spot reference (`ROFEX:DLR/SPOT`, the A3500 dollar) is a symbol too, not a division.
    const spot = SPOT_SEGMENT.exec(source.slice(pos));
    if (spot) {
      pos += spot[0].length;
      return `${symbol}/SPOT`;
    }
    for (;;) {
      const month = MONTH_SEGMENT.exec(source.slice(pos));
      if (!month || !parseMonthCode(month[1]!)) break;
      pos += month[0].length;
      symbol += `/${month[1]}${month[2]}`;
    }
    return symbol;
  };

  const factor = (): FormulaNode => {
    const char = peek();
    if (char === undefined) return fail('La fórmula termina antes de tiempo');
    if (char === '-' || char === '+') {
      pos += 1;
      const operand = factor();
      return char === '-' ? { kind: 'negate', operand } : operand;
    }
    if (char === '(') {
      pos += 1;
      const inner = expression();
      if (peek() !== ')') fail('Falta cerrar un paréntesis');
      pos += 1;
      return inner;
    }
    const symbol = readSymbol();
    if (symbol != null) {
      if (!symbols.includes(symbol)) symbols.push(symbol);
      return { kind: 'symbol', symbol };
    }
    const number = NUMBER.exec(source.slice(pos));
    if (number) {
      pos += number[0].length;
      return { kind: 'number', value: Number(number[0]) };
    }
    // A ticker without its market (`AL30`, `DLR/DIC26`, where `/` would divide) names nothing.
    const bare = BARE_TICKER.exec(source.slice(pos));
    if (bare) return fail(`Falta el mercado de «${bare[0]}»: escriba MERCADO:TICKER (BYMA:AL30, ROFEX:DLR/DIC26)`);
    return fail(`No se esperaba «${char}»`);
  };

  const term = (): FormulaNode => {
    let left = factor();
    while (peek() === '*' || peek() === '/') {
      const operator = peek() as '*' | '/';
      pos += 1;
      left = { kind: 'binary', operator, left, right: factor() };
    }
    return left;
  };

  const expression = (): FormulaNode => {
    let left = term();
    while (peek() === '+' || peek() === '-') {
      const operator = peek() as '+' | '-';
      pos += 1;
      left = { kind: 'binary', operator, left, right: term() };
    }
    return left;
  };

  if (source.length === 0) fail('La fórmula está vacía');
  const ast = expression();
  if (pos < source.length) fail(`No se esperaba «${source[pos]}»`);
  return ast;
}

export function parseFormula(formula: string): ParsedFormula {
  // Positions in messages count in the formula as written, spaces included: where each
  // character of the whitespace-free source stood.
  const written: number[] = [];
  for (let i = 0; i < formula.length; i++) if (!/\s/.test(formula[i]!)) written.push(i);
  const source = written.map((i) => formula[i]).join('');
  const symbols: string[] = [];
  const operators = hasOperators(source.replace(BYMA_LONG, ''));
  try {
    return { ok: true, ast: parse(source, symbols), symbols, hasOperators: operators };
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    const at = error.at < written.length ? written[error.at]! : (written.at(-1) ?? -1) + 1;
    return { ok: false, error: `${error.problem} (posición ${at + 1})`, symbols, hasOperators: operators };
  }
}

/** The value of a formula, or null when a symbol has no price or a division is by zero. */
export function evaluateFormula(ast: FormulaNode, priceOf: (symbol: string) => number | null | undefined): number | null {
  switch (ast.kind) {
    case 'number':
      return ast.value;
    case 'symbol':
      return priceOf(ast.symbol) ?? null;
    case 'negate': {
      const value = evaluateFormula(ast.operand, priceOf);
      return value == null ? null : -value;
    }
    case 'binary': {
      const left = evaluateFormula(ast.left, priceOf);
      const right = evaluateFormula(ast.right, priceOf);
      if (left == null || right == null) return null;
      if (ast.operator === '+') return left + right;
      if (ast.operator === '-') return left - right;
      if (ast.operator === '*') return left * right;
      return right === 0 ? null : left / right;
    }
  }
}
