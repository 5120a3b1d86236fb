// The HTML reference page (GET /docs/api): Redoc's standalone bundle, served by the API itself from the redoc
// package (GET /docs/api/redoc.standalone.js), renders /openapi.json with a sidebar and search. Nothing is loaded from
// another origin: the CSP allows only this origin, plus the inline styles Redoc injects and its search worker, which
// it starts from a blob: URL. docs/api-reference.md.

export const REDOC_BUNDLE_PATH = '/docs/api/redoc.standalone.js';

/** The one external address the bundle would load (an image); the route serves the bundle without it. */
export const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/** Same-origin scripts, data and images only. */
export const API_REFERENCE_CSP =
  "default-src 'none'; script-src 'self'; worker-src blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// The bundle reads its options from the <redoc> element's attributes: the document's own extensions (the scope a
// route needs, the decisions taken where a spec is silent) are shown beside each operation.
export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folio API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="/openapi.json" show-extensions="x-folio-scope,x-folio-decision,x-folio-extension" sort-tags-alphabetically="false" path-in-middle-panel="true" required-props-first="true"></redoc>
<script src="${REDOC_BUNDLE_PATH}"></script>
</body>
</html>
`;
