// The exchanges' own non-trading days that the national calendar (date-holidays, country AR)
// does not list, by year, so a new year's circular is a data change. Each entry is a
// Buenos Aires date (YYYY-MM-DD) and why.
//
// - 6 November, Día del Empleado Bancario: banks close, and with them settlement, so BYMA and
//   A3 Mercados do not trade (every year; listed per year as the exchanges publish it).
export const EXCHANGE_CLOSED_DAYS: Readonly<Record<number, readonly { date: string; reason: string }[]>> = {
  2012: [{ date: '2012-11-06', reason: 'Día del Empleado Bancario' }],
  2013: [{ date: '2013-11-06', reason: 'Día del Empleado Bancario' }],
  2014: [{ date: '2014-11-06', reason: 'Día del Empleado Bancario' }],
  2015: [{ date: '2015-11-06', reason: 'Día del Empleado Bancario' }],
  2016: [{ date: '2016-11-06', reason: 'Día del Empleado Bancario' }],
  2017: [{ date: '2017-11-06', reason: 'Día del Empleado Bancario' }],
  2018: [{ date: '2018-11-06', reason: 'Día del Empleado Bancario' }],
  2019: [{ date: '2019-11-06', reason: 'Día del Empleado Bancario' }],
  2020: [{ date: '2020-11-06', reason: 'Día del Empleado Bancario' }],
  2021: [{ date: '2021-11-06', reason: 'Día del Empleado Bancario' }],
  2022: [{ date: '2022-11-06', reason: 'Día del Empleado Bancario' }],
  2023: [{ date: '2023-11-06', reason: 'Día del Empleado Bancario' }],
  2024: [{ date: '2024-11-06', reason: 'Día del Empleado Bancario' }],
  2025: [{ date: '2025-11-06', reason: 'Día del Empleado Bancario' }],
  2026: [{ date: '2026-11-06', reason: 'Día del Empleado Bancario' }],
  2027: [{ date: '2027-11-06', reason: 'Día del Empleado Bancario' }],
};

/**
 * Days the national calendar marks as holidays on which the exchanges trade anyway, by year.
 * None known; the place for such a circular.
 */
export const EXCHANGE_OPEN_DAYS: Readonly<Record<number, readonly { date: string; reason: string }[]>> = {};
