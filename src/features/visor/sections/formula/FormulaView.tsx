// The formula section (`Fórmulas`, issue 18): cards of named formulas with their live value,
// its change since the session's start and the symbols they use. The settings (edit mode)
// add, edit and remove formulas and add the presets.
import { migrateFormulaConfig, type NamedFormula } from '../../../../protocol/workspace';
import type { ConfigOf, SectionViewProps } from '../types';
import { FormulaCard } from './FormulaCard';
import { FormulaSettings } from './FormulaSettings';
import './formula.css';

/** The formulas, each with its unit (one kept from before units, in this tab's cache, gets the inferred one). */
function readFormulas(config: ConfigOf<'formula'> | undefined): NamedFormula[] {
  const read = migrateFormulaConfig(config) as Partial<ConfigOf<'formula'>> | undefined;
  return Array.isArray(read?.formulas) ? read.formulas : [];
}

export function FormulaView({ section, editable, onConfigChange, settingsOpen, onSettingsClose, disabledReason }: SectionViewProps<'formula'>) {
  const formulas = readFormulas(section.config);
  return (
    <div className="vs-formulas">
      {editable && settingsOpen && (
        <FormulaSettings
          formulas={formulas}
          disabledReason={disabledReason}
          onChange={(update) =>
            onConfigChange((current) => {
              const before = readFormulas(current);
              const next = update(before);
              return next === before ? current : { ...current, formulas: next };
            })
          }
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
