// Wire shapes of the workspace: visores, their sections, and each user's folder tree
// (spec section 3). The server validates bodies with these; the client takes its types.
import { normalizeColor } from './color';
import { safeText, trimmedText, z } from './zod';
import { OkResponse, successData } from './response';

export const DEFAULT_VISOR_COLOR = 'hsl(270 100% 50% / 0.8)';
export const TITLE_REQUIRED = 'El título no puede estar vacío';

/** Limits of one user's tree (issue 3). */
export const TREE_LIMITS = { maxDepth: 16, maxNodes: 5000, maxString: 200 } as const;
export const MAX_SECTIONS = 100;

/** Text from a client: no control characters nor lone surrogates (safeText), at most `max` long. */
const text = (label: string, max: number = TREE_LIMITS.maxString, trim = false) =>
  safeText({ error: `${label} debe ser texto` }, { trim }).max(max, `${label} no puede superar ${max} caracteres`);

export const Title = trimmedText({ error: TITLE_REQUIRED })
  .min(1, TITLE_REQUIRED)
  .max(TREE_LIMITS.maxString, `El título no puede superar ${TREE_LIMITS.maxString} caracteres`);
export const Emoji = text('El emoji', 32);
export const INVALID_COLOR = 'El color debe ser un color: #hex, rgb(), hsl(), hwb() o un nombre como red';

/**
 * A visor's colour: hex, rgb(a), hsl(a), hwb or a colour name, stored as normalizeColor
 * prints it (as the colour picker does; a name as hex). Any other CSS — `url(…)`, a second
 * declaration, var(), expressions — is refused (issue 17): the sidebar paints it as a background.
 */
export const Color = text('El color', 100, true)
  .min(1, 'El color no puede estar vacío')
  .transform((value, ctx) => {
    const color = normalizeColor(value);
    if (color == null) ctx.addIssue({ code: 'custom', message: INVALID_COLOR });
    return color ?? value;
  });

/** A colour as stored, as the server answers it: one that does not parse (stored before issue 17) reads as the default. */
export function storedColor(color: string): string {
  let normal = storedColors.get(color);
  if (normal === undefined) {
    normal = normalizeColor(color) ?? DEFAULT_VISOR_COLOR;
    // A user's visores share a few colours: a list of 200 parsed each one 200 times.
    if (storedColors.size >= STORED_COLORS_KEPT) storedColors.clear();
    storedColors.set(color, normal);
  }
  return normal;
}
const STORED_COLORS_KEPT = 512;
const storedColors = new Map<string, string>();

/** Folder ids: random letters and digits (spec section 3). */
export const FolderId = z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'folder_id debe tener solo letras y dígitos (hasta 64)');
export const VisorId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'visor_id inválido');

// ---------------------------------------------------------------------------- the tree

// The schemas are the one definition of the nodes; the types are inferred from them. A
// folder's `sub` is a getter so the schema can name TreeNodeSchema before it exists.

export const VisorNodeSchema = z.strictObject({
  visor_id: VisorId,
  name: text('name'),
  emoji: Emoji,
  color: text('color', 100),
  fav: z.boolean().optional(),
  to: text('to'),
});
export type VisorNode = z.infer<typeof VisorNodeSchema>;

export const FolderNodeSchema = z.strictObject({
  folder_id: FolderId,
  name: Title,
  emoji: Emoji,
  fav: z.boolean().optional(),
  get sub(): z.ZodArray<typeof TreeNodeSchema> {
    return z.array(TreeNodeSchema).max(TREE_LIMITS.maxNodes);
  },
  heading: z.boolean().optional(),
  over: z.boolean().optional(),
  // No `to`, `icon` nor `subActivePaths` (issue 17): links and icons are the app's to draw,
  // never text a client stored (`to: 'javascript:…'` was). A leaf's `to` is rewritten by the server.
});
export type FolderNode = z.infer<typeof FolderNodeSchema>;

/**
 * A node is a folder when it has folder_id, a visor leaf when it has visor_id. Depth, the
 * count over the whole tree and repeated ids are checked by treeProblem (src/lib/folderTree.ts).
 */
export const TreeNodeSchema = z.union([FolderNodeSchema, VisorNodeSchema], {
  error: 'Nodo desconocido: se esperaba una carpeta (folder_id, name, emoji, sub) o un visor (visor_id, name, emoji, color, to)',
});
export type TreeNode = z.infer<typeof TreeNodeSchema>;

export function visorLink(visorId: string): string {
  return `visor/${visorId}/edit`;
}

export function isFolderNode(node: TreeNode): node is FolderNode {
  return 'folder_id' in node;
}

export const TREE_TOO_DEEP = `El árbol no puede superar ${TREE_LIMITS.maxDepth} niveles`;
export const TREE_TOO_LARGE = `El árbol no puede superar ${TREE_LIMITS.maxNodes} nodos`;

/**
 * The depth or node count a tree as sent breaks, as the message the UI shows, or null. It
 * walks the raw JSON with a list of pending levels, not recursion, before the nodes are
 * parsed: parsing them recurses once per level, and 600 nested folders overflowed the stack
 * (issue 17). Every item of a list counts as a node and every `sub` list of an object as a
 * level below it, whatever else is wrong with them (the parse says that afterwards).
 */
export function treeSizeProblem(raw: unknown): string | null {
  if (!Array.isArray(raw)) return null;
  let count = 0;
  const pending: Array<{ list: readonly unknown[]; depth: number }> = [{ list: raw, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.list.length > 0 && next.depth > TREE_LIMITS.maxDepth) return TREE_TOO_DEEP;
    for (const item of next.list) {
      count += 1;
      if (count > TREE_LIMITS.maxNodes) return TREE_TOO_LARGE;
      const sub: unknown = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as { sub?: unknown }).sub : undefined;
      if (Array.isArray(sub)) pending.push({ list: sub, depth: next.depth + 1 });
    }
  }
  return null;
}

/** A whole tree: its size is checked first, without recursion (treeSizeProblem), then its nodes are parsed. */
export const FolderTree = z
  .unknown()
  .superRefine((raw, ctx) => {
    const problem = treeSizeProblem(raw);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, abort: true });
  })
  .pipe(z.array(TreeNodeSchema).max(TREE_LIMITS.maxNodes, TREE_TOO_LARGE));
export type FolderTree = z.infer<typeof FolderTree>;

/**
 * GET /visores/{userId}/folders: the tree and its version (also the ETag). With
 * `If-None-Match: "<version>"` naming the current version it answers 304 without a body.
 */
export const FolderTreeResponse = z.strictObject({
  status: z.literal('success'),
  data: FolderTree,
  version: z.number(),
});
export type FolderTreeResponse = z.infer<typeof FolderTreeResponse>;

// ------------------------------------------------------------------------- sections

const Symbol = text('El símbolo', 100, true).min(1, 'El símbolo no puede estar vacío');
const Expression = text('La fórmula', 500, true).min(1, 'La fórmula no puede estar vacía');

export const QUOTE_COLUMNS = [
  'bid_size',
  'bid',
  'ask',
  'ask_size',
  'last',
  'change',
  'change_pct',
  'open',
  'high',
  'low',
  'close',
  'settlement',
  'volume',
  'open_interest',
  'expiration',
  'days_to_expiry',
  'time',
] as const;

export type QuoteColumn = (typeof QUOTE_COLUMNS)[number];
const FormulaName = text('El nombre', 100, true).min(1, 'El nombre no puede estar vacío');

export const MAX_QUOTE_ROWS = 500;

/**
 * What a formula's value is: a price (the MEP dollar, pesos per dollar), a ratio of two prices
 * (the canje, CCL over MEP: its premium over 1 is what moves), or a rate written in percent (a
 * gap or an implied devaluation, `(F / S - 1) * 100`). Its change reads by it: a price in
 * percent of itself, a ratio's premium and a rate in percentage points (src/lib/valueChange.ts).
 */
export const FORMULA_UNITS = ['price', 'ratio', 'rate'] as const;
export type FormulaUnit = (typeof FORMULA_UNITS)[number];
const Unit = z.enum(FORMULA_UNITS, { error: "La unidad de la fórmula debe ser 'price' (precio), 'ratio' (cociente) o 'rate' (tasa en %)" });

/** Names folded to compare: lower case, no accents, single spaces. */
const foldName = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** The units of the presets and of the demo's sample formulas, by name, as they were made before units. */
const KNOWN_UNITS: ReadonlyMap<string, FormulaUnit> = new Map([
  ['dolar mep', 'price'],
  ['dolar ccl', 'price'],
  ['canje', 'ratio'],
  ['canje (ccl / mep)', 'ratio'],
  ['brecha (mep / a3500)', 'ratio'],
  ['brecha mep %', 'rate'],
]);

/** A percentage made from a ratio: `(A / B - 1) * 100`, `100 * (A / B - 1)`, `A / B * 100 - 100` (spaces removed). */
const PERCENT_SHAPES = [/-1\)\*100$/, /^100\*\(.*-1\)$/, /\*100-100$/];

/**
 * The unit of a formula stored before formulas had one: a preset's or a sample's name says
 * it, a percentage's shape says rate; anything else is a price (what every change was read
 * as before).
 */
export function inferFormulaUnit(name: string, expression: string): FormulaUnit {
  const known = KNOWN_UNITS.get(foldName(name));
  if (known) return known;
  const compact = expression.replace(/\s+/g, '');
  return PERCENT_SHAPES.some((shape) => shape.test(compact)) ? 'rate' : 'price';
}

const isPlainObject = (raw: unknown): raw is Record<string, unknown> => raw !== null && typeof raw === 'object' && !Array.isArray(raw);

/** A formula stored without its unit gets the inferred one; anything else is left to the strict parse. */
function withUnit(raw: unknown): unknown {
  if (!isPlainObject(raw) || 'unit' in raw) return raw;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { ...raw, unit: inferFormulaUnit(text(raw.name), text(raw.expression)) };
}

/** A row of a quote board: a symbol (`DLR/DIC26`, `MERV - XMEV - AL30 - 24hs`) or a named formula with its unit. */
export const QuoteRowConfig = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('symbol'), symbol: Symbol }),
    z.strictObject({ kind: z.literal('formula'), name: FormulaName, expression: Expression, unit: Unit }),
  ],
  { error: "Fila desconocida: se esperaba {kind: 'symbol', symbol} o {kind: 'formula', name, expression, unit}" },
);
export type QuoteRowConfig = z.infer<typeof QuoteRowConfig>;

/**
 * A quote board's config as stored before formula rows (issue 18): `{symbols, columns}`,
 * read as `{rows, columns}` with one symbol row per symbol; and formula rows stored before
 * units, with the inferred one (inferFormulaUnit). Other keys stay, so an unknown one is
 * still refused by name.
 */
export function migrateQuotesConfig(raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw;
  if ('symbols' in raw && !('rows' in raw)) {
    const { symbols, ...rest } = raw;
    const rows = Array.isArray(symbols) ? symbols.map((symbol: unknown) => ({ kind: 'symbol', symbol })) : symbols;
    return { ...rest, rows };
  }
  if (!Array.isArray(raw.rows) || !raw.rows.some((row) => isPlainObject(row) && row.kind === 'formula' && !('unit' in row))) return raw;
  return { ...raw, rows: raw.rows.map((row: unknown) => (isPlainObject(row) && row.kind === 'formula' ? withUnit(row) : row)) };
}

/**
 * A quote board: its rows in order, and its columns (none: the defaults of the kinds of
 * instruments on it, src/lib/quoteColumns.ts). Old configs `{symbols, columns}` still load.
 */
export const QuotesConfig = z.preprocess(
  migrateQuotesConfig,
  z.strictObject({
    rows: z.array(QuoteRowConfig).max(MAX_QUOTE_ROWS, `Una tabla no puede superar ${MAX_QUOTE_ROWS} filas`),
    columns: z.array(z.enum(QUOTE_COLUMNS)).max(QUOTE_COLUMNS.length),
  }),
);
export type QuotesConfig = z.infer<typeof QuotesConfig>;

export const CHART_INTERVALS = ['1m', '5m', '15m', '1h', '1d'] as const;
export const CHART_RANGES = ['1d', '5d', '1M', '3M', '6M', '1Y', '5Y', '10Y'] as const;
export const ChartConfig = z.strictObject({
  /** Symbols (`DLR/DIC26`) or formulas (`BYMA:AL30 / BYMA:AL30D`). */
  series: z.array(Expression).min(1, 'El gráfico necesita al menos una serie').max(20, 'Un gráfico no puede superar 20 series'),
  interval: z.enum(CHART_INTERVALS),
  range: z.enum(CHART_RANGES),
});
export type ChartInterval = (typeof CHART_INTERVALS)[number];
export type ChartRange = (typeof CHART_RANGES)[number];
export type ChartConfig = z.infer<typeof ChartConfig>;

export const CURVE_RATES = ['tna', 'tea'] as const;

export const CurveConfig = z.strictObject({
  /** Futures product, e.g. `DLR`. */
  product: text('El producto', 50, true).min(1, 'El producto no puede estar vacío'),
  /**
   * Spot reference symbol the implied rates are computed against (`DLR/SPOT`, the A3500);
   * empty: none (a product the catalogue lists no spot for), so only the forward rates show.
   */
  spot: text('La referencia spot', 100, true),
  /** Day count: calendar days, or weekdays (spec section 9). */
  dayCount: z.enum(['calendar', 'weekdays']).default('calendar'),
  /** The rate the chart draws (issue 19); absent in configs stored before it: TNA. */
  rate: z.enum(CURVE_RATES).optional(),
});
export type CurveConfig = z.infer<typeof CurveConfig>;

export const NamedFormula = z.strictObject({ name: FormulaName, expression: Expression, unit: Unit });
export type NamedFormula = z.infer<typeof NamedFormula>;
export const MAX_FORMULAS = 100;

/** A formula section's config with the formulas stored before units given the inferred one (inferFormulaUnit). */
export function migrateFormulaConfig(raw: unknown): unknown {
  if (!isPlainObject(raw) || !Array.isArray(raw.formulas) || !raw.formulas.some((formula) => isPlainObject(formula) && !('unit' in formula))) return raw;
  return { ...raw, formulas: raw.formulas.map(withUnit) };
}

export const FormulaConfig = z.preprocess(
  migrateFormulaConfig,
  z.strictObject({
    formulas: z.array(NamedFormula).max(MAX_FORMULAS, `Una sección no puede superar ${MAX_FORMULAS} fórmulas`),
  }),
);
export type FormulaConfig = z.infer<typeof FormulaConfig>;

/**
 * A positions section: the account it shows ('' or absent until one is chosen) and the
 * broker session it is reached through: `brokerUrl` (`sim://`, the paper broker, when absent) and
 * the broker `username` ('' when absent). Never the password: it is sent once, to connect. All
 * are optional, so configs stored as `{account}` load as they are (a paper-broker account), and
 * `{}` is a section whose owner has chosen nothing yet: what anyone but the owner gets
 * (withoutBrokerData). The section reads them with its defaults (sections/positions/positionsConfig.ts).
 */
export const PositionsConfig = z.strictObject({
  account: text('La cuenta', 50, true).optional(),
  brokerUrl: text('La dirección del broker', 300, true).optional(),
  username: text('El usuario del broker', 200, true).optional(),
});

export const Layout = z.strictObject({
  x: z.number().int().min(0).max(1000),
  y: z.number().int().min(0).max(100_000),
  w: z.number().int().min(1).max(1000),
  h: z.number().int().min(1).max(1000),
});

const sectionBase = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'id de sección inválido'),
  title: text('El título', 200),
  layout: Layout,
};

export const Section = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ ...sectionBase, type: z.literal('quotes'), config: QuotesConfig }),
    z.strictObject({ ...sectionBase, type: z.literal('chart'), config: ChartConfig }),
    z.strictObject({ ...sectionBase, type: z.literal('curve'), config: CurveConfig }),
    z.strictObject({ ...sectionBase, type: z.literal('formula'), config: FormulaConfig }),
    z.strictObject({ ...sectionBase, type: z.literal('positions'), config: PositionsConfig }),
  ],
  { error: 'Tipo de sección desconocido: se esperaba quotes, chart, curve, formula o positions' },
);
export type Section = z.infer<typeof Section>;
export type SectionType = Section['type'];

/**
 * The sections of a visor as stored (JSON written by an earlier version, already checked
 * when saved), in today's shapes: a quote board of `{symbols, columns}` reads as rows, and
 * formulas stored without a unit get the inferred one.
 */
export function storedSecciones(json: string): Section[] {
  const sections = JSON.parse(json) as Section[];
  return sections.map((section) => {
    if (section.type === 'quotes')
      return { ...section, config: migrateQuotesConfig(section.config) as SectionOf<'quotes'>['config'] } satisfies SectionOf<'quotes'>;
    if (section.type === 'formula')
      return { ...section, config: migrateFormulaConfig(section.config) as SectionOf<'formula'>['config'] } satisfies SectionOf<'formula'>;
    return section;
  });
}
type SectionOf<T extends Section['type']> = Extract<Section, { type: T }>;

/**
 * The sections as anyone but their owner may have them (a visitor of a public visor, a clone of
 * another user's visor): a positions section keeps its place and title but carries none of the
 * owner's broker (no account, broker address or broker username), so whoever reads or copies it
 * sees nothing of the owner's positions and connects their own.
 */
export function withoutBrokerData(sections: Section[]): Section[] {
  return sections.map((section) => (section.type === 'positions' ? { ...section, config: {} } : section));
}

export const TOO_MANY_SECTIONS = (max: number) => `Un visor no puede superar ${max} secciones`;
export const DUPLICATE_SECTION = (id: string) => `La sección ${id} está repetida: cada sección de un visor necesita su propio id`;

/** A visor's sections: at most MAX_SECTIONS (the server's quota may be lower), each id once (the grid, merges and drafts find a section by it). */
export const Secciones = z
  .array(Section)
  .max(MAX_SECTIONS, TOO_MANY_SECTIONS(MAX_SECTIONS))
  .superRefine((sections, ctx) => {
    const seen = new Set<string>();
    for (const [index, section] of sections.entries()) {
      if (seen.has(section.id)) {
        ctx.addIssue({ code: 'custom', message: DUPLICATE_SECTION(section.id), path: [index, 'id'] });
        return;
      }
      seen.add(section.id);
    }
  });

// -------------------------------------------------------------------------- visores

export const Visor = z.strictObject({
  visor_id: z.string(),
  /** The owner's user id. */
  owner: z.string(),
  title: z.string(),
  emoji: z.string(),
  color: z.string(),
  fav: z.boolean(),
  public: z.boolean(),
  secciones: z.array(Section),
  /** Bumped by every save of the sections: update_secciones' If-Match (issue 18). */
  version: z.number(),
  /** ISO date-times. */
  created_at: z.string(),
  updated_at: z.string(),
});
export type Visor = z.infer<typeof Visor>;

/**
 * A public visor as a user other than its owner reads it (GET /visores/{id}/get): what its
 * public mode shows, and nothing of the owner's (issue 17: not the owner's id, favourite or
 * dates). Who owns a visor is asked with verify_owner_visor.
 */
export const PublicVisor = z.strictObject({
  visor_id: z.string(),
  title: z.string(),
  emoji: z.string(),
  color: z.string(),
  public: z.literal(true),
  secciones: z.array(Section),
  /** As the owner's: public mode sees that the sections changed. */
  version: z.number(),
});
export type PublicVisor = z.infer<typeof PublicVisor>;

/** The owner's own visor, or someone else's public one as they may see it. */
export type ReadVisor = Visor | PublicVisor;

/** A visor read is the caller's own (it has `owner`) or someone else's public one. */
export function isOwnVisor(visor: ReadVisor): visor is Visor {
  return 'owner' in visor;
}

export const NewVisorRequest = z.strictObject({
  title: Title,
  emoji: Emoji.default(''),
  color: Color.default(DEFAULT_VISOR_COLOR),
  /**
   * Where to place the new visor in the tree, atomically with its creation: a folder_id,
   * or null for the root. Absent: not placed (the client places it with a tree save).
   */
  folder_id: FolderId.nullable().optional(),
  /**
   * The new visor's id, chosen by the client (32 lowercase hex digits, 128 random bits) so a
   * create sent again (an offline edit replayed after its first answer was lost, issue 21)
   * makes one visor: an id the caller already has answers that visor as it is. Absent: the
   * server chooses.
   */
  visor_id: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'visor_id debe tener 32 dígitos hexadecimales en minúscula')
    .optional(),
});

export const UpdateVisorRequest = z.strictObject({
  title: Title,
  emoji: Emoji.optional(),
  color: Color.optional(),
});

export const UpdateSeccionesRequest = z.strictObject({ secciones: Secciones });

export const CheckOptionRequest = z.strictObject({
  option: z.literal('public', { error: "option debe ser 'public'" }),
  value: z.boolean({ error: 'value debe ser true o false' }),
});

/** A favourite visor as the favourites list names it. */
export const FavItem = z.strictObject({
  visor_id: z.string(),
  emoji: z.string(),
  title: z.string(),
});
export type FavItem = z.infer<typeof FavItem>;

// ------------------------------------------------------------------------ answers

/** The user's favourites: favourite visores by title, and favourite folders with their whole subtree. */
export const Favourites = z.strictObject({ visores: z.array(FavItem), folders: z.array(FolderNodeSchema) });
export type Favourites = z.infer<typeof Favourites>;

/**
 * What every write of the tree, a visor or a favourite answers beside its own fields, read
 * in the write's transaction: the tree as the server stored it (leaves rewritten from the
 * visores), its version, and the favourites. The client stores it as is, with no second read.
 */
export const WorkspaceState = z.strictObject({
  tree: FolderTree,
  version: z.number(),
  favourites: Favourites,
});
export type WorkspaceState = z.infer<typeof WorkspaceState>;

/** An answer's own fields, and the workspace after the write. */
function withWorkspace<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject({ ...shape, workspace: WorkspaceState });
}

/** PUT /visores/{userId}/folders: the new version, the visores its dropped leaves deleted, and the workspace. */
export const SaveTreeResponse = withWorkspace({
  status: z.literal('success'),
  version: z.number(),
  deleted: z.array(z.string()),
});
export type SaveTreeResponse = z.infer<typeof SaveTreeResponse>;

/**
 * A visor as the list of a user's visores names it: every field but its sections, which can be
 * large (a user may store MAX_USER_STORAGE_MB of them). GET /visores/{id}/get reads one whole;
 * `version` says whether a copy read before still has the current sections.
 */
export const VisorSummary = Visor.omit({ secciones: true });
export type VisorSummary = z.infer<typeof VisorSummary>;

/** GET /visores/{userId}: the user's visores without their sections, the latest change first (at most MAX_VISORES_PER_USER). */
export const VisorListResponse = successData(z.array(VisorSummary));
export type VisorListResponse = z.infer<typeof VisorListResponse>;

/**
 * PUT …/update_secciones (with `If-Match: "<version>"`, a stale save answers 412; the answer's
 * ETag is the new version), PUT …/check_option, and GET /visores/{id}/get by its owner: the visor as it is now.
 */
export const VisorResponse = successData(Visor);
export type VisorResponse = z.infer<typeof VisorResponse>;

/** GET /visores/{id}/get by a user who does not own the (public) visor. */
export const PublicVisorResponse = successData(PublicVisor);
export type PublicVisorResponse = z.infer<typeof PublicVisorResponse>;

/** GET /visores/{id}/get: the whole visor for its owner, the public fields for anyone else. */
export const ReadVisorResponse = successData(z.union([Visor, PublicVisor]));
export type ReadVisorResponse = z.infer<typeof ReadVisorResponse>;

/** PUT /visores/{id}: the visor as it is now, and the workspace (its leaf rewritten). */
export const UpdateVisorResponse = withWorkspace({ status: z.literal('success'), data: Visor });
export type UpdateVisorResponse = z.infer<typeof UpdateVisorResponse>;

/** POST /visores/{userId}/new and POST /visores/{userId}/{visorId}/clonar: the new visor (and its id), and the workspace. */
export const NewVisorResponse = withWorkspace({ status: z.literal('success'), data: z.strictObject({ id_visor: z.string(), visor: Visor }) });
export type NewVisorResponse = z.infer<typeof NewVisorResponse>;

/** DELETE /visores/{id}: `ok`, and the workspace without the visor. */
export const DeleteVisorResponse = withWorkspace(OkResponse.shape);
export type DeleteVisorResponse = z.infer<typeof DeleteVisorResponse>;

/** GET /visores/{userId}/{visorId}/fav. */
export const FavResponse = successData(z.strictObject({ fav: z.boolean() }));
export type FavResponse = z.infer<typeof FavResponse>;

/** PUT /visores/{userId}/{visorId}/fav (a toggle): the new value, and the workspace. */
export const ToggleFavResponse = withWorkspace({ status: z.literal('success'), data: z.strictObject({ fav: z.boolean() }) });
export type ToggleFavResponse = z.infer<typeof ToggleFavResponse>;

/** GET /visores/{userId}/getFavs: favourite visores, and favourite folders with their whole subtree. */
export const FavsResponse = successData(Favourites);
export type FavsResponse = z.infer<typeof FavsResponse>;

/** The message of a 412 from update_secciones. */
export const STALE_VISOR = 'El visor cambió en otra pestaña o dispositivo. Recárguelo y vuelva a intentar.';

/** POST /visores/{userId}/{visorId}/verify_owner_visor. */
export const OwnerResponse = successData(z.strictObject({ owner: z.boolean() }));
export type OwnerResponse = z.infer<typeof OwnerResponse>;

/** What a workspace write changed, as the `workspace` event names it. */
export const WorkspaceChangeKind = z.enum(['tree', 'create', 'visor', 'sections', 'public', 'delete', 'favourite', 'clone']);
export type WorkspaceChangeKind = z.infer<typeof WorkspaceChangeKind>;

/**
 * A visor pushed whole to the user's other devices up to this size of JSON; a bigger one is
 * named with its version (`behind`) and each device reads it (GET …/get), so a megabyte of
 * sections is not copied to every socket at every save.
 */
export const MAX_PUSHED_VISOR_BYTES = 64 * 1024;

/**
 * /ws/market, to every other session of the user, on every process: their workspace changed
 * (on another device or browser). It carries what the write answered its writer, and a device
 * stores it the same way the writer stored its answer (src/workers/syncStore.ts), with no
 * request; only a visor too big to push is read.
 */
export const WorkspaceEvent = z.strictObject({
  event: z.literal('workspace'),
  change: WorkspaceChangeKind,
  /** The workspace (tree, version, favourites) as the write left it; a sections save and Público leave it as it was. */
  workspace: WorkspaceState.optional(),
  /** The visor the write created or changed, sections included. */
  visor: Visor.optional(),
  /** In place of `visor` when it is over MAX_PUSHED_VISOR_BYTES: which one, and the version to read. */
  behind: z.strictObject({ id: VisorId, version: z.number().int().nonnegative() }).optional(),
  /** Visores the write deleted (a delete, or a tree save that dropped their leaves). */
  removed: z.array(VisorId).optional(),
});
export type WorkspaceEvent = z.infer<typeof WorkspaceEvent>;
