import express, { Router, type RequestHandler } from "express";
import getAbsoluteFSPath from "swagger-ui-dist/absolute-path.js";
import { openApiDocument } from "./document";

/** The files of swagger-ui-dist the page loads (its index.html and initializer point at the petstore demo: not served). */
const ASSETS = new Set(["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Billing platform API</title>
  <link rel="stylesheet" href="swagger-ui.css">
  <link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="swagger-ui-bundle.js"></script>
  <script src="init.js"></script>
</body>
</html>
`;

// relative URLs: the page works behind a proxy that mounts the gateway under a prefix
const INIT = `window.ui = SwaggerUIBundle({
  url: "../api/v1/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
});
`;

/**
 * `GET /api/v1/openapi.json` (the OpenAPI document, generated once; no API key) and `/docs/`, Swagger UI
 * on it. The viewer's files come from our own dependency (swagger-ui-dist), never a CDN. Mounted
 * ahead of /api/v1's authentication.
 */
export function docsRouter(): Router {
  const router = Router();
  const assets = express.static(getAbsoluteFSPath(), { index: false, fallthrough: true, maxAge: "1d" });
  const onlyAssets: RequestHandler = (req, res, next) =>
    ASSETS.has(req.path.slice(1)) ? assets(req, res, next) : next();

  router.get("/api/v1/openapi.json", (_req, res) => {
    res.type("json").send(openApiDocument().json);
  });
  router.get("/docs", (req, res, next) => {
    // express matches /docs and /docs/ alike; the page's relative URLs need the slash
    if (!req.originalUrl.split("?")[0]!.endsWith("/")) return res.redirect(301, `${req.baseUrl}/docs/`);
    next();
  });
  router.get("/docs/", (_req, res) => {
    res.type("html").send(PAGE);
  });
  router.get("/docs/init.js", (_req, res) => {
    res.type("js").send(INIT);
  });
  router.use("/docs", onlyAssets);
  return router;
}
