// The folder tree's schemas are its one definition: the recursive parse, its limits and
// Spanish messages, and the types inferred from them.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  FavsResponse,
  FolderNodeSchema,
  FolderTree,
  FolderTreeResponse,
  SaveTreeResponse,
  TITLE_REQUIRED,
  TREE_LIMITS,
  TREE_TOO_DEEP,
  TREE_TOO_LARGE,
  TreeNodeSchema,
  treeSizeProblem,
  VisorNodeSchema,
  WorkspaceState,
  isFolderNode,
  inferFormulaUnit,
  migrateFormulaConfig,
  migrateQuotesConfig,
  storedSecciones,
  Section,
  visorLink,
  type FolderNode,
  type TreeNode,
  type VisorNode,
} from './workspace';

const UNKNOWN_NODE = 'Nodo desconocido: se esperaba una carpeta (folder_id, name, emoji, sub) o un visor (visor_id, name, emoji, color, to)';

const folder = (id: string, sub: TreeNode[] = [], extra: Partial<FolderNode> = {}): FolderNode => ({
  folder_id: id,
  name: `Carpeta ${id}`,
  emoji: '📁',
  sub,
  ...extra,
});
const leaf = (id: string, extra: Partial<VisorNode> = {}): VisorNode => ({
  visor_id: id,
  name: `Visor ${id}`,
  emoji: '',
  color: 'red',
  to: visorLink(id),
  ...extra,
});

/** A chain of `depth` folders, each inside the previous one, with a leaf at the bottom. */
function chain(depth: number): TreeNode[] {
  let nodes: TreeNode[] = [leaf('hoja')];
  for (let level = depth; level >= 1; level--) nodes = [folder(`N${level}`, nodes)];
  return nodes;
}

/** The issues of a failed parse as [path, message]. */
function issuesOf(value: unknown): [string, string][] {
  const result = FolderTree.safeParse(value);
  expect(result.success, JSON.stringify(value).slice(0, 200)).toBe(false);
  return result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
}

describe('the folder tree schema', () => {
  it('parses folders inside folders, leaves at any level, and every optional field, unchanged', () => {
    const tree: TreeNode[] = [
      folder('A', [leaf('v1', { fav: true }), folder('B', [leaf('v2')], { heading: true, over: false })], { fav: true }),
      leaf('v3'),
      folder('C', []),
    ];
    expect(FolderTree.parse(tree)).toEqual(tree);
  });

  it("refuses a folder's link, icon and active paths: the app draws those, never a client's text (issue 17)", () => {
    for (const field of ['to', 'icon', 'subActivePaths']) {
      expect(issuesOf([{ ...folder('A'), [field]: 'javascript:alert(1)' }])).toEqual([['0', `Campo desconocido: 0.${field}`]]);
    }
  });

  it('tells a folder from a leaf by folder_id', () => {
    const [first, second] = FolderTree.parse([folder('A', [leaf('v')]), leaf('w')]);
    expect(isFolderNode(first!)).toBe(true);
    expect(isFolderNode(second!)).toBe(false);
    if (isFolderNode(first!)) expect(first.sub).toEqual([leaf('v')]);
  });

  it('refuses a tree deeper than TREE_LIMITS.maxDepth before parsing its nodes, at any depth (issue 17)', () => {
    expect(FolderTree.parse(chain(TREE_LIMITS.maxDepth - 1))).toEqual(chain(TREE_LIMITS.maxDepth - 1));
    expect(issuesOf(chain(TREE_LIMITS.maxDepth))).toEqual([['', TREE_TOO_DEEP]]);
    // Parsed as JSON text: building it as objects and stringifying would recurse too.
    const depth = 50_000;
    const deep: unknown = JSON.parse('[' + '{"folder_id":"D","name":"D","emoji":"","sub":['.repeat(depth) + ']}'.repeat(depth) + ']');
    expect(FolderTree.safeParse(deep).error?.issues.map((issue) => issue.message)).toEqual([TREE_TOO_DEEP]);
    expect(treeSizeProblem(deep)).toBe(TREE_TOO_DEEP);
    // Objects of no known shape nest through sub too.
    expect(treeSizeProblem(JSON.parse('[' + '{"sub":['.repeat(depth) + ']}'.repeat(depth) + ']'))).toBe(TREE_TOO_DEEP);
  });

  it('refuses more than TREE_LIMITS.maxNodes nodes at the root with its own message', () => {
    const wide = Array.from({ length: TREE_LIMITS.maxNodes + 1 }, (_, i) => leaf(`v${i}`));
    expect(issuesOf(wide)).toEqual([['', `El árbol no puede superar ${TREE_LIMITS.maxNodes} nodos`]]);
    expect(FolderTree.safeParse(wide.slice(1)).success).toBe(true);
  });

  it('refuses more than TREE_LIMITS.maxNodes nodes in all, however they nest, before parsing them', () => {
    const crowded = [
      folder(
        'A',
        Array.from({ length: TREE_LIMITS.maxNodes }, (_, i) => leaf(`v${i}`)),
      ),
    ];
    expect(issuesOf(crowded)).toEqual([['', TREE_TOO_LARGE]]);
    expect(FolderTree.safeParse([folder('A', crowded[0]!.sub.slice(1))]).success).toBe(true);
  });

  it('names the node, deep in the tree, with the message the UI shows', () => {
    expect(issuesOf([{ name: 'x' }])).toEqual([['0', UNKNOWN_NODE]]);
    expect(issuesOf([folder('A', [folder('B', [], { name: '   ' })])])).toEqual([['0.sub.0.name', TITLE_REQUIRED]]);
    expect(issuesOf([folder('A', [{ ...folder('B'), color: 'red' } as TreeNode])])).toEqual([['0.sub.0', 'Campo desconocido: 0.sub.0.color']]);
    expect(issuesOf([folder('no válido')])).toEqual([['0.folder_id', 'folder_id debe tener solo letras y dígitos (hasta 64)']]);
    expect(issuesOf([folder('A', [], { name: 'x'.repeat(TREE_LIMITS.maxString + 1) })])).toEqual([
      ['0.name', `El título no puede superar ${TREE_LIMITS.maxString} caracteres`],
    ]);
    expect(issuesOf({ nodes: [] })).toEqual([['', 'El cuerpo de la solicitud tiene un tipo inválido']]);
  });

  it('trims a folder name, as the server stores it', () => {
    expect(FolderNodeSchema.parse(folder('A', [], { name: '  Bonos  ' })).name).toBe('Bonos');
  });

  it('infers the node types from the schemas', () => {
    expectTypeOf<VisorNode>().toEqualTypeOf<{ visor_id: string; name: string; emoji: string; color: string; fav?: boolean | undefined; to: string }>();
    expectTypeOf<FolderNode['sub']>().toEqualTypeOf<TreeNode[]>();
    expectTypeOf<TreeNode>().toEqualTypeOf<FolderNode | VisorNode>();
    expectTypeOf(TreeNodeSchema.parse).returns.toEqualTypeOf<TreeNode>();
    expectTypeOf(VisorNodeSchema.parse).returns.toEqualTypeOf<VisorNode>();
  });
});

describe('the tree answers', () => {
  it('GET folders: the tree with its version, nothing else', () => {
    const body = { status: 'success', data: chain(3), version: 4 };
    expect(FolderTreeResponse.parse(body)).toEqual(body);
    expect(FolderTreeResponse.safeParse({ ...body, owner: 'u1' }).success).toBe(false);
    expect(FolderTreeResponse.safeParse({ ...body, data: [{ name: 'x' }] }).success).toBe(false);
  });

  it('a tree save answers its own fields and the workspace after it, each strict', () => {
    const workspace = { tree: chain(2), version: 5, favourites: { visores: [], folders: [] } };
    const body = { status: 'success', version: 5, deleted: ['v0'], workspace };
    expect(SaveTreeResponse.parse(body)).toEqual(body);
    expect(SaveTreeResponse.safeParse({ status: 'success', version: 5, deleted: [] }).success).toBe(false);
    expect(WorkspaceState.safeParse({ ...workspace, visores: [] }).success).toBe(false);
    expect(WorkspaceState.safeParse({ ...workspace, favourites: { visores: [] } }).success).toBe(false);
  });

  it('getFavs: favourite folders carry their whole subtree', () => {
    const body = { status: 'success', data: { visores: [{ visor_id: 'v', emoji: '', title: 'V' }], folders: [folder('F', chain(2))] } };
    expect(FavsResponse.parse(body)).toEqual(body);
    expect(FavsResponse.safeParse({ ...body, data: { ...body.data, folders: [leaf('v')] } }).success).toBe(false);
  });
});

describe('the quote board config (issue 18)', () => {
  const quotes = (config: unknown) => Section.safeParse({ id: 'q1', type: 'quotes', title: 'Bonos', layout: { x: 0, y: 0, w: 6, h: 4 }, config });

  it('reads a config stored before formula rows, {symbols, columns}, as symbol rows in order', () => {
    const parsed = quotes({ symbols: ['DLR/DIC26', 'MERV - XMEV - AL30 - 24hs'], columns: ['bid', 'ask'] });
    expect(parsed.success && parsed.data.config).toEqual({
      rows: [
        { kind: 'symbol', symbol: 'DLR/DIC26' },
        { kind: 'symbol', symbol: 'MERV - XMEV - AL30 - 24hs' },
      ],
      columns: ['bid', 'ask'],
    });
  });

  it('keeps symbol and formula rows of the new shape unchanged, and days to expiry as a column', () => {
    const config = {
      rows: [
        { kind: 'symbol', symbol: 'DLR/DIC26' },
        { kind: 'formula', name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D', unit: 'price' },
      ],
      columns: ['last', 'days_to_expiry'],
    };
    const parsed = quotes(config);
    expect(parsed.success && parsed.data.config).toEqual(config);
  });

  it.each([
    ['an unknown key of the old shape', { symbols: ['GGAL'], columns: [], colour: 'red' }, 'colour'],
    ['an empty symbol of the old shape', { symbols: [' '], columns: [] }, 'El símbolo no puede estar vacío'],
    ['a formula row without a name', { rows: [{ kind: 'formula', name: '', expression: 'BYMA:AL30' }], columns: [] }, 'El nombre no puede estar vacío'],
    ['a row of an unknown kind', { rows: [{ kind: 'chart', symbol: 'X' }], columns: [] }, 'Fila desconocida'],
    ['too many rows', { rows: Array.from({ length: 501 }, (_, i) => ({ kind: 'symbol', symbol: `S${i}` })), columns: [] }, '500 filas'],
  ])('refuses %s with a message that names it', (_case, config, message) => {
    const parsed = quotes(config);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(message);
  });

  it('migrates only the old shape: a config that has rows is left to the strict parse', () => {
    expect(migrateQuotesConfig({ rows: [], symbols: ['X'], columns: [] })).toEqual({ rows: [], symbols: ['X'], columns: [] });
    expect(quotes({ rows: [], symbols: ['X'], columns: [] }).success).toBe(false);
  });

  it("reads stored sections in today's shapes: an old quote board as rows, other sections untouched", () => {
    const layout = { x: 0, y: 0, w: 4, h: 4 };
    const formula = {
      id: 'f',
      type: 'formula',
      title: 'F',
      layout,
      config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D', unit: 'price' }] },
    };
    const curve = { id: 'c', type: 'curve', title: 'C', layout, config: { product: 'DLR', spot: 'DLR/SPOT', dayCount: 'calendar' } };
    const stored = JSON.stringify([{ id: 'q', type: 'quotes', title: 'Q', layout, config: { symbols: ['DLR/DIC26'], columns: [] } }, formula, curve]);
    expect(storedSecciones(stored)).toEqual([
      { id: 'q', type: 'quotes', title: 'Q', layout, config: { rows: [{ kind: 'symbol', symbol: 'DLR/DIC26' }], columns: [] } },
      formula,
      curve,
    ]);
  });
});

describe("what a formula's value is: its unit", () => {
  const layout = { x: 0, y: 0, w: 4, h: 4 };
  const formulaSection = (formulas: unknown[]) => Section.safeParse({ id: 'f', type: 'formula', title: 'F', layout, config: { formulas } });
  const board = (rows: unknown[]) => Section.safeParse({ id: 'q', type: 'quotes', title: 'Q', layout, config: { rows, columns: [] } });

  it.each([
    // The presets and the demo's samples, by name.
    ['Dólar MEP', 'BYMA:AL30 / BYMA:AL30D', 'price'],
    ['dolar  ccl', 'BYMA:AL30 / BYMA:AL30C', 'price'],
    ['Canje', '(BYMA:AL30 / BYMA:AL30C) / (BYMA:AL30 / BYMA:AL30D)', 'ratio'],
    ['Canje (CCL / MEP)', '(BYMA:AL30 / BYMA:AL30C) / (BYMA:AL30 / BYMA:AL30D)', 'ratio'],
    ['Brecha (MEP / A3500)', '(BYMA:AL30 / BYMA:AL30D) / ROFEX:DLR/SPOT', 'ratio'],
    ['Brecha MEP %', '((BYMA:AL30 / BYMA:AL30D) / ROFEX:DLR/SPOT - 1) * 100', 'rate'],
    // A percentage's shape, whatever the name.
    ['Devaluación implícita NOV26 (%)', '(ROFEX:DLR/NOV26 / ROFEX:DLR/SPOT - 1) * 100', 'rate'],
    ['Mi tasa', '( ROFEX:DLR/DIC26/ROFEX:DLR/NOV26 - 1 )*100', 'rate'],
    ['Otra', '100 * (ROFEX:DLR/DIC26 / ROFEX:DLR/SPOT - 1)', 'rate'],
    ['Otra más', 'ROFEX:DLR/DIC26 / ROFEX:DLR/SPOT * 100 - 100', 'rate'],
    // Anything else: a price, as every change was read before.
    ['MEP AL30', 'BYMA:AL30 / BYMA:AL30D', 'price'],
    ['Pase', 'ROFEX:DLR/ENE27 - ROFEX:DLR/DIC26', 'price'],
    ['Cien veces', 'BYMA:AL30 * 100', 'price'],
  ])('infers %s = %s as %s', (name, expression, unit) => {
    expect(inferFormulaUnit(name, expression)).toBe(unit);
  });

  it('loads a formula section stored without units with the inferred ones, and keeps a chosen unit as it is', () => {
    const parsed = formulaSection([
      { name: 'Dólar MEP', expression: 'BYMA:AL30/BYMA:AL30D' },
      { name: 'Devaluación implícita NOV26 (%)', expression: '(ROFEX:DLR/NOV26 / ROFEX:DLR/SPOT - 1) * 100' },
      { name: 'Canje', expression: 'BYMA:AL30C / BYMA:AL30D', unit: 'price' },
    ]);
    expect(parsed.success && parsed.data.config).toEqual({
      formulas: [
        { name: 'Dólar MEP', expression: 'BYMA:AL30/BYMA:AL30D', unit: 'price' },
        { name: 'Devaluación implícita NOV26 (%)', expression: '(ROFEX:DLR/NOV26 / ROFEX:DLR/SPOT - 1) * 100', unit: 'rate' },
        { name: 'Canje', expression: 'BYMA:AL30C / BYMA:AL30D', unit: 'price' },
      ],
    });
  });

  it("loads a quote board's formula rows stored without units with the inferred ones; symbol rows untouched", () => {
    const parsed = board([
      { kind: 'symbol', symbol: 'DLR/DIC26' },
      { kind: 'formula', name: 'Brecha MEP %', expression: '((BYMA:AL30 / BYMA:AL30D) / ROFEX:DLR/SPOT - 1) * 100' },
    ]);
    expect(parsed.success && parsed.data.config).toEqual({
      columns: [],
      rows: [
        { kind: 'symbol', symbol: 'DLR/DIC26' },
        { kind: 'formula', name: 'Brecha MEP %', expression: '((BYMA:AL30 / BYMA:AL30D) / ROFEX:DLR/SPOT - 1) * 100', unit: 'rate' },
      ],
    });
  });

  it('refuses a unit it does not know, naming the field', () => {
    const parsed = formulaSection([{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D', unit: 'percent' }]);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('unit');
    expect(board([{ kind: 'formula', name: 'MEP', expression: 'A', unit: 2 }]).success).toBe(false);
  });

  it('reads stored sections with the inferred units (the server answers them so), leaving configs that have them alone', () => {
    const stored = JSON.stringify([
      { id: 'f', type: 'formula', title: 'F', layout, config: { formulas: [{ name: 'Canje', expression: 'BYMA:AL30C / BYMA:AL30D' }] } },
      { id: 'q', type: 'quotes', title: 'Q', layout, config: { symbols: ['DLR/DIC26'], columns: [] } },
      {
        id: 'r',
        type: 'quotes',
        title: 'R',
        layout,
        config: { rows: [{ kind: 'formula', name: 'T', expression: '(ROFEX:DLR/DIC26 / ROFEX:DLR/SPOT - 1) * 100' }], columns: [] },
      },
    ]);
    const [formulas, old, rows] = storedSecciones(stored);
    expect(formulas!.config).toEqual({ formulas: [{ name: 'Canje', expression: 'BYMA:AL30C / BYMA:AL30D', unit: 'ratio' }] });
    expect(old!.config).toEqual({ rows: [{ kind: 'symbol', symbol: 'DLR/DIC26' }], columns: [] });
    expect(rows!.config).toEqual({
      rows: [{ kind: 'formula', name: 'T', expression: '(ROFEX:DLR/DIC26 / ROFEX:DLR/SPOT - 1) * 100', unit: 'rate' }],
      columns: [],
    });
    const current = { formulas: [{ name: 'A', expression: 'BYMA:AL30', unit: 'rate' }] };
    expect(migrateFormulaConfig(current)).toBe(current);
    const currentBoard = { rows: [{ kind: 'formula', name: 'A', expression: 'BYMA:AL30', unit: 'ratio' }], columns: [] };
    expect(migrateQuotesConfig(currentBoard)).toBe(currentBoard);
  });
});

describe('the futures curve config (issue 19)', () => {
  const curve = (config: unknown) => Section.safeParse({ id: 'c1', type: 'curve', title: 'Curva', layout: { x: 0, y: 0, w: 8, h: 8 }, config });

  it('reads a config stored before the chart rate and the optional spot as it was, day count filled', () => {
    const stored = curve({ product: 'DLR', spot: 'DLR/SPOT' });
    expect(stored.success && stored.data.config).toEqual({ product: 'DLR', spot: 'DLR/SPOT', dayCount: 'calendar' });
    const weekdays = curve({ product: 'DLR', spot: 'USDARS', dayCount: 'weekdays' });
    expect(weekdays.success && weekdays.data.config).toEqual({ product: 'DLR', spot: 'USDARS', dayCount: 'weekdays' });
  });

  it('keeps the chart rate and takes an empty spot as none', () => {
    const config = { product: 'WTI', spot: '', dayCount: 'calendar', rate: 'tea' };
    const parsed = curve(config);
    expect(parsed.success && parsed.data.config).toEqual(config);
  });

  it.each([
    ['an unknown rate', { product: 'DLR', spot: 'DLR/SPOT', rate: 'tir' }, 'rate'],
    ['an empty product', { product: ' ', spot: 'DLR/SPOT' }, 'El producto no puede estar vacío'],
    ['a spot too long', { product: 'DLR', spot: 'X'.repeat(101) }, 'La referencia spot no puede superar 100 caracteres'],
    ['an unknown key', { product: 'DLR', spot: 'DLR/SPOT', colour: 'red' }, 'colour'],
  ])('refuses %s', (_case, config, message) => {
    const parsed = curve(config);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(message);
  });
});
