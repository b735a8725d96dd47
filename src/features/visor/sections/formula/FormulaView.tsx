// The formula section (`Fórmulas`, issue 18): cards of named formulas with their live value,
// its change since the session's start and the symbols they use. The settings (edit mode)
// add, edit and remove formulas and add the presets.
import type { SectionViewProps } from '../types';
import { FormulaCard } from './FormulaCard';
import { FormulaSettings } from './FormulaSettings';
import './formula.css';

export function FormulaView({ section, editable, onConfigChange, settingsOpen, onSettingsClose, disabledReason }: SectionViewProps<'formula'>) {
  const formulas = Array.isArray(section.config?.formulas) ? section.config.formulas : [];
  return (
    <div className="vs-formulas">
      {editable && settingsOpen && (
        <FormulaSettings
          formulas={formulas}
          disabledReason={disabledReason}
          onChange={(next) => onConfigChange({ formulas: next })}
          onClose={onSettingsClose}
        />
      )}
      {formulas.length === 0 ? (
        <p className="vs-empty">
          {editable ? 'Agregue fórmulas desde la configuración de la sección (p. ej. dólar MEP o CCL).' : 'Esta sección no tiene fórmulas.'}
        </p>
      ) : (
        <div className="vs-formula-cards">
          {formulas.map((formula) => (
            <FormulaCard key={formula.name} formula={formula} />
          ))}
        </div>
      )}
    </div>
  );
}
