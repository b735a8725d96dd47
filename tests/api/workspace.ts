// Workspace calls and sample data shared by the visores and folder-tree API tests.
import { expect } from 'vitest';
import {
  FavsResponse,
  FolderTreeResponse,
  NewVisorResponse,
  PublicVisorResponse,
  VisorListResponse,
  VisorResponse,
  visorLink,
  type FolderNode,
  type PublicVisor,
  type Section,
  type TreeNode,
  type Visor,
  type VisorNode,
  type VisorSummary,
  type WorkspaceState,
} from '../../src/protocol/workspace.js';
import { SECTIONS } from '../sampleSections.js';
import { expectBody, type ApiResponse, type Session } from './helpers.js';

export { SECTIONS };

/**
 * SECTIONS as anyone but their owner gets them (a visitor, a clone of someone else's visor): the
 * positions section without the owner's broker account, address or username.
 */
export const SECTIONS_WITHOUT_BROKER: Section[] = SECTIONS.map((section) => (section.type === 'positions' ? { ...section, config: {} } : section));

/** POST /api/visores/{userId}/new; returns the new visor's id. */
export async function newVisor(who: Session, body: Record<string, unknown> = {}): Promise<string> {
  const response = await who.api.post(`/api/visores/${who.user._id}/new`, { title: 'Visor de prueba', ...body });
  return expectBody(response, NewVisorResponse).data.id_visor;
}

export async function readVisor(who: Session, visorId: string): Promise<Visor> {
  return expectBody(await who.api.get(`/api/visores/${visorId}/get`), VisorResponse).data;
}

/** GET /api/visores/{id}/get by a user who does not own the visor: the public fields only. */
export async function readPublicVisor(who: Session, visorId: string): Promise<PublicVisor> {
  return expectBody(await who.api.get(`/api/visores/${visorId}/get`), PublicVisorResponse).data;
}

/** What a visitor may read of a visor its owner reads as `visor`. */
export function publicFieldsOf(visor: Visor): PublicVisor {
  expect(visor.public).toBe(true);
  return {
    visor_id: visor.visor_id,
    title: visor.title,
    emoji: visor.emoji,
    color: visor.color,
    public: true,
    secciones: visor.secciones.map((section) => (section.type === 'positions' ? { ...section, config: {} } : section)),
    version: visor.version,
  };
}

/** GET /api/visores/{userId}: the user's visores without their sections. */
export async function listVisores(who: Session): Promise<VisorSummary[]> {
  return expectBody(await who.api.get(`/api/visores/${who.user._id}`), VisorListResponse).data;
}

export async function readTree(who: Session): Promise<{ nodes: TreeNode[]; version: number }> {
  const response = await who.api.get(`/api/visores/${who.user._id}/folders`);
  const { data, version } = expectBody(response, FolderTreeResponse);
  expect(response.headers.get('etag')).toBe(`"${version}"`);
  return { nodes: data, version };
}

/** PUT /api/visores/{userId}/folders, with If-Match when a version (or raw header) is given. */
export function saveTree(who: Session, nodes: unknown, ifMatch?: number | string): Promise<ApiResponse> {
  const headers: Record<string, string> = ifMatch === undefined ? {} : { 'if-match': String(ifMatch) };
  return who.api.put(`/api/visores/${who.user._id}/folders`, nodes, { headers });
}

export async function getFavs(who: Session): Promise<FavsResponse['data']> {
  return expectBody(await who.api.get(`/api/visores/${who.user._id}/getFavs`), FavsResponse).data;
}

/** The workspace as a client reads it (tree, version, favourites): what every write must answer. */
export async function workspaceOf(who: Session): Promise<WorkspaceState> {
  const tree = await readTree(who);
  return { tree: tree.nodes, version: tree.version, favourites: await getFavs(who) };
}

export function folder(folderId: string, sub: TreeNode[] = [], extra: Partial<FolderNode> = {}): FolderNode {
  return { folder_id: folderId, name: `Carpeta ${folderId}`, emoji: '📁', sub, ...extra };
}

/** A leaf as a client might send it; the server rewrites name/emoji/color/to from the visor. */
export function leaf(visorId: string, extra: Partial<VisorNode> = {}): VisorNode {
  return { visor_id: visorId, name: 'nombre del cliente', emoji: '', color: 'red', to: visorLink(visorId), ...extra };
}

/** The leaf the server keeps for a visor: its fields come from the visor row. */
export function leafOfVisor(visor: Visor): VisorNode {
  return { visor_id: visor.visor_id, name: visor.title, emoji: visor.emoji, color: visor.color, fav: visor.fav, to: visorLink(visor.visor_id) };
}

/** Every visor leaf of a tree, depth first. */
export function leavesOf(nodes: readonly TreeNode[]): VisorNode[] {
  return nodes.flatMap((node) => ('folder_id' in node ? leavesOf(node.sub) : [node]));
}
