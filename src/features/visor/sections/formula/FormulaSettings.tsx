// The Fórmulas section's settings: add a formula, add the presets a trader expects (MEP,
// CCL, canje, brecha), edit or remove each formula.
import { useState } from 'react';
import { FORMULA_PRESETS } from '../../../../lib/formulaPresets';
import { UNIT_LABELS } from '../../../../lib/valueChange';
import { MAX_FORMULAS, type NamedFormula } from '../../../../protocol/workspace';
import { FormulaForm } from './FormulaForm';

interface FormulaSettingsProps {
  formulas: readonly NamedFormula[];
  disabledReason: string | null;
  /** Changes the formulas: `update` gets the latest ones (not this render's) and returns the next. */
  onChange(update: (formulas: NamedFormula[]) => NamedFormula[]): void;
  onClose(): void;
}

/** Adds a formula unless the section is full or has one of that name (two quick adds of the same preset). */
function addFormula(current: NamedFormula[], formula: NamedFormula): NamedFormula[] {
  if (current.length >= MAX_FORMULAS || current.some((other) => other.name.toLowerCase() === formula.name.toLowerCase())) return current;
  return [...current, formula];
}

export function FormulaSettings({ formulas, disabledReason, onChange, onClose }: FormulaSettingsProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const names = formulas.map((formula) => formula.name);
  const full = formulas.length >= MAX_FORMULAS ? `Una sección no puede superar ${MAX_FORMULAS} fórmulas` : null;
  const off = disabledReason ?? full;
  const presets = FORMULA_PRESETS.filter((preset) => !names.some((name) => name.toLowerCase() === preset.name.toLowerCase()));

  return (
    <div className="vs-settings" role="group" aria-label="Fórmulas de la sección">
      <div className="vs-settings__head">
        <h3>Fórmulas</h3>
        <button type="button" className="button" onClick={onClose}>
          Cerrar
        </button>
      </div>
      {formulas.length > 0 && (
        <ul className="vs-settings__list">
          {formulas.map((formula) => (
            <li key={formula.name}>
              {editing === formula.name ? (
                <FormulaForm
                  initial={formula}
                  taken={names.filter((name) => name !== formula.name)}
                  submitLabel="Guardar"
                  disabledReason={disabledReason}
                  onSubmit={(changed) => {
                    onChange((current) => current.map((other) => (other.name === formula.name ? changed : other)));
                    setEditing(null);
                  }}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <div className="vs-settings__item">
                  <span>
                    <strong>{formula.name}</strong> <span className="vs-formula-unit">{UNIT_LABELS[formula.unit]}</span> <code>{formula.expression}</code>
                  </span>
                  <span className="vs-settings__item-buttons">
                    <button
                      type="button"
                      className="button"
                      disabled={disabledReason != null}
                      onClick={() => setEditing(formula.name)}
                      aria-label={`Editar ${formula.name}`}
                    >
                      Editar
                    </button>
                    <button
                      type="button"
                      className="button"
                      disabled={disabledReason != null}
                      onClick={() => onChange((current) => current.filter((other) => other.name !== formula.name))}
                      aria-label={`Quitar ${formula.name}`}
                    >
                      Quitar
                    </button>
                  </span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <h4>Agregar fórmula</h4>
      <FormulaForm taken={names} submitLabel="Agregar" disabledReason={off} onSubmit={(formula) => onChange((current) => addFormula(current, formula))} />
      {presets.length > 0 && (
        <>
          <h4>Predefinidas</h4>
          <ul className="vs-presets">
            {presets.map((preset) => (
              <li key={preset.name}>
                <button
                  type="button"
                  className="button"
                  disabled={off != null}
                  title={preset.expression}
                  onClick={() => onChange((current) => addFormula(current, { name: preset.name, expression: preset.expression, unit: preset.unit }))}
                >
                  Agregar {preset.name}
                </button>
                <span className="vs-note">{preset.description}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
