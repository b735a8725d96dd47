/** Id of the signed-in branch of the route table; its loader data is the current user. */
export const SESSION_ROUTE_ID = 'session';
