// Hash routes of the Studio (`#/`, `#/designs/<id>`, `#/designs/<id>/edit`, `#/tasks`, `#/import`): parsed from and written to
// location.hash, so a reload or a shared link opens the same view and nothing goes to the server. No DOM.

export type Route =
  | { view: 'designs' }
  | { view: 'design'; id: number }
  | { view: 'edit'; id: number }
  | { view: 'tasks' }
  | { view: 'import' }
  | { view: 'unknown'; hash: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/';
  if (path === '/' || path === '') return { view: 'designs' };
  if (path === '/tasks') return { view: 'tasks' };
  if (path === '/import') return { view: 'import' };
  const m = /^\/designs\/(\d{1,15})(\/edit)?$/.exec(path);
  if (m) return m[2] ? { view: 'edit', id: Number(m[1]) } : { view: 'design', id: Number(m[1]) };
  return { view: 'unknown', hash };
}

export function routeHash(route: Route): string {
  switch (route.view) {
    case 'designs':
      return '#/';
    case 'design':
      return `#/designs/${route.id}`;
    case 'edit':
      return `#/designs/${route.id}/edit`;
    case 'tasks':
      return '#/tasks';
    case 'import':
      return '#/import';
    case 'unknown':
      return route.hash;
  }
}
