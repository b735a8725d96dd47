// The operator log's actions (server/db/operatorLog.ts) as the admin reads them.
export const LOG_ACTIONS: Record<string, string> = {
  login: 'Inicio de sesión',
  login_failed: 'Inicio de sesión fallido',
  login_blocked: 'Inicio de sesión bloqueado',
  logout: 'Cierre de sesión',
  visor_create: 'Visor creado',
  visor_update: 'Visor modificado',
  visor_delete: 'Visor borrado',
  visor_clone: 'Visor clonado',
  visor_share: 'Visor compartido',
  tree_save: 'Carpetas guardadas',
  profile_update: 'Perfil modificado',
  password_change: 'Contraseña cambiada',
  password_change_blocked: 'Cambio de contraseña bloqueado',
  admin_user_create: 'Usuario creado (admin)',
  admin_user_update: 'Usuario modificado (admin)',
  admin_user_delete: 'Usuario borrado (admin)',
  feed_start: 'Feed iniciado (admin)',
  feed_stop: 'Feed detenido (admin)',
  feed_rate: 'Ritmo de feed cambiado (admin)',
};

export function actionLabel(action: string): string {
  return LOG_ACTIONS[action] ?? action;
}
