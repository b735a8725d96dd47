// A named formula typed by the user (both sections use it): the name, the expression, what its
// value is (price, ratio or rate: how its change reads), and what is wrong with them said in
// place, before anything is saved (src/lib/formula.ts parses; the symbols are checked against
// the instrument catalogue, useSymbolCheck).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { UNIT_HINTS, UNIT_LABELS } from '../../../../lib/valueChange';
import { FORMULA_UNITS, inferFormulaUnit, type FormulaUnit, type NamedFormula } from '../../../../protocol/workspace';
import { formulaFormProblem, symbolsToCheck } from './formulaInput';
import { useSymbolCheck } from './useSymbolCheck';
import './formula.css';

interface FormulaFormProps {
  /** The formula being edited, or none for a new one. */
  initial?: NamedFormula;
  /** Names the new name may not repeat (the formula's own name excluded). */
  taken: readonly string[];
  submitLabel: string;
  disabledReason: string | null;
  onSubmit(formula: NamedFormula): void;
  onCancel?(): void;
}

export function FormulaForm({ initial, taken, submitLabel, disabledReason, onSubmit, onCancel }: FormulaFormProps) {
  const [name, setName] = useState(initial?.name ?? '');
  const [expression, setExpression] = useState(initial?.expression ?? '');
  /** The unit the user chose; until then the one the name or the expression suggests. */
  const [chosenUnit, setChosenUnit] = useState<FormulaUnit | null>(initial?.unit ?? null);
  const [problem, setProblem] = useState<ReturnType<typeof formulaFormProblem>>(null);
  const [checking, setChecking] = useState(false);
  /** Bumped by each submit and each edit: an answer of the symbol check for an older one is dropped. */
  const turn = useRef(0);
  const checkSymbols = useSymbolCheck();
  const id = useId();
  const unit = chosenUnit ?? inferFormulaUnit(name, expression);
  // What is wrong is said under the fields, and brought into view: a new section is short, and
  // its form scrolls inside it, so a message below the fold showed only as a red outline.
  const problemRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (problem) problemRef.current?.scrollIntoView({ block: 'nearest' });
  }, [problem]);

  const edited = () => {
    turn.current += 1;
    setChecking(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking) return;
    const formula = { name: name.trim(), expression: expression.trim(), unit };
    const found = formulaFormProblem(formula, taken);
    setProblem(found);
    if (found) return;
    const mine = ++turn.current;
    setChecking(true);
    const unknown = await checkSymbols(formula.expression, symbolsToCheck(formula.expression, initial?.expression));
    if (mine !== turn.current) return;
    setChecking(false);
    if (unknown) return setProblem({ field: 'expression', message: unknown });
    onSubmit(formula);
    if (!initial) {
      setName('');
      setExpression('');
      setChosenUnit(null);
    }
  };
  const off = disabledReason != null;
  return (
    <form className="vs-formula-form" onSubmit={(event) => void submit(event)} noValidate aria-busy={checking}>
      <div className="vs-formula-form__field">
        <label htmlFor={`${id}-name`}>Nombre</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            edited();
            if (problem?.field === 'name') setProblem(null);
          }}
          placeholder="Dólar MEP"
          maxLength={100}
          disabled={off}
          aria-invalid={problem?.field === 'name'}
          aria-describedby={problem?.field === 'name' ? `${id}-problem` : undefined}
        />
      </div>
      <div className="vs-formula-form__field vs-formula-form__expression">
        <label htmlFor={`${id}-expression`}>Fórmula</label>
        <input
          id={`${id}-expression`}
          value={expression}
          onChange={(event) => {
            setExpression(event.target.value);
            edited();
            if (problem?.field === 'expression') setProblem(null);
          }}
          placeholder="BYMA:AL30/BYMA:AL30D"
          autoComplete="off"
          spellCheck={false}
          disabled={off}
          aria-invalid={problem?.field === 'expression'}
          aria-describedby={problem?.field === 'expression' ? `${id}-problem` : undefined}
        />
      </div>
      <div className="vs-formula-form__field">
        <label htmlFor={`${id}-unit`}>Valor</label>
        <select
          id={`${id}-unit`}
          value={unit}
          onChange={(event) => setChosenUnit(event.target.value as FormulaUnit)}
          disabled={off}
          aria-describedby={`${id}-unit-hint`}
        >
          {FORMULA_UNITS.map((option) => (
            <option key={option} value={option}>
              {UNIT_LABELS[option]}
            </option>
          ))}
        </select>
      </div>
      {problem && (
        <p className="form-error vs-formula-form__problem" id={`${id}-problem`} role="alert" ref={problemRef}>
          {problem.message}
        </p>
      )}
      <div className="vs-formula-form__buttons">
        <button type="submit" className="button button--primary" disabled={off || checking}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancelar
          </button>
        )}
      </div>
      <p className="vs-note" id={`${id}-unit-hint`}>
        {UNIT_HINTS[unit]}
      </p>
      {checking && <p className="vs-note">Comprobando los símbolos en el catálogo…</p>}
      {off && <p className="vs-note">{disabledReason}</p>}
    </form>
  );
}
